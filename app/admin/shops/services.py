"""The founder's view of the shops: each shop with its members, seats, branches, plan and usage (decodes in the last
USAGE_DAYS days), one shop's page, and the shop's owner (whom an impersonation enters as). Read-only.

Each list figure is a correlated subquery of the one shop row, so a page of shops is one query however many members,
branches and decodes they have.
"""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Any

import sqlalchemy as sa
from flask_babel import gettext as _

from app.accounts.models import User
from app.admin.users.services import subscription_json
from app.billing import seats
from app.billing.models import Plan, Subscription
from app.core.db import utcnow
from app.core.errors import ApiError
from app.extensions import db
from app.shops.models import Branch, Shop
from app.vehicles.models import QueryLog

PAGE_SIZE = 25
USAGE_DAYS = 30
LIVE_STATUSES = ("trial", "active")


def _owner_ids(shop_id: Any) -> sa.Select:
    # Correlated to the shop row however deep it is nested (the plan's subquery sits inside the shops list).
    return sa.select(User.id).where(User.shop_id == shop_id, User.shop_role == "owner").correlate_except(User)


def subscription_of_shop(shop_id: Any) -> Any:
    """The condition that picks a shop's subscriptions: the one place to change when subscriptions carry shop_id."""
    return Subscription.shop_id == shop_id


def seat_limit(shop_id: uuid.UUID) -> int:
    """The seats the shop's plan allows."""
    return seats.seat_limit(shop_id)


def _members_count(shop_id: Any) -> Any:
    return sa.select(sa.func.count()).select_from(User).where(User.shop_id == shop_id).scalar_subquery()


def _branches_count(shop_id: Any) -> Any:
    return sa.select(sa.func.count()).select_from(Branch).where(Branch.shop_id == shop_id).scalar_subquery()


def _live_plan(shop_id: Any) -> Any:
    return (
        sa.select(Plan.key)
        .join(Subscription, Subscription.plan_id == Plan.id)
        .where(subscription_of_shop(shop_id), Subscription.status.in_(LIVE_STATUSES), Subscription.end_date > utcnow())
        .order_by(Subscription.end_date.desc())
        .limit(1)
        .scalar_subquery()
    )


def _decodes_since(shop_id: Any) -> Any:
    """Decodes by the shop's members in the last USAGE_DAYS days (the query log keeps the member who decoded)."""
    since = utcnow() - timedelta(days=USAGE_DAYS)
    members = sa.select(User.id).where(User.shop_id == shop_id).correlate_except(User)
    return (
        sa.select(sa.func.count())
        .select_from(QueryLog)
        .where(QueryLog.user_id.in_(members), QueryLog.created_at >= since)
        .scalar_subquery()
    )


def _like(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped.lower()}%"


def search(query: str = "", page: int = 1) -> tuple[list[dict[str, Any]], bool]:
    """Shops whose name, or a member's name or e-mail, contains `query`, newest first, with their figures."""
    select = sa.select(
        Shop,
        _members_count(Shop.id).label("members"),
        _branches_count(Shop.id).label("branches"),
        _live_plan(Shop.id).label("plan"),
        _decodes_since(Shop.id).label("decodes"),
    ).order_by(Shop.created_at.desc(), Shop.id)
    if query.strip():
        pattern = _like(query.strip()[:100])
        matches = [sa.func.lower(column).like(pattern, escape="\\") for column in (User.email, User.name, Shop.name)]
        member_matches = sa.select(User.shop_id).where(sa.or_(*matches[:2]))
        select = select.where(sa.or_(matches[2], Shop.id.in_(member_matches)))
    rows = db.session.execute(select.offset((page - 1) * PAGE_SIZE).limit(PAGE_SIZE + 1)).all()
    return [_row(*row) for row in rows[:PAGE_SIZE]], len(rows) > PAGE_SIZE


def _row(shop: Shop, members: int, branches: int, plan: str | None, decodes: int) -> dict[str, Any]:
    return {
        "id": str(shop.id),
        "name": shop.name,
        "members": members,
        "seats": {"inUse": members, "limit": seat_limit(shop.id)},
        "branches": branches,
        "plan": plan,
        "decodesLast30Days": decodes,
        "createdAt": shop.created_at.isoformat(),
    }


def get_shop(raw_id: str) -> Shop:
    """The shop an admin names; 404 for an unknown or malformed id."""
    try:
        shop = db.session.get(Shop, uuid.UUID(raw_id))
    except ValueError:
        shop = None
    if shop is None:
        raise ApiError("shop_not_found", _("No such shop was found."), 404)
    return shop


def owner_of(shop: Shop) -> User:
    """The shop's owner (the earliest, should it have several); 409 for a shop left without one."""
    owner = db.session.scalars(_owner_query(shop.id).order_by(User.created_at, User.id).limit(1)).first()
    if owner is None:
        raise ApiError("shop_without_owner", _("This shop has no owner to enter as."), 409)
    return owner


def _owner_query(shop_id: uuid.UUID) -> sa.Select:
    return sa.select(User).where(User.shop_id == shop_id, User.shop_role == "owner")


def detail(raw_id: str) -> dict[str, Any]:
    """One shop: its members with role and branch, its branches, seats, subscriptions and usage."""
    shop = get_shop(raw_id)
    figures = db.session.execute(
        sa.select(_members_count(shop.id), _branches_count(shop.id), _live_plan(shop.id), _decodes_since(shop.id))
    ).one()
    branches = list(db.session.scalars(sa.select(Branch).where(Branch.shop_id == shop.id).order_by(Branch.id)))
    names = {branch.id: branch.name for branch in branches}
    return {
        "shop": _row(shop, *figures),
        "members": [_member(user, names) for user in _members(shop.id)],
        "branches": [_branch(branch) for branch in branches],
        "subscriptions": [subscription_json(item) for item in _subscriptions(shop.id)],
    }


def _members(shop_id: uuid.UUID) -> list[User]:
    rank = sa.case({"owner": 0, "manager": 1}, value=User.shop_role, else_=2)
    return list(db.session.scalars(sa.select(User).where(User.shop_id == shop_id).order_by(rank, User.name, User.id)))


def _member(user: User, branch_names: dict[int, str]) -> dict[str, Any]:
    return {
        "id": str(user.id),
        "name": user.name,
        "email": user.email,
        "role": user.shop_role,
        "branch": branch_names.get(user.branch_id) if user.branch_id else None,
        "status": user.status,
    }


def _branch(branch: Branch) -> dict[str, Any]:
    return {"id": branch.id, "name": branch.name, "address": branch.address, "phone": branch.phone}


def _subscriptions(shop_id: uuid.UUID) -> list[Subscription]:
    select = sa.select(Subscription).where(subscription_of_shop(shop_id)).order_by(Subscription.created_at.desc())
    return list(db.session.scalars(select.limit(PAGE_SIZE)))


def counts() -> dict[str, int]:
    """The dashboard's shop figures: shops, members, and seats in use (a member holds one seat)."""
    shops = db.session.scalar(sa.select(sa.func.count()).select_from(Shop))
    members = db.session.scalar(sa.select(sa.func.count()).select_from(User).where(User.shop_id.is_not(None)))
    return {"shops": shops, "members": members, "seatsInUse": members}
