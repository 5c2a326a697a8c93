"""Refunds of card payments: the founder's (super panel), the automatic ones, and the note each leaves on the payment.

A refund is made once. A caller's idempotency key returns the refund it already made. Without a key, the provider's
key is derived from what we had already refunded ourselves and the amount, so a retry after a failure between the
provider's answer and our commit replays the same provider refund instead of making a second one. The provider's
own notice of a refund (charge.refunded, app.billing.provider_events) never counts a refund twice.
The subscription is never cancelled by a refund.
"""

from __future__ import annotations

import hashlib
import logging
import uuid
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

import sqlalchemy as sa
from flask_babel import gettext as _

from app.analytics.services import capture
from app.billing import stripe_gateway
from app.billing.models import Payment, PaymentRefund
from app.billing.money import format_tl, turkish_amount
from app.core.db import utcnow
from app.core.errors import ApiError
from app.extensions import db

log = logging.getLogger(__name__)

REFUNDABLE_STATUSES = ("completed", "partially_refunded")
# The founders read the notes in Turkish and by the Turkish calendar, whatever the server's zone.
NOTE_ZONE = ZoneInfo("Europe/Istanbul")


def locked_payment(payment_id: uuid.UUID) -> Payment:
    """Load a payment to change it, its row locked until the commit (PostgreSQL; a SQLite writer holds the database)."""
    query = sa.select(Payment).where(Payment.id == payment_id).with_for_update()
    payment = db.session.scalar(query.execution_options(populate_existing=True))
    if payment is None:
        raise ApiError("not_found", _("No payment with this id was found."), 404)
    return payment


def refund_payment(
    payment: Payment, amount: Any, reason: str, founder_id: str, idempotency_key: str | None = None
) -> PaymentRefund:
    """Refund `amount` kuruş of a card payment (what is left when None) for a founder; return the refund.

    `payment` comes from `locked_payment`, so no other refund of it runs meanwhile.
    """
    if idempotency_key is not None:
        earlier = _refund_with_key(idempotency_key)
        if earlier is not None:
            if earlier.payment_id != payment.id:
                raise ApiError(
                    "idempotency_key_reused", _("This Idempotency-Key was already used for another payment."), 409
                )
            return earlier
    _check_refundable(payment)
    amount = _amount_to_refund(payment, amount)
    refund = _refund(
        payment,
        amount,
        source="super_panel",
        reason=reason,
        founder_id=founder_id,
        idempotency_key=idempotency_key,
        provider_key=_provider_key(payment, amount, idempotency_key),
    )
    _report(payment, refund, via="super_panel")
    return refund


def refund_automatically(payment: Payment, reason: str) -> PaymentRefund | None:
    """Give back what is left of a paid card payment that bought nothing; None when there is nothing to refund.

    Safe inside webhook handling: the provider answers before it notifies. A provider failure raises ApiError, so the
    notification fails and the provider delivers it again later.
    """
    key = f"auto-refund-{payment.id}"
    earlier = _refund_with_key(key)
    if earlier is not None:
        return earlier
    payment = locked_payment(payment.id)
    left = payment.amount - payment.refunded_amount
    if payment.method != "card" or not payment.payment_intent_id or payment.status not in REFUNDABLE_STATUSES:
        log.warning("payment %s (%s, %s) cannot be refunded automatically", payment.id, payment.method, payment.status)
        return None
    if left <= 0:
        return None
    refund = _refund(
        payment, left, source="automatic", reason=reason, founder_id=None, idempotency_key=key, provider_key=key
    )
    _report(payment, refund, via="automatic")
    return refund


def settled_status(payment: Payment) -> str:
    """The status a paid payment has from its refunded amount: completed, partially_refunded or refunded."""
    if payment.refunded_amount >= payment.amount:
        return "refunded"
    return "partially_refunded" if payment.refunded_amount > 0 else "completed"


def add_note(payment: Payment, line: str) -> None:
    """Append one dated line to the payment's admin note, keeping what is there."""
    dated = f"{datetime.now(NOTE_ZONE):%Y-%m-%d} {' '.join(line.split())}"
    payment.admin_note = f"{payment.admin_note}\n{dated}" if payment.admin_note else dated


def note_amount(kurus: int, currency: str) -> str:
    """An amount as the notes write it, the Turkish way: 15000 -> "150,00 TRY"."""
    return f"{turkish_amount(kurus)} {currency}"


# Steps


def _refund_with_key(key: str) -> PaymentRefund | None:
    return db.session.scalar(sa.select(PaymentRefund).where(PaymentRefund.idempotency_key == key))


def _check_refundable(payment: Payment) -> None:
    if payment.method != "card":
        raise ApiError(
            "refund_not_allowed",
            _("Only card payments can be refunded here; bank transfers are refunded by hand."),
            409,
        )
    if payment.status not in REFUNDABLE_STATUSES:
        raise ApiError(
            "refund_not_allowed",
            _(
                "Only completed or partially refunded payments can be refunded; this one is %(status)s.",
                status=payment.status,
            ),
            409,
        )
    if not payment.payment_intent_id:
        raise ApiError(
            "no_payment_intent", _("This payment has no card payment at the provider that could be refunded."), 409
        )


def _amount_to_refund(payment: Payment, amount: Any) -> int:
    left = payment.amount - payment.refunded_amount
    if amount is None and left > 0:
        return left
    if isinstance(amount, int) and not isinstance(amount, bool) and 1 <= amount <= left:
        return amount
    raise ApiError(
        "refund_out_of_range",
        _(
            "The refund amount must be a whole number of kuruş from 1 to %(left)d (at most %(left_tl)s).",
            left=left,
            left_tl=format_tl(left),
        ),
        400,
    )


def _provider_key(payment: Payment, amount: int, caller_key: str | None) -> str:
    """The provider's idempotency key: the caller's, scoped to the payment, or one derived from our own refunds.

    The derived key counts only the refunds we made (not those learnt from the provider), so a retry after a failed
    commit gets the same key even when the provider's notice of the lost refund arrived in between.
    """
    if caller_key is not None:
        return f"refund-{payment.id}-key-{hashlib.sha256(caller_key.encode()).hexdigest()[:40]}"
    ours = db.session.scalar(
        sa.select(sa.func.coalesce(sa.func.sum(PaymentRefund.amount), 0)).where(
            PaymentRefund.payment_id == payment.id, PaymentRefund.source != "provider"
        )
    )
    return f"refund-{payment.id}-{ours}-{amount}"


def _refund(
    payment: Payment,
    amount: int,
    *,
    source: str,
    reason: str,
    founder_id: str | None,
    idempotency_key: str | None,
    provider_key: str,
) -> PaymentRefund:
    metadata = {"founder_id": founder_id or source, "reason": reason, "payment_id": str(payment.id)}
    provider_refund = stripe_gateway.refund(payment.payment_intent_id, amount, metadata, provider_key)
    known = db.session.scalar(sa.select(PaymentRefund).where(PaymentRefund.provider_refund_id == provider_refund.id))
    if known is not None:
        # An earlier attempt made it and failed before its commit; the provider's notice counted it since. It is ours.
        known.source, known.reason, known.founder_id = source, reason, founder_id
        known.idempotency_key = idempotency_key
        db.session.flush()
        return known
    refund = PaymentRefund(
        payment_id=payment.id,
        amount=amount,
        source=source,
        reason=reason,
        founder_id=founder_id,
        provider_refund_id=provider_refund.id,
        idempotency_key=idempotency_key,
        created_at=utcnow(),
    )
    db.session.add(refund)
    payment.refunded_amount += amount
    payment.status = settled_status(payment)
    who = f"founder {founder_id}" if founder_id else "otomatik"
    add_note(payment, f"İade {note_amount(amount, payment.currency)} ({who}): {reason}")
    db.session.flush()
    return refund


def _report(payment: Payment, refund: PaymentRefund, via: str) -> None:
    if payment.user_id is None:
        return
    capture(
        str(payment.user_id),
        "payment_refunded",
        {
            "via": via,
            "amount": refund.amount,
            "refunded_total": payment.refunded_amount,
            "currency": payment.currency,
            "full": payment.refunded_amount >= payment.amount,
            "payment_id": str(payment.id),
            "plan": payment.subscription.plan.key if payment.subscription else None,
            "billing_period": payment.billing_period,
            "method": payment.method,
        },
    )
