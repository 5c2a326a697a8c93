"""Subscription lifecycle: one function per transition of the spec's table. Services add and flush, never commit."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import sqlalchemy as sa
from dateutil.relativedelta import relativedelta
from flask import current_app
from flask_babel import format_date
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from sqlalchemy.orm import joinedload

from app.accounts.models import User
from app.analytics.services import capture
from app.billing import offers
from app.billing.models import LIVE_STATUSES, Brand, Payment, Plan, Subscription, user_brands
from app.core.db import utcnow
from app.core.errors import ApiError
from app.extensions import db

log = logging.getLogger(__name__)

STATUS_LABELS = {
    "pending": _l("Awaiting payment"),
    "active": _l("Active"),
    "trial": _l("Free trial"),
    "cancelled": _l("Cancelled"),
    "expired": _l("Expired"),
}
PERIOD_LENGTHS = {"monthly": relativedelta(months=1), "yearly": relativedelta(years=1)}
FULL_PLAN_KEY = "full"
TRIAL_PERIOD = "monthly"
EXTENSION_DAYS = range(1, 91)
# The same plan can be bought again this long before the paid period ends; the new period follows the current one.
RENEWAL_WINDOW = timedelta(days=7)
# The nominal length of a paid period, for valuing its unused part when a dealer moves to another plan.
VALUATION_DAYS = {"monthly": 30, "yearly": 365}
# What a checkout means for a dealer with a paid plan; only these may be bought. See plan_change().
PURCHASABLE_CHANGES = ("new", "upgrade", "yearly", "renewal")


# Reads


def live_subscription(user: User) -> Subscription | None:
    """The user's trial or active subscription whose period has not ended yet."""
    return db.session.scalar(
        sa.select(Subscription)
        .where(
            Subscription.user_id == user.id,
            Subscription.status.in_(LIVE_STATUSES),
            Subscription.end_date > utcnow(),
        )
        .order_by(Subscription.end_date.desc())
        .limit(1)
        .options(joinedload(Subscription.plan))
    )


def pending_subscription(user: User) -> Subscription | None:
    return db.session.scalar(
        sa.select(Subscription).where(Subscription.user_id == user.id, Subscription.status == "pending")
    )


def current_subscription(user: User) -> Subscription | None:
    """What the user should see: the live subscription, else the pending one, else the latest."""
    return live_subscription(user) or pending_subscription(user) or _latest_subscription(user)


def brand_ids_for(user: User) -> set[int]:
    """The brands the user may open now: every active brand on the Full plan, else the chosen ones."""
    subscription = live_subscription(user)
    if subscription is None:
        return set()
    if subscription.plan.is_full:
        return offers.active_brand_ids()
    return {brand.id for brand in subscription.brands}


def _brand_coverage_query() -> sa.Select:
    """(the latest live subscription opens :brand_id) for :user_id at :now; no row when none is live."""
    brand_id = sa.bindparam("brand_id")
    chosen = sa.exists().where(user_brands.c.subscription_id == Subscription.id, user_brands.c.brand_id == brand_id)
    active = sa.exists().where(Brand.id == brand_id, Brand.active)
    covered = sa.or_(sa.and_(Plan.brand_count == 0, active), sa.and_(Plan.brand_count > 0, chosen))
    return (
        sa.select(covered)
        .select_from(Subscription)
        .join(Plan, Plan.id == Subscription.plan_id)
        .where(
            Subscription.user_id == sa.bindparam("user_id"),
            Subscription.status.in_(LIVE_STATUSES),
            Subscription.end_date > sa.bindparam("now", type_=Subscription.end_date.type),
        )
        .order_by(Subscription.end_date.desc())
        .limit(1)
    )


# Built once: it runs on every brand-bound request.
BRAND_COVERAGE = _brand_coverage_query()


def brand_coverage(user: User, brand_id: int | None) -> tuple[bool, bool]:
    """(has a live subscription, it opens `brand_id`): every active brand on the Full plan, else the chosen ones."""
    # A plain read of the request's connection: the ORM session's execute cost as much Python as the round trip.
    parameters = {"user_id": user.id, "brand_id": brand_id, "now": utcnow()}
    row = db.session.connection().execute(BRAND_COVERAGE, parameters).first()
    return (row is not None, bool(row and row[0]))


@dataclass(frozen=True)
class PlanChange:
    """What buying `plan` for `period` means for a dealer: the kind of change, its price and the credit it carries.

    kind: new (no paid plan live: nothing, a trial, or a lapsed one), upgrade (a dearer plan), yearly (the same plan
    from monthly to yearly), renewal (the same plan in the last RENEWAL_WINDOW of the period), current (the plan the
    dealer has), downgrade (a cheaper plan: scheduled for the end of the period, never bought on top).
    credit: the unused paid time of the current subscription, valued at the new plan's rate, added to the new period.
    """

    kind: str
    plan: Plan
    period: str
    price: int
    credit: timedelta = timedelta(0)

    @property
    def purchasable(self) -> bool:
        return self.kind in PURCHASABLE_CHANGES

    @property
    def credit_days(self) -> int:
        return self.credit.days


def plan_change(current: Subscription | None, plan: Plan, period: str, now: datetime | None = None) -> PlanChange:
    """Classify a purchase of `plan` for `period` against the dealer's `current` live subscription."""
    price = plan.price(period)
    if current is None or current.status != "active":
        return PlanChange("new", plan, period, price)
    now = now or utcnow()
    kind = _change_kind(current, plan, period, now)
    credit = unused_value(current, plan, period, now) if kind in PURCHASABLE_CHANGES else timedelta(0)
    return PlanChange(kind, plan, period, price, credit)


def _change_kind(current: Subscription, plan: Plan, period: str, now: datetime) -> str:
    if plan.id == current.plan_id:
        if period == current.billing_period:
            return "renewal" if current.end_date - now <= RENEWAL_WINDOW else "current"
        return "yearly" if period == "yearly" else "downgrade"
    # Plans rank by their monthly price: more brands cost more.
    return "upgrade" if plan.monthly_price > current.plan.monthly_price else "downgrade"


def unused_value(current: Subscription, plan: Plan, period: str, now: datetime) -> timedelta:
    """The current subscription's paid time still to come, as time on `plan` of the same value (never negative)."""
    if current.end_date is None:
        return timedelta(0)
    remaining = max(current.end_date - now, timedelta(0))
    current_daily = current.plan.price(current.billing_period) / VALUATION_DAYS[current.billing_period]
    new_daily = plan.price(period) / VALUATION_DAYS[period]
    if not current_daily or not new_daily:
        return remaining
    credit = remaining * (current_daily / new_daily)
    return timedelta(minutes=int(credit.total_seconds() // 60))


def trial_eligible(user: User) -> bool:
    """A trial is for newcomers: nothing the user had ever started (a trial or a paid period)."""
    started = sa.select(Subscription.id).where(Subscription.user_id == user.id, Subscription.start_date.is_not(None))
    return db.session.scalar(started.limit(1)) is None


def _latest_subscription(user: User) -> Subscription | None:
    return db.session.scalar(
        sa.select(Subscription).where(Subscription.user_id == user.id).order_by(Subscription.created_at.desc()).limit(1)
    )


# Transitions


def create_pending(user: User, plan_key: str, billing_period: str, brand_ids: list[int]) -> Subscription:
    """Validate the choice, expire the user's older pending rows, and add the new pending subscription."""
    plan = offers.plan_by_key(plan_key)
    period = offers.billing_period(billing_period)
    current = live_subscription(user)
    _refuse_unpurchasable(plan_change(current, plan, period), current)  # whatever brands come with it
    brands = offers.chosen_brands(plan, brand_ids)
    for older in db.session.scalars(
        sa.select(Subscription).where(Subscription.user_id == user.id, Subscription.status == "pending")
    ):
        older.status = "expired"
    db.session.flush()  # the one-pending-per-user index must see the old rows expired before the insert
    subscription = Subscription(user_id=user.id, plan=plan, status="pending", billing_period=period, brands=brands)
    db.session.add(subscription)
    db.session.flush()
    return subscription


def activate(subscription: Subscription) -> Subscription:
    """The single activation routine (card checkout, internal and manual): pending or trial -> active.

    It replaces the user's other live subscription at once (a trial ends; a paid plan ends and its unused paid time
    is carried over, valued at the new plan's rate), so a user never has two live subscriptions.
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
    """End the user's other trial or active subscriptions as `subscription` starts; return the paid time carried."""
    if subscription.user_id is None:
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
    db.session.flush()  # the one-live-per-user index must see them ended before this one becomes active
    return carried


def expire_pending(subscription: Subscription) -> bool:
    """Pending -> expired; any other state is left alone, since provider notifications may come late or twice."""
    if subscription.status != "pending":
        return False
    subscription.status = "expired"
    db.session.flush()
    return True


def start_trial(user: User) -> Subscription:
    """Start the Full-plan trial for an eligible user: TRIAL_DAYS plus the banked referral credit days."""
    if not trial_eligible(user):
        raise ApiError("trial_not_eligible", _("The free trial is only for accounts that never had a plan."), 409)
    plan = db.session.scalar(sa.select(Plan).where(Plan.key == FULL_PLAN_KEY, Plan.active))
    if plan is None:
        raise ApiError("trial_unavailable", _("The free trial is not available at the moment."), 409)
    days = current_app.config["TRIAL_DAYS"] + _consume_credit_days(user)
    start = utcnow()
    subscription = Subscription(
        user_id=user.id,
        plan=plan,
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
    """Cancelled -> active again, while its period lasts and the user has no other trial or active subscription."""
    _require_status(subscription, ("cancelled",))
    if subscription.end_date is None or subscription.end_date <= utcnow():
        raise ApiError("period_over", _("The subscription's period is over; it can no longer be resumed."), 409)
    refusal = ApiError(
        "other_live_subscription",
        _("The user already has another trial or active subscription; end that one before resuming this one."),
        409,
    )
    if subscription.user_id is not None and db.session.scalar(_other_live(subscription).limit(1)) is not None:
        raise refusal
    try:
        # A savepoint: should a live subscription appear meanwhile, the one-live-per-user index refuses the flush and
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
    """The user's trial or active subscriptions other than `subscription`."""
    return sa.select(Subscription).where(
        Subscription.user_id == subscription.user_id,
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
