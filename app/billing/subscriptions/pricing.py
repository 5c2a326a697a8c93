"""What buying a plan means for a dealer who may have one: the kind of change, its price, and the unused paid time it
carries over (valued at the new plan's rate)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from app.billing.models import Plan, Subscription
from app.core.db import utcnow

# The same plan can be bought again this long before the paid period ends; the new period follows the current one.
RENEWAL_WINDOW = timedelta(days=7)
# The nominal length of a paid period, for valuing its unused part when a dealer moves to another plan.
VALUATION_DAYS = {"monthly": 30, "yearly": 365}
# What a checkout means for a dealer with a paid plan; only these may be bought. See plan_change().
PURCHASABLE_CHANGES = ("new", "upgrade", "yearly", "renewal")


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
