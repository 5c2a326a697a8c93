"""What the card provider tells us about a paid charge: refunds (ours echoed back, or made in its dashboard) and
disputes. Registered with the checkout events in app.billing.payments.EVENT_HANDLERS.

Reconciliation rule: the provider's `amount_refunded` is the charge's refunded total. We keep the larger of it and
ours, so our own refunds, which come back as charge.refunded too, are never counted twice; only a difference is
recorded, as a refund from the provider. A dispute freezes the payment as `disputed`; won, it goes back to the status
its refunds give it; lost, it stays disputed (the money went back to the cardholder through the bank).
"""

from __future__ import annotations

import logging
from typing import Any

import sqlalchemy as sa

from app.billing.event_fields import EventHandler, Shape, count, obj, objects, text
from app.billing.models import Payment, PaymentRefund
from app.billing.refunds import REFUNDABLE_STATUSES, add_note, locked_payment, note_amount, settled_status
from app.extensions import db

log = logging.getLogger(__name__)

# A payment in one of these has been paid: refunds and disputes apply to it.
PAID_STATUSES = (*REFUNDABLE_STATUSES, "refunded", "disputed")
# A dispute closed in one of these leaves the money with us.
KEPT_DISPUTE_OUTCOMES = ("won", "warning_closed")

CHARGE: Shape = {
    "id": text(),
    "payment_intent": text(),
    "amount": count(),
    "amount_refunded": count(),
    "refunds": obj({"data": objects({"id": text(), "amount": count()}, required=False)}, required=False),
}
DISPUTE: Shape = {
    "id": text(),
    "payment_intent": text(),
    "amount": count(),
    "reason": text(required=False),
    "status": text(),
}


def _charge_refunded(charge: dict[str, Any]) -> None:
    payment = _payment_for(charge, "charge")
    if payment is None:
        return
    # The charge's refunded total, never more than was paid (the charge is the payment: the same amount).
    total = min(charge["amount_refunded"], charge["amount"], payment.amount)
    difference = total - payment.refunded_amount
    if difference <= 0:
        return  # our own refund coming back, or an older notice: nothing new
    payment.refunded_amount = total
    if payment.status in PAID_STATUSES and payment.status != "disputed":
        payment.status = settled_status(payment)
    db.session.add(
        PaymentRefund(
            payment_id=payment.id,
            amount=difference,
            source="provider",
            provider_refund_id=_new_refund_id(payment, charge, difference),
        )
    )
    add_note(payment, f"İade {note_amount(difference, payment.currency)} (kart sağlayıcısının panelinden)")
    db.session.flush()
    log.info("payment %s: %d kuruş refunded at the provider recorded", payment.id, difference)


def _new_refund_id(payment: Payment, charge: dict[str, Any], difference: int) -> str | None:
    """The provider's id of the refund we learn of, when the charge lists exactly one we do not know, of that amount."""
    listed = (charge.get("refunds") or {}).get("data") or []
    known = set(
        db.session.scalars(sa.select(PaymentRefund.provider_refund_id).where(PaymentRefund.payment_id == payment.id))
    )
    unknown = [refund for refund in listed if refund["id"] not in known]
    if len(unknown) == 1 and unknown[0]["amount"] == difference:
        return unknown[0]["id"]
    return None


def _dispute_created(dispute: dict[str, Any]) -> None:
    payment = _payment_for(dispute, "dispute")
    if payment is None or payment.status not in PAID_STATUSES:
        return
    payment.status = "disputed"
    reason = dispute.get("reason") or "-"
    add_note(
        payment,
        f"İtiraz açıldı {dispute['id']}: {note_amount(dispute['amount'], payment.currency)}, neden: {reason}",
    )
    db.session.flush()
    log.warning("payment %s disputed (%s)", payment.id, dispute["id"])


def _dispute_closed(dispute: dict[str, Any]) -> None:
    payment = _payment_for(dispute, "dispute")
    if payment is None or payment.status != "disputed":
        return
    if dispute["status"] in KEPT_DISPUTE_OUTCOMES:
        payment.status = settled_status(payment)
        add_note(payment, f"İtiraz kapandı {dispute['id']}: kazanıldı ({dispute['status']})")
    else:
        add_note(
            payment,
            f"İtiraz kapandı {dispute['id']}: kaybedildi ({dispute['status']}), "
            f"{note_amount(dispute['amount'], payment.currency)} kart sahibine döndü",
        )
    db.session.flush()


def _payment_for(subject: dict[str, Any], kind: str) -> Payment | None:
    """The card payment of the event's payment intent, locked so a refund being committed is counted first."""
    payment_id = db.session.scalar(
        sa.select(Payment.id).where(Payment.payment_intent_id == subject["payment_intent"], Payment.method == "card")
    )
    if payment_id is None:
        log.warning("card provider %s event for an unknown payment intent; ignored", kind)
        return None
    return locked_payment(payment_id)


EVENT_HANDLERS: dict[str, EventHandler] = {
    "charge.refunded": EventHandler(_charge_refunded, CHARGE),
    "charge.dispute.created": EventHandler(_dispute_created, DISPUTE),
    "charge.dispute.closed": EventHandler(_dispute_closed, DISPUTE),
}
