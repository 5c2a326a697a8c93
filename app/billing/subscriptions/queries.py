"""Reads of subscriptions: which plan a shop has now, which brands it opens, whether a trial is still possible.

A subscription is the shop's: every member reads their shop's (`user.shop_id`); a user without a shop has none."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import sqlalchemy as sa
from flask_babel import lazy_gettext as _l
from sqlalchemy.orm import joinedload

from app.accounts.models import User
from app.auth.session_cache import kept_facts, watch
from app.billing import offers
from app.billing.models import LIVE_STATUSES, Brand, Plan, Subscription, user_brands
from app.core.db import utcnow
from app.extensions import db

STATUS_LABELS = {
    "pending": _l("Awaiting payment"),
    "active": _l("Active"),
    "trial": _l("Free trial"),
    "cancelled": _l("Cancelled"),
    "expired": _l("Expired"),
}


def live_subscription(user: User) -> Subscription | None:
    """The trial or active subscription of the user's shop whose period has not ended yet."""
    return live_shop_subscription(user.shop_id)


def live_shop_subscription(shop_id: uuid.UUID | None) -> Subscription | None:
    """The shop's trial or active subscription whose period has not ended yet."""
    if shop_id is None:
        return None
    return db.session.scalar(
        sa.select(Subscription)
        .where(
            Subscription.shop_id == shop_id,
            Subscription.status.in_(LIVE_STATUSES),
            Subscription.end_date > utcnow(),
        )
        .order_by(Subscription.end_date.desc())
        .limit(1)
        .options(joinedload(Subscription.plan))
    )


def pending_subscription(user: User) -> Subscription | None:
    return db.session.scalar(sa.select(Subscription).where(of_shop(user), Subscription.status == "pending"))


def of_shop(user: User) -> sa.ColumnElement[bool]:
    """The subscriptions of the user's shop (none at all for a user without a shop, never the anonymised rows)."""
    return Subscription.shop_id == user.shop_id if user.shop_id is not None else sa.false()


def current_subscription(user: User) -> Subscription | None:
    """What the shop's members see: the live subscription, else the pending one, else the latest."""
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
    """(the latest live subscription opens :brand_id, its end) for :shop_id at :now; no row when none is live."""
    brand_id = sa.bindparam("brand_id")
    chosen = sa.exists().where(user_brands.c.subscription_id == Subscription.id, user_brands.c.brand_id == brand_id)
    active = sa.exists().where(Brand.id == brand_id, Brand.active)
    covered = sa.or_(sa.and_(Plan.brand_count == 0, active), sa.and_(Plan.brand_count > 0, chosen))
    return (
        sa.select(covered, Subscription.end_date)
        .select_from(Subscription)
        .join(Plan, Plan.id == Subscription.plan_id)
        .where(
            Subscription.shop_id == sa.bindparam("shop_id", type_=sa.Uuid()),
            Subscription.status.in_(LIVE_STATUSES),
            Subscription.end_date > sa.bindparam("now", type_=Subscription.end_date.type),
        )
        .order_by(Subscription.end_date.desc())
        .limit(1)
    )


# Built once: it runs on every brand-bound request.
BRAND_COVERAGE = _brand_coverage_query()


def brand_coverage(user: User, brand_id: int | None) -> tuple[bool, bool]:
    """(the user's shop has a live subscription, it opens `brand_id`): every active brand on the Full plan, else the
    chosen ones.

    Kept beside the signed-in session (`kept_facts`) until its subscription's period ends: any change to a
    subscription, or to plans and brands, replaces the epoch token and so drops it for every member of every shop."""
    if user.shop_id is None:
        return False, False
    facts = kept_facts(user.id)
    now = utcnow()
    kept = facts.get((COVERAGE, brand_id)) if facts is not None else None
    if kept is not None and kept[2] > now:
        return kept[:2]
    # A plain read of the request's connection: the ORM session's execute cost as much Python as the round trip.
    parameters = {"shop_id": user.shop_id, "brand_id": brand_id, "now": now}
    row = db.session.connection().execute(BRAND_COVERAGE, parameters).first()
    live, covered = row is not None, bool(row and row[0])
    if facts is not None:
        facts[(COVERAGE, brand_id)] = (live, covered, row[1] if live else datetime.max.replace(tzinfo=UTC))
    return live, covered


COVERAGE = "billing.brand_coverage"
# What the coverage is read from: a shop's subscriptions (and, through them, their chosen brands), plans and brands.
# A subscription's change replaces the epoch, not one user's token: it must reach every member of the shop at once,
# and it is rare (a checkout, a renewal, a seat or plan change), so all kept sessions reading once more costs little
# (docs/decisions.md, "Brand access kept beside the session: the epoch").
watch(Subscription, tables=[user_brands.name])
watch(Plan)
watch(Brand)


def trial_eligible(user: User) -> bool:
    """A trial is for newcomers: nothing the user's shop had ever started (a trial or a paid period)."""
    if user.shop_id is None:
        return False
    started = sa.select(Subscription.id).where(of_shop(user), Subscription.start_date.is_not(None))
    return db.session.scalar(started.limit(1)) is None


def _latest_subscription(user: User) -> Subscription | None:
    return db.session.scalar(
        sa.select(Subscription).where(of_shop(user)).order_by(Subscription.created_at.desc()).limit(1)
    )
