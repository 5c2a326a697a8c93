"""Plan, subscription and welcome pages: the HTML counterpart of app.billing.api, calling the same services."""

from __future__ import annotations

from flask import Blueprint, current_app, flash, redirect, render_template, request, url_for
from flask_babel import format_date
from flask_babel import gettext as _
from flask_login import current_user

from app.billing import offers, returns, seat_changes
from app.billing.models import BILLING_PERIODS
from app.billing.money import format_tl
from app.billing.subscriptions import pricing, queries, transitions
from app.core.errors import ApiError
from app.core.i18n import safe_next_path
from app.core.security import public, shop_role
from app.core.validation import form_brand_ids

bp = Blueprint("billing_pages", __name__)

CHECKOUT_ENDPOINT = "payments_pages.checkout"


bp.add_app_template_filter(format_tl, "tl")


def _selected_period() -> str:
    period = request.args.get("period")
    return period if period in BILLING_PERIODS else "monthly"


def _checkout_url() -> str | None:
    """The card checkout form target, or None while the payments blueprint is not installed."""
    return url_for(CHECKOUT_ENDPOINT) if CHECKOUT_ENDPOINT in current_app.view_functions else None


def _to_subscription_page(message: str, category: str = "success"):
    flash(message, category)
    return redirect(url_for(".subscription"), code=303)


@bp.get("/plans")
@public
def plans():
    signed_in = current_user.is_authenticated
    current = queries.live_subscription(current_user) if signed_in else None
    period = _selected_period()
    plan_list = offers.active_plans()
    return render_template(
        "billing/plans.html",
        plans=plan_list,
        brands=offers.active_brands(),
        period=period,
        checkout_url=_checkout_url(),
        trial_eligible=signed_in and queries.trial_eligible(current_user),
        trial_days=current_app.config["TRIAL_DAYS"],
        current=current,
        changes={plan.id: pricing.plan_change(current, plan, period) for plan in plan_list},
        renewal_days=pricing.RENEWAL_WINDOW.days,
    )


@bp.get("/subscription")
@shop_role("clerk")
def subscription():
    current = queries.current_subscription(current_user)
    checkout = request.args.get("checkout")  # the provider's return: success or cancelled
    returns.report_return(current_user, checkout)
    return render_template(
        "billing/subscription.html",
        subscription=current,
        seats=seat_changes.seat_overview(current_user),
        can_manage=current_user.has_shop_role("owner"),
        scheduled_brands=offers.brands_by_ids(current.scheduled_brand_ids) if current else [],
        checkout=checkout,
        checkout_url=_checkout_url(),
        status_labels=queries.STATUS_LABELS,
    )


@bp.get("/welcome")
@shop_role("clerk")
def welcome():
    """Where a new dealer lands after signing up: the trial in one click, the demo vehicle, the VIN search."""
    return render_template(
        "billing/welcome.html",
        trial_eligible=queries.trial_eligible(current_user),
        trial_days=current_app.config["TRIAL_DAYS"],
        subscription=queries.live_subscription(current_user),
    )


@bp.post("/subscription/trial")
@shop_role("owner")
def start_trial():
    try:
        transitions.start_trial(current_user)
    except ApiError as error:
        return _to_subscription_page(error.message, "error")
    flash(_("Your free trial has started. Every brand is open to you."), "success")
    # The welcome page sends the new dealer straight on to the VIN search.
    return redirect(safe_next_path(request.form.get("next"), url_for(".subscription")), code=303)


@bp.post("/subscription/downgrade")
@shop_role("owner")
def schedule_downgrade():
    form = request.form
    try:
        subscription = transitions.downgrade(current_user, form.get("plan_key"), form_brand_ids(form))
    except ApiError as error:
        flash(error.message, "error")
        return redirect(url_for(".plans"), code=303)
    return _to_subscription_page(
        _(
            "From %(date)s your plan becomes %(plan)s. Nothing is charged now.",
            date=format_date(subscription.end_date, "long"),
            plan=subscription.scheduled_plan.label,
        )
    )


@bp.post("/subscription/downgrade/cancel")
@shop_role("owner")
def cancel_downgrade():
    try:
        transitions.cancel_downgrade(current_user)
    except ApiError as error:
        return _to_subscription_page(error.message, "error")
    return _to_subscription_page(_("The plan change was cancelled; your current plan continues."))


@bp.post("/subscription/cancel-pending")
@shop_role("owner")
def cancel_pending():
    try:
        transitions.cancel_pending(current_user)
    except ApiError as error:
        return _to_subscription_page(error.message, "error")
    return _to_subscription_page(_("The subscription awaiting payment was cancelled. You can choose a plan again."))


@bp.post("/subscription/seats")
@shop_role("owner")
def change_seats():
    try:
        subscription, url = seat_changes.change_seats(current_user, request.form.get("seats", "").strip())
    except ApiError as error:
        return _to_subscription_page(error.message, "error")
    if url is not None:
        return redirect(url, code=303)
    return _to_subscription_page(_("Your plan now has %(seats)d seats.", seats=subscription.seats))
