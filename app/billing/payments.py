"""Card payments: starting a hosted checkout and applying the provider's notifications (history: payment_history).

Notifications may arrive twice or out of order, so each is applied at most once (ProviderEvent) and only moves a
payment or a subscription forward: pending -> failed | expired | completed, failed -> expired | completed, and
expired -> completed (the money was taken; the expired subscription is not revived, see `_complete`).
"""

from __future__ import annotations

import logging
import uuid
from typing import Any

import sqlalchemy as sa
from flask import current_app
from flask_babel import gettext as _
from sqlalchemy.exc import IntegrityError

from app.accounts.models import User
from app.analytics.services import capture
from app.billing import provider_events, refunds, stripe_gateway
from app.billing.event_fields import EventHandler, Shape, is_text, obj, shape_problem, text
from app.billing.models import Payment, ProviderEvent, Subscription
from app.billing.subscriptions import transitions
from app.core.db import utcnow
from app.core.errors import ApiError
from app.extensions import db
from app.notifications.services import send_email

log = logging.getLogger(__name__)

# A payment in one of these may still end up paid (a declined card can be retried; a late completion).
COMPLETABLE_STATUSES = ("pending", "failed", "expired")
PAID_SESSION_STATES = ("paid", "no_payment_required")


# Checkout


def start_card_checkout(user: User, plan_key: Any, billing_period: Any, brand_ids: Any, seats: Any = None) -> str:
    """Create the shop's pending subscription and its payment (the plan and its extra seats), open the hosted
    checkout and return its address."""
    older_checkouts = _open_card_payments(user)
    subscription = transitions.create_pending(user, plan_key, billing_period, brand_ids, seats)
    amount = subscription.plan.price_with_seats(subscription.billing_period, subscription.seats)
    payment = _new_card_payment(user, subscription, amount, "plan")
    url = _open_checkout(user, subscription, payment)
    _abandon(older_checkouts)
    db.session.flush()
    capture(str(user.id), "checkout_started", payment_properties(payment, subscription))
    return url


def start_seat_checkout(user: User, subscription: Subscription, seats: int, amount: int) -> str:
    """Open the hosted checkout for the extra seats bought on a live subscription (`amount`: their prorated price);
    the seats are added when the provider reports it paid."""
    older_checkouts = _open_card_payments(user)
    payment = _new_card_payment(user, subscription, amount, "seats", seats=seats)
    url = _open_checkout(user, subscription, payment)
    _abandon(older_checkouts)
    db.session.flush()
    capture(str(user.id), "seat_checkout_started", {**payment_properties(payment, subscription), "seats": seats})
    return url


def _new_card_payment(
    user: User, subscription: Subscription, amount: int, purpose: str, seats: int | None = None
) -> Payment:
    payment = Payment(
        shop_id=subscription.shop_id,
        user_id=user.id,
        subscription_id=subscription.id,
        purpose=purpose,
        seats=seats if seats is not None else subscription.seats,
        amount=amount,
        currency=current_app.config["CURRENCY"],
        status="pending",
        method="card",
        billing_period=subscription.billing_period,
    )
    db.session.add(payment)
    db.session.flush()
    return payment


def _open_checkout(user: User, subscription: Subscription, payment: Payment) -> str:
    base_url = current_app.config["BASE_URL"]
    payment.checkout_session_id, url = stripe_gateway.create_checkout_session(
        subscription,
        payment,
        success_url=f"{base_url}/subscription?checkout=success",
        cancel_url=f"{base_url}/subscription?checkout=cancelled",
        customer_email=user.email,
    )
    return url


def _open_card_payments(user: User) -> list[Payment]:
    """The shop's checkouts still open: a new one (by any member) replaces them."""
    if user.shop_id is None:
        return []
    open_payments = sa.select(Payment).where(
        Payment.shop_id == user.shop_id, Payment.method == "card", Payment.status == "pending"
    )
    return list(db.session.scalars(open_payments))


def _abandon(payments: list[Payment]) -> None:
    """A new checkout replaces the older ones: close them here and at the provider, so only one can be paid."""
    for payment in payments:
        payment.status = "expired"
        if payment.checkout_session_id:
            stripe_gateway.expire_checkout_session(payment.checkout_session_id)


# Provider notifications


def handle_webhook_event(event: Any) -> str:
    """Apply a verified provider event once; return "handled", "ignored" (unknown type) or "duplicate"."""
    problem = _event_problem(event)
    if problem is not None:
        event_id = event.get("id") if isinstance(event, dict) else None
        log.warning("card webhook event %.80r refused, nothing changed: %s", event_id, problem)
        raise ApiError("invalid_event", _("The notification is missing a field or has one of the wrong type."), 400)
    if not _first_delivery(event["id"], event["type"]):
        return "duplicate"
    handler = EVENT_HANDLERS.get(event["type"])
    if handler is None:
        return "ignored"
    handler.apply(event["data"]["object"])
    return "handled"


def _event_problem(event: Any) -> str | None:
    """What makes a signed event unusable (a field its handler reads is missing or mistyped), else None."""
    if not isinstance(event, dict):
        return "the event is not an object"
    for name, max_length in (("id", 255), ("type", 100)):
        if not is_text(event.get(name), max_length):
            return f"{name} is missing or not text"
    handler = EVENT_HANDLERS.get(event["type"])
    if handler is None:
        return None  # recorded and ignored: nothing of it is read
    data = event.get("data")
    subject = data.get("object") if isinstance(data, dict) else None
    if not isinstance(subject, dict):
        return "data.object is missing or not an object"
    return shape_problem(subject, handler.reads, "data.object")


def _first_delivery(event_id: str, event_type: str) -> bool:
    if db.session.get(ProviderEvent, event_id) is not None:
        return False
    try:
        with db.session.begin_nested():
            db.session.add(ProviderEvent(id=event_id, type=event_type))
    except IntegrityError:
        return False  # a concurrent delivery of the same event got there first
    return True


def _checkout_completed(session: dict[str, Any]) -> None:
    payment = _payment_for_session(session)
    # Card checkouts are paid when they complete; other methods settle later (async_payment_succeeded).
    if payment is None or session.get("payment_status") not in PAID_SESSION_STATES:
        return
    if payment.status in COMPLETABLE_STATUSES:
        _complete(payment, session.get("payment_intent"))


def _complete(payment: Payment, payment_intent_id: str | None) -> None:
    payment.status = "completed"
    payment.paid_at = utcnow()
    payment.payment_intent_id = payment_intent_id or payment.payment_intent_id
    db.session.flush()
    if payment.purpose == "seats":
        _add_paid_seats(payment)
        return
    subscription = payment.subscription
    activated = subscription is not None and subscription.status == "pending"
    if activated:
        transitions.activate(subscription)
    _report(payment, "payment_success", activated=activated)
    if activated:
        _email(payment, "payment_success", end_date=subscription.end_date)
    else:
        # Paid for a checkout the user had already replaced or that had lapsed (two tabs, a late payment): never
        # revive it behind their back, and never keep money that bought nothing: it goes back at once.
        log.warning(
            "payment %s completed but its subscription is %s; refunding it",
            payment.id,
            subscription.status if subscription else "gone",
        )
        refunds.refund_automatically(payment, "the checkout was no longer open when it was paid")


def _add_paid_seats(payment: Payment) -> None:
    """The seats a payment bought join its subscription while it is live; otherwise the money goes back at once.
    Setting the paid count (never adding to it) makes a late or repeated notice change nothing more."""
    subscription = payment.subscription
    if subscription is not None and subscription.is_live and subscription.end_date > utcnow():
        subscription.seats = max(subscription.seats, payment.seats or 0)
        db.session.flush()
        _report(payment, "seats_added", seats=subscription.seats)
        return
    log.warning("seat payment %s completed but its subscription is no longer live; refunding it", payment.id)
    refunds.refund_automatically(payment, "the subscription had ended when its seats were paid")


def _checkout_expired(session: dict[str, Any]) -> None:
    payment = _payment_for_session(session)
    if payment is None:
        return
    if payment.status in ("pending", "failed"):
        payment.status = "expired"
    if payment.subscription is not None and payment.purpose == "plan":
        transitions.expire_pending(payment.subscription)
    db.session.flush()


def _checkout_async_failed(session: dict[str, Any]) -> None:
    payment = _payment_for_session(session)
    if payment is None:
        return
    if payment.subscription is not None and payment.purpose == "plan":
        transitions.expire_pending(payment.subscription)
    _fail(payment, session.get("payment_intent"))


def _payment_intent_failed(intent: dict[str, Any]) -> None:
    payment = _payment_for_intent(intent)
    if payment is not None:
        # The subscription stays pending: the customer may try another card on the same checkout page.
        _fail(payment, intent["id"])


def _fail(payment: Payment, payment_intent_id: str | None) -> None:
    if payment.status != "pending":
        return
    payment.status = "failed"
    payment.payment_intent_id = payment_intent_id or payment.payment_intent_id
    db.session.flush()
    _report(payment, "payment_failed")
    _email(payment, "payment_failed")


CHECKOUT_SESSION: Shape = {
    "id": text(),
    "payment_intent": text(required=False),
    "payment_status": text(required=False),
    "metadata": obj(required=False),
}
PAYMENT_INTENT: Shape = {"id": text(), "metadata": obj(required=False)}

# Each handled event type: what it does, and the fields of data.object it reads (checked before it runs).
EVENT_HANDLERS: dict[str, EventHandler] = {
    "checkout.session.completed": EventHandler(_checkout_completed, CHECKOUT_SESSION),
    "checkout.session.async_payment_succeeded": EventHandler(_checkout_completed, CHECKOUT_SESSION),
    "checkout.session.expired": EventHandler(_checkout_expired, CHECKOUT_SESSION),
    "checkout.session.async_payment_failed": EventHandler(_checkout_async_failed, CHECKOUT_SESSION),
    "payment_intent.payment_failed": EventHandler(_payment_intent_failed, PAYMENT_INTENT),
    **provider_events.EVENT_HANDLERS,
}


def _payment_for_session(session: dict[str, Any]) -> Payment | None:
    payment = db.session.scalar(sa.select(Payment).where(Payment.checkout_session_id == session["id"]))
    if payment is None:
        log.warning("card provider event for an unknown checkout session; ignored")
    return payment


def _payment_for_intent(intent: dict[str, Any]) -> Payment | None:
    payment = db.session.scalar(sa.select(Payment).where(Payment.payment_intent_id == intent["id"]))
    if payment is None:
        payment = _payment_by_id((intent.get("metadata") or {}).get("payment_id"))
    if payment is None:
        log.warning("card provider event for an unknown payment intent; ignored")
    return payment


def _payment_by_id(value: Any) -> Payment | None:
    try:
        return db.session.get(Payment, uuid.UUID(str(value)))
    except ValueError:
        return None


def _report(payment: Payment, event: str, **extra: Any) -> None:
    if payment.user_id is not None:
        capture(str(payment.user_id), event, {**payment_properties(payment, payment.subscription), **extra})


def payment_properties(payment: Payment, subscription: Subscription | None) -> dict[str, Any]:
    """Funnel properties: the amount in kuruş and never $revenue, which only subscription_activated carries."""
    return {
        "amount": payment.amount,
        "currency": payment.currency,
        "plan": subscription.plan.key if subscription else None,
        "billing_period": payment.billing_period,
        "method": payment.method,
        "seats": payment.seats,
    }


def _email(payment: Payment, template: str, **context: Any) -> None:
    user = db.session.get(User, payment.user_id) if payment.user_id else None
    if user is None:
        return
    send_email(
        user.email,
        template,
        locale=user.locale,
        name=user.name,
        plan_name=payment.subscription.plan.label if payment.subscription else "",
        amount=payment.amount,
        **context,
    )
