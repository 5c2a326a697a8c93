"""Plans and brands on sale: listing them and checking a customer's choice before anything is written."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from flask_babel import gettext as _

from app.billing.models import BILLING_PERIODS, Brand, Plan
from app.core.errors import ApiError
from app.core.validation import is_id
from app.extensions import db


def active_plans() -> list[Plan]:
    return list(db.session.scalars(sa.select(Plan).where(Plan.active).order_by(Plan.sort_order, Plan.id)))


def active_brands() -> list[Brand]:
    return list(db.session.scalars(sa.select(Brand).where(Brand.active).order_by(Brand.name)))


def brands_by_ids(brand_ids: list[int] | None) -> list[Brand]:
    if not brand_ids:
        return []
    return list(db.session.scalars(sa.select(Brand).where(Brand.id.in_(brand_ids)).order_by(Brand.name)))


def active_brand_ids() -> set[int]:
    return set(db.session.scalars(sa.select(Brand.id).where(Brand.active)))


def plan_by_key(plan_key: Any) -> Plan:
    """The active plan called `plan_key`, or a refusal."""
    plan = db.session.scalar(sa.select(Plan).where(Plan.key == plan_key)) if isinstance(plan_key, str) else None
    if plan is None or not plan.active:
        raise ApiError("invalid_plan", _("Choose one of the plans on sale."), 400)
    return plan


def plan_by_id(plan_id: Any) -> Plan:
    """The active plan with id `plan_id`, or a refusal."""
    plan = db.session.get(Plan, plan_id) if is_id(plan_id) else None
    if plan is None or not plan.active:
        raise ApiError("invalid_plan", _("Choose one of the plans on sale."), 400)
    return plan


def billing_period(value: Any) -> str:
    if value not in BILLING_PERIODS:
        raise ApiError("invalid_billing_period", _("Choose a monthly or a yearly billing period."), 400)
    return value


def chosen_brands(plan: Plan, brand_ids: Any) -> list[Brand]:
    """The brands picked for `plan`: exactly its brand count of distinct active brands; none for the Full plan."""
    if plan.is_full:
        return []  # every active brand is granted on activation; a choice sent along is ignored
    if not isinstance(brand_ids, list) or not all(is_id(value) for value in brand_ids):
        raise ApiError("invalid_brand_set", _("Send the chosen brands as a list of brand ids."), 400)
    if len(set(brand_ids)) != len(brand_ids):
        raise ApiError("invalid_brand_set", _("Each brand can be chosen only once."), 400)
    if len(brand_ids) != plan.brand_count:
        raise ApiError(
            "invalid_brand_set",
            _("Choose exactly %(count)d brands for this plan.", count=plan.brand_count),
            400,
        )
    brands = list(db.session.scalars(sa.select(Brand).where(Brand.id.in_(brand_ids), Brand.active)))
    if len(brands) != len(brand_ids):
        raise ApiError("invalid_brand_set", _("One of the chosen brands is not available."), 400)
    return brands
