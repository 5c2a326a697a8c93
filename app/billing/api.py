"""JSON subscription routes under /api/subscriptions: thin wrappers over app.billing.subscriptions' queries and
transitions. The subscription is the shop's: every member reads it, only its owners change it."""

from __future__ import annotations

from flask import Blueprint, jsonify
from flask_babel import lazy_gettext as _l
from flask_login import current_user

from app.billing import offers, seat_changes
from app.billing.schemas import (
    Brands,
    DowngradeBody,
    MaybeSubscription,
    PlanChoiceBody,
    Plans,
    SeatChangeOut,
    SeatsBody,
    SeatsOut,
    SubscriptionOut,
)
from app.billing.serialisers import brand_json, plan_offer_json, subscription_json
from app.billing.subscriptions import queries, transitions
from app.core.openapi import documented
from app.core.security import public, shop_role
from app.core.validation import json_body, text_field

bp = Blueprint("billing_api", __name__, url_prefix="/api/subscriptions")

PLAN_KEY = _l("Plan")
BILLING_PERIOD = _l("Billing period")


@bp.get("/plans")
@documented(Plans, public=True, summary="The plans on sale")
@public
def plans():
    signed_in = current_user.is_authenticated
    current = queries.live_subscription(current_user) if signed_in else None
    return jsonify(plans=[plan_offer_json(plan, current, signed_in) for plan in offers.active_plans()])


@bp.get("/brands")
@documented(Brands, public=True, summary="The brands on sale")
@public
def brands():
    return jsonify(brands=[{**brand_json(brand), "slug": brand.slug} for brand in offers.active_brands()])


@bp.get("/me")
@documented(MaybeSubscription, summary="The subscription of the caller's shop, or null")
@shop_role("clerk")
def me():
    subscription = queries.current_subscription(current_user)
    return jsonify(subscription_json(subscription) if subscription else None)


@bp.post("/trial")
@documented(SubscriptionOut, status=201, errors=(409,), summary="Start the free trial")
@shop_role("owner")
def start_trial():
    return jsonify(subscription_json(transitions.start_trial(current_user))), 201


@bp.post("")
@documented(SubscriptionOut, status=201, body=PlanChoiceBody, summary="Choose a plan: a pending subscription")
@shop_role("owner")
def create():
    data = json_body()
    subscription = transitions.create_pending(
        current_user,
        text_field(data, "planKey", PLAN_KEY, max_length=32),
        text_field(data, "billingPeriod", BILLING_PERIOD, max_length=10),
        data.get("brandIds", []),
        data.get("seats"),
    )
    return jsonify(subscription_json(subscription)), 201


@bp.patch("/cancel-pending")
@documented(SubscriptionOut, errors=(404,), summary="Cancel the pending subscription")
@shop_role("owner")
def cancel_pending():
    return jsonify(subscription_json(transitions.cancel_pending(current_user)))


@bp.patch("/downgrade")
@documented(
    SubscriptionOut, body=DowngradeBody, errors=(409,), summary="Move to a cheaper plan at the end of the period"
)
@shop_role("owner")
def downgrade():
    data = json_body()
    subscription = transitions.downgrade(
        current_user, text_field(data, "planKey", PLAN_KEY, max_length=32), data.get("brandIds", [])
    )
    return jsonify(subscription_json(subscription))


@bp.delete("/downgrade")
@documented(SubscriptionOut, errors=(404,), summary="Keep the current plan: drop the scheduled downgrade")
@shop_role("owner")
def cancel_downgrade():
    return jsonify(subscription_json(transitions.cancel_downgrade(current_user)))


@bp.get("/me/seats")
@documented(SeatsOut, summary="The seats of the caller's shop")
@shop_role("clerk")
def seats():
    return jsonify(seat_changes.seat_overview(current_user))


@bp.put("/me/seats")
@documented(SeatChangeOut, body=SeatsBody, errors=(409, 502), summary="Change the seats of the shop's paid plan")
@shop_role("owner")
def change_seats():
    subscription, url = seat_changes.change_seats(current_user, json_body().get("seats"))
    return jsonify(subscription=subscription_json(subscription), seats=subscription.seats, checkoutUrl=url)
