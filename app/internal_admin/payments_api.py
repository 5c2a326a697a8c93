"""The founder's payment operations under /api/internal/admin/payments/<id> (X-Internal-Token, no session).

A refund runs inside `audited(...)`: the audit row keeps the payment's status and amounts before and after (or the
refusal's code), the founder and the reason.
"""

from __future__ import annotations

import re
import uuid
from typing import Any

from flask import jsonify, request
from flask_babel import gettext as _

from app.billing import refunds
from app.billing.models import Payment
from app.core.errors import ApiError
from app.core.openapi import INTERNAL, documented
from app.internal_admin.audit import audited
from app.internal_admin.guard import InternalBlueprint, read_actor
from app.internal_admin.schemas import PaymentRefunded, RefundBody, RefundHeaders

bp = InternalBlueprint("internal_admin_payments", __name__, url_prefix="/payments")

IDEMPOTENCY_HEADER = "Idempotency-Key"
IDEMPOTENCY_KEY = re.compile(r"[\x20-\x7e]{1,255}")


def snapshot(payment: Payment) -> dict[str, Any]:
    """The parts of a payment a refund changes, as the audit table keeps them."""
    return {"status": payment.status, "amount": payment.amount, "refundedAmount": payment.refunded_amount}


def _idempotency_key() -> str | None:
    """The caller's Idempotency-Key header: absent or empty is None; anything but 1-255 printable ASCII is refused."""
    value = request.headers.get(IDEMPOTENCY_HEADER, "").strip()
    if not value:
        return None
    if not IDEMPOTENCY_KEY.fullmatch(value):
        raise ApiError(
            "invalid_idempotency_key",
            _("The Idempotency-Key header must be 1 to 255 printable ASCII characters."),
            400,
        )
    return value


@bp.post("/<uuid:payment_id>/refund")
@documented(
    PaymentRefunded,
    body=RefundBody,
    headers=RefundHeaders,
    errors=(401, 404, 409, 502),
    security=INTERNAL,
    public=True,
    summary="Refund a card payment in full or in part",
)
def refund_payment(payment_id: uuid.UUID):
    actor, body = read_actor()
    key = _idempotency_key()
    with audited(actor, "payment.refund", "payment", payment_id) as record:
        payment = refunds.locked_payment(payment_id)
        record.before = snapshot(payment)
        refund = refunds.refund_payment(payment, body.get("amount"), actor.reason, actor.founder_id, key)
        record.after = snapshot(payment)
        record.details.update(refundId=str(refund.id), amount=refund.amount)
    return jsonify(
        paymentId=str(payment.id),
        refundId=str(refund.id),
        amount=refund.amount,
        refundedAmount=payment.refunded_amount,
        status=payment.status,
        currency=payment.currency,
    )
