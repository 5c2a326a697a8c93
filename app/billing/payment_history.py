"""The shop's payment history (the curated projection) and receipts, which its owners see."""

from __future__ import annotations

import uuid
from typing import Any

import sqlalchemy as sa
from flask_babel import gettext as _

from app.accounts.models import User
from app.billing import stripe_gateway
from app.billing.models import Payment, Plan, Subscription
from app.core.errors import ApiError
from app.extensions import db

PAID_STATUSES = ("completed", "refunded", "partially_refunded", "disputed")
# A checkout the dealer left or that lapsed took no money: it is no payment to show.
UNSHOWN_STATUSES = ("expired",)


def payment_history(user: User) -> list[dict[str, Any]]:
    """The payments of the user's shop, newest first, as the curated projection: no provider ids, notes or bank
    accounts."""
    return [_history_item(payment, plan_name) for payment, plan_name in _payments_with_plan_names(user)]


def payment_history_rows(user: User) -> list[dict[str, Any]]:
    """The history for the payments page, each row also saying whether a receipt link can be shown."""
    return [
        {
            **_history_item(payment, plan_name),
            "date": payment.paid_at or payment.created_at,
            "hasReceipt": _has_receipt(payment),
        }
        for payment, plan_name in _payments_with_plan_names(user)
    ]


def receipt_for(user: User, payment_id: uuid.UUID) -> str | None:
    """The receipt address of a payment of the user's shop: the provider's for card, the stored one for legacy EFT."""
    payment = db.session.get(Payment, payment_id)
    if payment is None or user.shop_id is None or payment.shop_id != user.shop_id:
        # Someone else's payment is reported exactly like a missing one.
        raise ApiError("not_found", _("The page or record you asked for was not found."), 404)
    if payment.method == "eft":
        return payment.receipt_url
    if not _has_card_receipt(payment):
        return None
    return stripe_gateway.receipt_url_for(payment.payment_intent_id)


def _payments_with_plan_names(user: User) -> list[tuple[Payment, str | None]]:
    query = (
        sa.select(Payment, Plan)
        .outerjoin(Subscription, Payment.subscription_id == Subscription.id)
        .outerjoin(Plan, Subscription.plan_id == Plan.id)
        .where(Payment.shop_id == user.shop_id if user.shop_id else sa.false(), Payment.status.not_in(UNSHOWN_STATUSES))
        .order_by(Payment.created_at.desc())
    )
    return [(payment, plan.label if plan else None) for payment, plan in db.session.execute(query)]


def _history_item(payment: Payment, plan_name: str | None) -> dict[str, Any]:
    return {
        "id": str(payment.id),
        "planName": plan_name,
        "status": payment.status,
        "method": payment.method,
        "amount": payment.amount,
        "refundedAmount": payment.refunded_amount,
        "currency": payment.currency,
        "billingPeriod": payment.billing_period,
        "createdAt": payment.created_at.isoformat(),
        "paidAt": payment.paid_at.isoformat() if payment.paid_at else None,
        "hasCardReceipt": _has_card_receipt(payment),
    }


def _has_card_receipt(payment: Payment) -> bool:
    return payment.method == "card" and payment.status in PAID_STATUSES and bool(payment.payment_intent_id)


def _has_receipt(payment: Payment) -> bool:
    return _has_card_receipt(payment) or (payment.method == "eft" and bool(payment.receipt_url))
