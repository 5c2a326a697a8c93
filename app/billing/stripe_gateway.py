"""The card provider (Stripe): the only module that talks to it. Provider failures become one clear refusal."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, TypeVar

import stripe
from flask import Flask, current_app
from flask_babel import gettext as _

from app.billing.models import Payment, Subscription
from app.core.errors import ApiError
from app.core.validation import parse_json

log = logging.getLogger(__name__)

EXTENSION_KEY = "stripe_client"
Result = TypeVar("Result")


def init_app(app: Flask) -> None:
    """Give the app its own client, so two apps in one process (tests) never share a base address or key."""
    base = app.config.get("STRIPE_API_BASE")
    app.extensions[EXTENSION_KEY] = stripe.StripeClient(
        app.config.get("STRIPE_SECRET_KEY") or "sk_unset",
        base_addresses={"api": base} if base else {},
    )


def create_checkout_session(
    subscription: Subscription, payment: Payment, success_url: str, cancel_url: str, customer_email: str
) -> tuple[str, str]:
    """Open a hosted checkout for `payment`; return the session id and the address to send the customer to.

    A plan's period is one line (its included seats with it) and, when bought with more, a line of extra seats whose
    quantity is their number; extra seats bought later are one line of their prorated price each. The metadata
    carries the seat count the subscription has once paid."""
    ids = {"subscription_id": str(subscription.id), "payment_id": str(payment.id)}
    params = {
        "mode": "payment",
        "line_items": _line_items(subscription, payment),
        "success_url": success_url,
        "cancel_url": cancel_url,
        "client_reference_id": str(subscription.id),
        "customer_email": customer_email,
        "metadata": {**ids, "purpose": payment.purpose, "seats": str(payment.seats or subscription.seats)},
        # The payment intent carries the ids too, so a failed-payment event can be matched to our row.
        "payment_intent_data": {"metadata": ids},
    }
    options = {"idempotency_key": f"checkout-{payment.id}"}
    session = _call("create checkout session", lambda: _client().v1.checkout.sessions.create(params, options))
    return session.id, session.url


def _line_items(subscription: Subscription, payment: Payment) -> list[dict[str, Any]]:
    currency = payment.currency.lower()
    if payment.purpose == "seats":
        added = (payment.seats or subscription.seats) - subscription.seats
        return [_line(currency, _("Parça Bul extra seat, rest of the period"), payment.amount // added, added)]
    plan, period = subscription.plan, subscription.billing_period
    lines = [_line(currency, _product_name(subscription), plan.price(period), 1)]
    extra = subscription.seats - plan.included_seats
    if extra > 0:
        lines.append(_line(currency, _("Parça Bul extra seat"), plan.seat_price(period), extra))
    return lines


def _line(currency: str, name: str, unit_amount: int, quantity: int) -> dict[str, Any]:
    return {
        "quantity": quantity,
        "price_data": {"currency": currency, "unit_amount": unit_amount, "product_data": {"name": name}},
    }


def expire_checkout_session(session_id: str) -> bool:
    """Close an open checkout so it can no longer be paid; False when the provider refuses (e.g. already paid)."""
    try:
        _call("expire checkout session", lambda: _client().v1.checkout.sessions.expire(session_id))
    except ApiError:
        return False
    return True


def receipt_url_for(payment_intent_id: str) -> str | None:
    """The provider-hosted receipt of the payment intent's latest charge, if it has one."""
    intent = _call(
        "retrieve payment intent",
        lambda: _client().v1.payment_intents.retrieve(payment_intent_id, {"expand": ["latest_charge"]}),
    )
    charge = intent.latest_charge
    return getattr(charge, "receipt_url", None) if charge and not isinstance(charge, str) else None


def refund(payment_intent_id: str, amount: int, metadata: dict[str, str], idempotency_key: str) -> Any:
    """Refund `amount` kuruş of the payment intent; the same key gets the same refund back, never a second one."""
    params: dict[str, Any] = {"payment_intent": payment_intent_id, "amount": amount, "metadata": metadata}
    options = {"idempotency_key": idempotency_key}
    return _call("create refund", lambda: _client().v1.refunds.create(params, options), refusal=_refund_refusal)


def _refund_refusal(error: stripe.StripeError) -> ApiError | None:
    """The provider's refusals of a refund the founder can act on; anything else is the generic provider failure."""
    if isinstance(error, stripe.IdempotencyError):
        # A retry without a key after a lost answer, sent with another reason: the first refund stands.
        return ApiError(
            "refund_conflict",
            _("A refund of this amount was just made with other details. Reload the payment before trying again."),
            409,
        )
    if error.code in ("amount_too_large", "charge_already_refunded"):
        # Refunded in the provider's dashboard and not yet reported to us: its notification will bring it.
        return ApiError(
            "refund_exceeds_provider",
            _(
                "The card provider has already refunded more of this payment than we know of. "
                "Wait a minute for its notification, then try again."
            ),
            409,
        )
    return None


def parse_webhook(raw_body: bytes, signature: str | None) -> Any:
    """Verify the provider's signature over the raw body and return the decoded event; refuse anything unsigned."""
    secret = current_app.config.get("STRIPE_WEBHOOK_SECRET")
    if not secret:
        # An empty secret would accept a signature anyone can compute.
        log.error("card webhook refused: STRIPE_WEBHOOK_SECRET is not configured")
        raise _invalid_signature()
    try:
        stripe.WebhookSignature.verify_header(raw_body, signature, secret, stripe.Webhook.DEFAULT_TOLERANCE)
    except (stripe.SignatureVerificationError, ValueError) as error:
        log.warning("card webhook refused: %s", type(error).__name__)
        raise _invalid_signature() from error
    # The shared reader, not the SDK's, so over-deep nesting is a 400. Text the event carries but we never store may
    # hold anything: refusing it would lose a paid checkout. The fields we do store are checked by their reader.
    return parse_json(raw_body, any_text=True)


def _invalid_signature() -> ApiError:
    return ApiError("invalid_signature", _("The notification's signature could not be verified."), 400)


def _client() -> stripe.StripeClient:
    return current_app.extensions[EXTENSION_KEY]


def _call(
    operation: str,
    request: Callable[[], Result],
    refusal: Callable[[stripe.StripeError], ApiError | None] | None = None,
) -> Result:
    try:
        return request()
    except stripe.StripeError as error:
        # Only the error's kind and ids: its message may quote request parameters.
        log.warning(
            "card provider call '%s' failed: %s (status %s, code %s, request %s)",
            operation,
            type(error).__name__,
            error.http_status,
            error.code,
            error.request_id,
        )
        known = refusal(error) if refusal is not None else None
        if known is not None:
            raise known from error
        raise ApiError(
            "payment_provider_error",
            _("The payment service could not be reached. Please try again in a few minutes."),
            502,
        ) from error


def _product_name(subscription: Subscription) -> str:
    if subscription.billing_period == "yearly":
        return _("Parça Bul %(plan)s, yearly", plan=subscription.plan.label)
    return _("Parça Bul %(plan)s, monthly", plan=subscription.plan.label)
