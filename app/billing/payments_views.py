"""Payment pages: the plans page's checkout form, the payment history and its receipt links."""

from __future__ import annotations

import uuid

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import lazy_gettext as _l
from flask_login import current_user

from app.billing import payment_history, payments
from app.core.errors import ApiError
from app.core.security import shop_role
from app.core.validation import form_brand_ids

bp = Blueprint("payments_pages", __name__)

PAYMENT_STATUS_LABELS = {
    "pending": _l("Awaiting payment"),
    "completed": _l("Paid"),
    "failed": _l("Failed"),
    "expired": _l("Expired"),
    "refunded": _l("Refunded"),
    "partially_refunded": _l("Partially refunded"),
    "disputed": _l("Disputed"),
}
PAYMENT_METHOD_LABELS = {"card": _l("Card"), "eft": _l("Bank transfer (EFT)")}


@bp.post("/checkout")
@shop_role("owner")
def checkout():
    form = request.form
    try:
        url = payments.start_card_checkout(
            current_user,
            form.get("plan_key"),
            form.get("billing_period"),
            form_brand_ids(form),
            form.get("seats") or None,
        )
    except ApiError as error:
        flash(error.message, "error")  # an error flashed: nothing of the half-made checkout is kept
        return redirect(url_for("billing_pages.plans", period=form.get("billing_period")), code=303)
    return redirect(url, code=303)


@bp.get("/payments")
@shop_role("owner")
def history():
    return render_template(
        "billing/payments.html",
        rows=payment_history.payment_history_rows(current_user),
        status_labels=PAYMENT_STATUS_LABELS,
        method_labels=PAYMENT_METHOD_LABELS,
    )


@bp.get("/payments/<uuid:payment_id>/receipt")
@shop_role("owner")
def receipt(payment_id: uuid.UUID):
    url = payment_history.receipt_for(current_user, payment_id)
    if url is None:
        abort(404)
    return redirect(url, code=303)
