"""JSON subscription routes under /api/subscriptions: thin wrappers over app.billing.subscriptions."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from flask import Blueprint, jsonify
from flask_babel import lazy_gettext as _l
from flask_login import current_user

from app.billing import offers, subscriptions
from app.billing.models import BILLING_PERIODS, Brand, Plan, Subscription
from app.billing.schemas import Brands, DowngradeBody, MaybeSubscription, PlanChoiceBody, Plans, SubscriptionOut
from app.core.openapi import documented
from app.core.security import public
from app.core.validation import json_body, text_field

bp = Blueprint("billing_api", __name__, url_prefix="/api/subscriptions")

PLAN_KEY = _l("Plan")
BILLING_PERIOD = _l("Billing period")


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
        "monthlyEquivalentOfYearly": round(plan.yearly_price / 12),
        "vatIncluded": True,
        "isCurrent": current is not None and current.plan_id == plan.id,
        "changes": _changes_json(plan, current) if signed_in else None,
    }


def _changes_json(plan: Plan, current: Subscription | None) -> dict[str, Any]:
    """What buying `plan` would mean for the caller, per billing period."""
    changes = {period: subscriptions.plan_change(current, plan, period) for period in BILLING_PERIODS}
    return {period: _change_json(change, current) for period, change in changes.items()}


def _change_json(change: subscriptions.PlanChange, current: Subscription | None) -> dict[str, Any]:
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


@bp.get("/plans")
@documented(Plans, public=True, summary="The plans on sale")
@public
def plans():
    signed_in = current_user.is_authenticated
    current = subscriptions.live_subscription(current_user) if signed_in else None
    return jsonify(plans=[plan_offer_json(plan, current, signed_in) for plan in offers.active_plans()])


@bp.get("/brands")
@documented(Brands, public=True, summary="The brands on sale")
@public
def brands():
    return jsonify(brands=[{**brand_json(brand), "slug": brand.slug} for brand in offers.active_brands()])


@bp.get("/me")
@documented(MaybeSubscription, summary="The caller's subscription, or null")
def me():
    subscription = subscriptions.current_subscription(current_user)
    return jsonify(subscription_json(subscription) if subscription else None)


@bp.post("/trial")
@documented(SubscriptionOut, status=201, errors=(409,), summary="Start the free trial")
def start_trial():
    return jsonify(subscription_json(subscriptions.start_trial(current_user))), 201


@bp.post("")
@documented(SubscriptionOut, status=201, body=PlanChoiceBody, summary="Choose a plan: a pending subscription")
def create():
    data = json_body()
    subscription = subscriptions.create_pending(
        current_user,
        text_field(data, "planKey", PLAN_KEY, max_length=32),
        text_field(data, "billingPeriod", BILLING_PERIOD, max_length=10),
        data.get("brandIds", []),
    )
    return jsonify(subscription_json(subscription)), 201


@bp.patch("/cancel-pending")
@documented(SubscriptionOut, errors=(404,), summary="Cancel the pending subscription")
def cancel_pending():
    return jsonify(subscription_json(subscriptions.cancel_pending(current_user)))


@bp.patch("/downgrade")
@documented(
    SubscriptionOut, body=DowngradeBody, errors=(409,), summary="Move to a cheaper plan at the end of the period"
)
def downgrade():
    data = json_body()
    subscription = subscriptions.downgrade(
        current_user, text_field(data, "planKey", PLAN_KEY, max_length=32), data.get("brandIds", [])
    )
    return jsonify(subscription_json(subscription))


@bp.delete("/downgrade")
@documented(SubscriptionOut, errors=(404,), summary="Keep the current plan: drop the scheduled downgrade")
def cancel_downgrade():
    return jsonify(subscription_json(subscriptions.cancel_downgrade(current_user)))
