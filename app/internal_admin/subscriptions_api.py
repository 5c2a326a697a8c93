"""The founder's subscription operations under /api/internal/admin/subscriptions/<id> (X-Internal-Token, no session).

Each route is one transition of app.billing.subscriptions.transitions, run inside `audited(...)`: the audit row keeps
the subscription's state before and after (or the refusal's code), the founder and the reason.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from flask import jsonify
from flask_babel import gettext as _

from app.billing.models import Subscription
from app.billing.serialisers import iso, subscription_json
from app.billing.subscriptions import transitions
from app.core.errors import ApiError
from app.core.openapi import INTERNAL, documented
from app.extensions import db
from app.internal_admin.audit import audited
from app.internal_admin.guard import InternalBlueprint, read_actor
from app.internal_admin.schemas import (
    ActorBody,
    BrandSetBody,
    ChangePlanBody,
    ExtendTrialBody,
    InternalHeaders,
    InternalSubscription,
    PlanChanged,
    TrialExtended,
)

bp = InternalBlueprint("internal_admin_subscriptions", __name__, url_prefix="/subscriptions")

ROUTE = "/<uuid:subscription_id>"
# What every route shares in the OpenAPI document: the token, no session, and the refusals of a missing
# subscription (404) and of a state the change does not apply to (409).
INTERNAL_ROUTE = {"headers": InternalHeaders, "errors": (401, 404, 409), "security": INTERNAL, "public": True}


def snapshot(subscription: Subscription) -> dict[str, Any]:
    """The parts of a subscription the founder operations change, as the audit table keeps them."""
    return {
        "status": subscription.status,
        "planKey": subscription.plan.key,
        "endDate": iso(subscription.end_date),
        "brandIds": sorted(brand.id for brand in subscription.brands),
        "cancelledAt": iso(subscription.cancelled_at),
    }


def internal_subscription_json(subscription: Subscription) -> dict[str, Any]:
    """The subscription as the dealer's API shows it, plus whose it is."""
    return {**subscription_json(subscription), "userId": str(subscription.user_id) if subscription.user_id else None}


def _load(subscription_id: uuid.UUID) -> Subscription:
    subscription = db.session.get(Subscription, subscription_id)
    if subscription is None:
        raise ApiError("subscription_not_found", _("No subscription with this id was found."), 404)
    return subscription


@contextmanager
def _operation(name: str, subscription_id: uuid.UUID) -> Iterator[tuple[Subscription, dict[str, Any]]]:
    """Read the founder and reason, then run one operation on the subscription with its audit row:
    `with _operation("cancel", id) as (subscription, body):`."""
    actor, body = read_actor()
    with audited(actor, f"subscription.{name}", "subscription", subscription_id) as record:
        subscription = _load(subscription_id)
        record.before = snapshot(subscription)
        yield subscription, body
        record.after = snapshot(subscription)


@bp.post(f"{ROUTE}/trial/extend")
@documented(TrialExtended, body=ExtendTrialBody, **INTERNAL_ROUTE, summary="Extend a trial or active subscription")
def extend(subscription_id: uuid.UUID):
    with _operation("extend", subscription_id) as (subscription, body):
        previous_end, new_end = transitions.extend(subscription, body.get("days"))
    return jsonify(
        previousEndDate=iso(previous_end), newEndDate=iso(new_end), daysAdded=body["days"], status=subscription.status
    )


@bp.post(f"{ROUTE}/activate")
@documented(InternalSubscription, body=ActorBody, **INTERNAL_ROUTE, summary="Activate a trial or pending subscription")
def activate(subscription_id: uuid.UUID):
    with _operation("activate", subscription_id) as (subscription, _body):
        transitions.activate(subscription)
    return jsonify(internal_subscription_json(subscription))


@bp.post(f"{ROUTE}/change-plan")
@documented(PlanChanged, body=ChangePlanBody, **INTERNAL_ROUTE, summary="Move a subscription to another plan")
def change_plan(subscription_id: uuid.UUID):
    with _operation("change_plan", subscription_id) as (subscription, body):
        reassignment_needed = transitions.change_plan(subscription, body.get("newPlanId"))
    return jsonify({**internal_subscription_json(subscription), "brandReassignmentNeeded": reassignment_needed})


@bp.post(f"{ROUTE}/cancel")
@documented(InternalSubscription, body=ActorBody, **INTERNAL_ROUTE, summary="Cancel a trial or active subscription")
def cancel(subscription_id: uuid.UUID):
    with _operation("cancel", subscription_id) as (subscription, _body):
        transitions.cancel(subscription)
    return jsonify(internal_subscription_json(subscription))


@bp.post(f"{ROUTE}/resume")
@documented(InternalSubscription, body=ActorBody, **INTERNAL_ROUTE, summary="Resume a cancelled subscription")
def resume(subscription_id: uuid.UUID):
    with _operation("resume", subscription_id) as (subscription, _body):
        transitions.resume(subscription)
    return jsonify(internal_subscription_json(subscription))


@bp.post(f"{ROUTE}/brands")
@documented(InternalSubscription, body=BrandSetBody, **INTERNAL_ROUTE, summary="Replace a subscription's brands")
def reassign_brands(subscription_id: uuid.UUID):
    with _operation("brands", subscription_id) as (subscription, body):
        transitions.reassign_brands(subscription, body.get("brandIds"))
    return jsonify(internal_subscription_json(subscription))
