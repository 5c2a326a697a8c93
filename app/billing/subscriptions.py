"""Subscription lifecycle: one function per transition of the spec's table. Services add and flush, never commit."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

import sqlalchemy as sa
from dateutil.relativedelta import relativedelta
from flask import current_app
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from sqlalchemy.orm import joinedload

from app.accounts.models import User
from app.analytics.services import capture
from app.billing import catalog
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
        return catalog.active_brand_ids()
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


def brand_coverage(user: User, brand_id: int) -> tuple[bool, bool]:
    """(has a live subscription, it opens `brand_id`): every active brand on the Full plan, else the chosen ones."""
    row = db.session.execute(BRAND_COVERAGE, {"user_id": user.id, "brand_id": brand_id, "now": utcnow()}).first()
    return (row is not None, bool(row and row[0]))


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
    plan = catalog.plan_by_key(plan_key)
    period = catalog.billing_period(billing_period)
    brands = catalog.chosen_brands(plan, brand_ids)
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
    """The single activation routine (card checkout, internal and manual): pending or trial -> active."""
    _require_status(subscription, ("pending", "trial"))
    user = db.session.get(User, subscription.user_id) if subscription.user_id else None
    credit_days = _consume_credit_days(user)
    start = utcnow()
    subscription.status = "active"
    subscription.start_date = start
    subscription.end_date = start + PERIOD_LENGTHS[subscription.billing_period] + timedelta(days=credit_days)
    subscription.cancelled_at = None
    if subscription.plan.is_full:
        subscription.brands = catalog.active_brands()
    db.session.flush()
    if subscription.user_id:
        capture(str(subscription.user_id), "subscription_activated", _activation_properties(subscription, credit_days))
    return subscription


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
        brands=catalog.active_brands(),
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
    _require_status(subscription, LIVE_STATUSES)
    subscription.status = "cancelled"
    subscription.cancelled_at = utcnow()
    db.session.flush()
    return subscription


def resume(subscription: Subscription) -> Subscription:
    _require_status(subscription, ("cancelled",))
    subscription.status = "active"
    subscription.cancelled_at = None
    db.session.flush()
    return subscription


def change_plan(subscription: Subscription, new_plan_id: Any) -> bool:
    """Replace the plan of a trial or active subscription, brands untouched; return whether brands must be re-chosen."""
    _require_status(subscription, LIVE_STATUSES)
    plan = catalog.plan_by_id(new_plan_id)
    if plan.id == subscription.plan_id:
        raise ApiError("same_plan", _("The subscription is already on this plan."), 409)
    subscription.plan = plan
    # A schedule chosen against the old plan no longer makes sense.
    subscription.scheduled_plan_id = None
    subscription.scheduled_brand_ids = None
    db.session.flush()
    # The Full plan grants every brand by itself, so it never needs a choice.
    return not plan.is_full and plan.brand_count != len(subscription.brands)


def reassign_brands(subscription: Subscription, brand_ids: Any) -> Subscription:
    """Replace the brand set of a trial or active subscription in one step."""
    _require_status(subscription, LIVE_STATUSES)
    if subscription.plan.is_full:
        raise ApiError("full_plan_brands", _("The Full plan includes every brand; there is nothing to choose."), 409)
    subscription.brands = catalog.chosen_brands(subscription.plan, brand_ids)
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
    plan = catalog.plan_by_key(plan_key)
    period = subscription.billing_period
    if plan.id == subscription.plan_id or plan.price(period) >= subscription.plan.price(period):
        raise ApiError("not_a_downgrade", _("Choose a plan cheaper than your current one."), 400)
    brands = catalog.chosen_brands(plan, brand_ids)
    subscription.scheduled_plan = plan
    subscription.scheduled_brand_ids = sorted(brand.id for brand in brands)
    db.session.flush()
    return subscription


# Helpers


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
