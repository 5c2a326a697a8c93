"""How billing answers in JSON: plans on sale, brands, subscriptions and their scheduled changes (the subscription
API and the founder's internal API answer so)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from app.billing.models import BILLING_PERIODS, Brand, Plan, Subscription
from app.billing.subscriptions import pricing


def iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment else None


def plan_json(plan: Plan) -> dict[str, Any]:
    return {"id": plan.id, "key": plan.key, "name": plan.label, "brandCount": plan.brand_count}


def brand_json(brand: Brand) -> dict[str, Any]:
    return {"id": brand.id, "name": brand.name}


def plan_offer_json(plan: Plan, current: Subscription | None = None, signed_in: bool = False) -> dict[str, Any]:
    """A plan on sale; for a signed-in caller also whether it is theirs and what buying it would mean."""
    return {
        **plan_json(plan),
        "isFull": plan.is_full,
        "prices": {"monthly": plan.monthly_price, "yearly": plan.yearly_price},
        "seats": {
            "included": plan.included_seats,
            "prices": {"monthly": plan.monthly_seat_price, "yearly": plan.yearly_seat_price},
        },
        "monthlyEquivalentOfYearly": round(plan.yearly_price / 12),
        "vatIncluded": True,
        "isCurrent": current is not None and current.plan_id == plan.id,
        "changes": _changes_json(plan, current) if signed_in else None,
    }


def _changes_json(plan: Plan, current: Subscription | None) -> dict[str, Any]:
    """What buying `plan` would mean for the caller, per billing period."""
    changes = {period: pricing.plan_change(current, plan, period) for period in BILLING_PERIODS}
    return {period: _change_json(change, current) for period, change in changes.items()}


def _change_json(change: pricing.PlanChange, current: Subscription | None) -> dict[str, Any]:
    later = change.kind == "downgrade" and current is not None
    return {
        "kind": change.kind,
        "purchasable": change.purchasable,
        "price": change.price,
        "creditDays": change.credit_days,
        "effectiveDate": iso(current.end_date) if later else None,
    }


def scheduled_change_json(subscription: Subscription) -> dict[str, Any] | None:
    if subscription.scheduled_plan is None:
        return None
    return {
        "plan": plan_json(subscription.scheduled_plan),
        "brandIds": subscription.scheduled_brand_ids or [],
        "effectiveDate": iso(subscription.end_date),
    }


def subscription_json(subscription: Subscription) -> dict[str, Any]:
    return {
        "id": str(subscription.id),
        "status": subscription.status,
        "plan": plan_json(subscription.plan),
        "billingPeriod": subscription.billing_period,
        "startDate": iso(subscription.start_date),
        "endDate": iso(subscription.end_date),
        "cancelledAt": iso(subscription.cancelled_at),
        "brands": [brand_json(brand) for brand in subscription.brands],
        "scheduledChange": scheduled_change_json(subscription),
    }
