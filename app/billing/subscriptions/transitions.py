"""Subscription lifecycle: one function per transition of the spec's table. Services add and flush, never commit."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

import sqlalchemy as sa
from dateutil.relativedelta import relativedelta
from flask import current_app
from flask_babel import format_date
from flask_babel import gettext as _

from app.accounts.models import User
from app.analytics.services import capture
from app.billing import offers
from app.billing import seats as seat_rules
from app.billing.models import LIVE_STATUSES, Payment, Plan, Subscription
from app.billing.subscriptions.pricing import RENEWAL_WINDOW, PlanChange, plan_change, unused_value
from app.billing.subscriptions.queries import (
    STATUS_LABELS,
    live_subscription,
    of_shop,
    pending_subscription,
    trial_eligible,
)
from app.core.db import utcnow
from app.core.errors import ApiError
from app.extensions import db

log = logging.getLogger(__name__)

PERIOD_LENGTHS = {"monthly": relativedelta(months=1), "yearly": relativedelta(years=1)}
FULL_PLAN_KEY = "full"
TRIAL_PERIOD = "monthly"
EXTENSION_DAYS = range(1, 91)


def create_pending(
    user: User, plan_key: str, billing_period: str, brand_ids: list[int], seats: Any = None
) -> Subscription:
    """Validate the choice, expire the shop's older pending rows, and add the new pending subscription (`user` the
    member who buys; `seats` the seat count, by default what the shop has now, at least the plan's included)."""
    plan = offers.plan_by_key(plan_key)
    period = offers.billing_period(billing_period)
    current = live_subscription(user)
    _refuse_unpurchasable(plan_change(current, plan, period), current)  # whatever brands come with it
    brands = offers.chosen_brands(plan, brand_ids)
    seat_count = seat_rules.seats_to_buy(user.shop_id, plan, seats, current)
    for older in db.session.scalars(sa.select(Subscription).where(of_shop(user), Subscription.status == "pending")):
        older.status = "expired"
    db.session.flush()  # the one-pending-per-shop index must see the old rows expired before the insert
    subscription = Subscription(
        shop_id=user.shop_id,
        user_id=user.id,
        plan=plan,
        status="pending",
        billing_period=period,
        brands=brands,
        seats=seat_count,
    )
    db.session.add(subscription)
    db.session.flush()
    return subscription


def activate(subscription: Subscription) -> Subscription:
    """The single activation routine (card checkout, internal and manual): pending or trial -> active.

    It replaces the shop's other live subscription at once (a trial ends; a paid plan ends and its unused paid time
    is carried over, valued at the new plan's rate), so a shop never has two live subscriptions. The referral credit
    days used are the buying member's (they stay with the person).
    """
    _require_status(subscription, ("pending", "trial"))
    user = db.session.get(User, subscription.user_id) if subscription.user_id else None
    start = utcnow()
    carried = _replace_live_subscriptions(subscription, start)
    credit_days = _consume_credit_days(user)
    subscription.status = "active"
    subscription.start_date = start
    period_end = start + PERIOD_LENGTHS[subscription.billing_period]
    subscription.end_date = period_end + timedelta(days=credit_days) + carried
    subscription.cancelled_at = None
    if subscription.plan.is_full:
        subscription.brands = offers.active_brands()
    db.session.flush()
    if subscription.user_id:
        properties = _activation_properties(subscription, credit_days)
        capture(str(subscription.user_id), "subscription_activated", {**properties, "carried_days": carried.days})
    return subscription


def _replace_live_subscriptions(subscription: Subscription, now: datetime) -> timedelta:
    """End the shop's other trial or active subscriptions as `subscription` starts; return the paid time carried."""
    if subscription.shop_id is None:
        return timedelta(0)
    others = db.session.scalars(_other_live(subscription).with_for_update())
    carried = timedelta(0)
    for other in others:
        if other.status == "active":
            carried += unused_value(other, subscription.plan, subscription.billing_period, now)
        log.info("subscription %s (%s) replaced by %s", other.id, other.status, subscription.id)
        other.status = "expired"
        other.end_date = min(other.end_date or now, now)
        clear_schedule(other)
    db.session.flush()  # the one-live-per-shop index must see them ended before this one becomes active
    return carried


def expire_pending(subscription: Subscription) -> bool:
    """Pending -> expired; any other state is left alone, since provider notifications may come late or twice."""
    if subscription.status != "pending":
        return False
    subscription.status = "expired"
    db.session.flush()
    return True


def start_trial(user: User) -> Subscription:
    """Start the Full-plan trial for the eligible user's shop, with the plan's seats: TRIAL_DAYS plus the user's
    banked referral credit days."""
    if not trial_eligible(user):
        raise ApiError("trial_not_eligible", _("The free trial is only for accounts that never had a plan."), 409)
    plan = db.session.scalar(sa.select(Plan).where(Plan.key == FULL_PLAN_KEY, Plan.active))
    if plan is None:
        raise ApiError("trial_unavailable", _("The free trial is not available at the moment."), 409)
    days = current_app.config["TRIAL_DAYS"] + _consume_credit_days(user)
    start = utcnow()
    subscription = Subscription(
        shop_id=user.shop_id,
        user_id=user.id,
        plan=plan,
        seats=plan.included_seats,
        status="trial",
        billing_period=TRIAL_PERIOD,
        start_date=start,
        end_date=start + timedelta(days=days),
        brands=offers.active_brands(),
    )
    db.session.add(subscription)
    db.session.flush()
    return subscription


def extend(subscription: Subscription, days: Any) -> tuple[datetime, datetime]:
    """Push the end of a trial or active subscription out by `days` (1 to 90); return the old and new end."""
    _require_status(subscription, LIVE_STATUSES)
    if not isinstance(days, int) or isinstance(days, bool) or days not in EXTENSION_DAYS:
        raise ApiError(
            "invalid_days",
            _("The extension must be between %(min)d and %(max)d days.", min=EXTENSION_DAYS[0], max=EXTENSION_DAYS[-1]),
            400,
        )
    previous_end = subscription.end_date
    now = utcnow()
    subscription.end_date = max(now, previous_end or now) + timedelta(days=days)
    db.session.flush()
    return previous_end, subscription.end_date


def cancel(subscription: Subscription) -> Subscription:
    """End a trial or active subscription now: cancelled, with cancelledAt set (its end date is kept for a resume)."""
    _require_status(subscription, LIVE_STATUSES)
    subscription.status = "cancelled"
    subscription.cancelled_at = utcnow()
    db.session.flush()
    return subscription


def resume(subscription: Subscription) -> Subscription:
    """Cancelled -> active again, while its period lasts and the shop has no other trial or active subscription."""
    _require_status(subscription, ("cancelled",))
    if subscription.end_date is None or subscription.end_date <= utcnow():
        raise ApiError("period_over", _("The subscription's period is over; it can no longer be resumed."), 409)
    refusal = ApiError(
        "other_live_subscription",
        _("The user already has another trial or active subscription; end that one before resuming this one."),
        409,
    )
    if subscription.shop_id is not None and db.session.scalar(_other_live(subscription).limit(1)) is not None:
        raise refusal
    try:
        # A savepoint: should a live subscription appear meanwhile, the one-live-per-shop index refuses the flush and
        # only this change is undone.
        with db.session.begin_nested():
            subscription.status = "active"
            subscription.cancelled_at = None
    except sa.exc.IntegrityError:
        raise refusal from None
    return subscription


def change_plan(subscription: Subscription, new_plan_id: Any) -> bool:
    """Replace the plan of a trial or active subscription, brands untouched; return whether brands must be re-chosen."""
    _require_status(subscription, LIVE_STATUSES)
    plan = offers.plan_by_id(new_plan_id)
    if plan.id == subscription.plan_id:
        raise ApiError("same_plan", _("The subscription is already on this plan."), 409)
    subscription.plan = plan
    clear_schedule(subscription)  # a schedule chosen against the old plan no longer makes sense
    db.session.flush()
    # The Full plan grants every brand by itself, so it never needs a choice.
    return not plan.is_full and plan.brand_count != len(subscription.brands)


def reassign_brands(subscription: Subscription, brand_ids: Any) -> Subscription:
    """Replace the brand set of a trial or active subscription in one step."""
    _require_status(subscription, LIVE_STATUSES)
    if subscription.plan.is_full:
        raise ApiError("full_plan_brands", _("The Full plan includes every brand; there is nothing to choose."), 409)
    subscription.brands = offers.chosen_brands(subscription.plan, brand_ids)
    db.session.flush()
    return subscription


def cancel_pending(user: User) -> Subscription:
    """The user gives up the checkout: the pending subscription becomes expired, so a new one can start."""
    subscription = pending_subscription(user)
    if subscription is None:
        raise ApiError("no_pending_subscription", _("You have no subscription awaiting payment."), 404)
    expire_pending(subscription)
    return subscription


def downgrade(user: User, plan_key: str, brand_ids: list[int]) -> Subscription:
    """Schedule a cheaper plan (and its brands) for the end of the paid period; calling again replaces it."""
    subscription = live_subscription(user)
    if subscription is None or subscription.status != "active":
        raise ApiError("no_active_subscription", _("Only a paid, active subscription can move to a lower plan."), 409)
    plan = offers.plan_by_key(plan_key)
    change = plan_change(subscription, plan, subscription.billing_period)
    if change.kind != "downgrade" or plan.id == subscription.plan_id:
        raise ApiError("not_a_downgrade", _("Choose a plan cheaper than your current one."), 400)
    brands = offers.chosen_brands(plan, brand_ids)
    subscription.scheduled_plan = plan
    subscription.scheduled_brand_ids = sorted(brand.id for brand in brands)
    db.session.flush()
    return subscription


def cancel_downgrade(user: User) -> Subscription:
    """Keep the current plan after all: forget the scheduled downgrade."""
    subscription = live_subscription(user)
    if subscription is None or subscription.scheduled_plan_id is None:
        raise ApiError("no_scheduled_change", _("No plan change is scheduled."), 404)
    clear_schedule(subscription)
    db.session.flush()
    return subscription


# Helpers


def _refuse_unpurchasable(change: PlanChange, current: Subscription | None) -> None:
    """A dealer with a paid plan buys only what replaces it for the better; the rest is refused with what to do."""
    if change.purchasable:
        return
    if change.kind == "current":
        raise ApiError(
            "already_subscribed",
            _(
                "You already have this plan until %(date)s. You can renew it in the last %(days)d days of the period.",
                date=format_date(current.end_date, "long") if current else "",
                days=RENEWAL_WINDOW.days,
            ),
            409,
        )
    raise ApiError(
        "use_downgrade",
        _("A cheaper plan starts when your paid period ends: schedule it as a plan change on the subscription page."),
        409,
    )


def clear_schedule(subscription: Subscription) -> None:
    """Forget a scheduled downgrade (its plan and brands)."""
    subscription.scheduled_plan_id = None
    subscription.scheduled_brand_ids = None


def _other_live(subscription: Subscription) -> sa.Select:
    """The shop's trial or active subscriptions other than `subscription`."""
    return sa.select(Subscription).where(
        Subscription.shop_id == subscription.shop_id,
        Subscription.id != subscription.id,
        Subscription.status.in_(LIVE_STATUSES),
    )


def _require_status(subscription: Subscription, allowed: tuple[str, ...]) -> None:
    if subscription.status not in allowed:
        status_label = STATUS_LABELS[subscription.status]
        raise ApiError(
            "invalid_transition",
            _("This change is not possible in the subscription's current state (%(status)s).", status=status_label),
            409,
        )


def _consume_credit_days(user: User | None) -> int:
    """Banked referral credit days, which are used up by the period they are added to."""
    if user is None:
        return 0
    days = user.referral_credit_days or 0
    user.referral_credit_days = 0
    return days


def _activation_properties(subscription: Subscription, credit_days: int) -> dict[str, Any]:
    plan = subscription.plan
    period = subscription.billing_period
    price = plan.price(period)
    monthly = price / 12 if period == "yearly" else price
    return {
        "$revenue": price / 100,
        "currency": current_app.config["CURRENCY"],
        "mrr": round(monthly / 100, 2),
        "plan": plan.key,
        "plan_id": plan.id,
        "brand_count": len(subscription.brands),
        "billing_period": period,
        "method": _latest_payment_method(subscription),
        "referral_credit_days": credit_days,
    }


def _latest_payment_method(subscription: Subscription) -> str:
    method = db.session.scalar(
        sa.select(Payment.method)
        .where(Payment.subscription_id == subscription.id)
        .order_by(Payment.created_at.desc())
        .limit(1)
    )
    return method or "manual"
