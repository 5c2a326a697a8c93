"""Plan and subscription pages: the HTML counterpart of app.billing.api, calling the same services."""

from __future__ import annotations

from flask import Blueprint, current_app, flash, redirect, render_template, request, url_for
from flask_babel import format_decimal
from flask_babel import gettext as _
from flask_login import current_user

from app.billing import catalog, subscriptions
from app.billing.models import BILLING_PERIODS
from app.core.errors import ApiError
from app.core.security import public

bp = Blueprint("billing_pages", __name__)

CHECKOUT_ENDPOINT = "payments_pages.checkout"


@bp.app_template_filter("tl")
def format_tl(kurus: int) -> str:
    """Kuruş as lira the Turkish way: 149900 -> "1.499,00 ₺" (separators follow the page language)."""
    return f"{format_decimal(kurus / 100, format='#,##0.00')} ₺"


def _selected_period() -> str:
    period = request.args.get("period")
    return period if period in BILLING_PERIODS else "monthly"


def _checkout_url() -> str | None:
    """The card checkout form target, or None while the payments blueprint is not installed."""
    return url_for(CHECKOUT_ENDPOINT) if CHECKOUT_ENDPOINT in current_app.view_functions else None


def _to_subscription_page(message: str, category: str = "success"):  # noqa: ANN202
    flash(message, category)
    return redirect(url_for(".subscription"), code=303)


@bp.get("/plans")
@public
def plans():
    signed_in = current_user.is_authenticated
    return render_template(
        "billing/plans.html",
        plans=catalog.active_plans(),
        brands=catalog.active_brands(),
        period=_selected_period(),
        checkout_url=_checkout_url(),
        trial_eligible=signed_in and subscriptions.trial_eligible(current_user),
        trial_days=current_app.config["TRIAL_DAYS"],
    )


@bp.get("/subscription")
def subscription():
    return render_template(
        "billing/subscription.html",
        subscription=subscriptions.current_subscription(current_user),
        checkout=request.args.get("checkout"),
        status_labels=subscriptions.STATUS_LABELS,
    )


@bp.post("/subscription/trial")
def start_trial():
    try:
        subscriptions.start_trial(current_user)
    except ApiError as error:
        return _to_subscription_page(error.message, "error")
    return _to_subscription_page(_("Your free trial has started. Every brand is open to you."))


@bp.post("/subscription/cancel-pending")
def cancel_pending():
    try:
        subscriptions.cancel_pending(current_user)
    except ApiError as error:
        return _to_subscription_page(error.message, "error")
    return _to_subscription_page(_("The subscription awaiting payment was cancelled. You can choose a plan again."))
