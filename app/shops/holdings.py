"""What a shop holds, asked before a person leaves it for another shop: business data (any row of a table with a
`shop_id` column, the shop's own frame aside) and a paid history (asked of the domains that know, above this one)."""

from __future__ import annotations

import uuid
from collections.abc import Callable

import sqlalchemy as sa

from app.extensions import db

# The shop's frame: who belongs to it, its branches and its open invitations are not data a person leaves behind.
FRAME_TABLES = {"user", "branch", "shop", "shop_invitation"}

_paid_history_checks: list[Callable[[uuid.UUID], bool]] = []


def paid_history_check(check: Callable[[uuid.UUID], bool]) -> Callable[[uuid.UUID], bool]:
    """Register `check(shop_id)`: whether the shop has ever paid (billing registers one; shops cannot import it)."""
    _paid_history_checks.append(check)
    return check


def has_paid_history(shop_id: uuid.UUID) -> bool:
    return any(check(shop_id) for check in _paid_history_checks)


def has_data(shop_id: uuid.UUID) -> bool:
    """Whether any table with a `shop_id` column, outside the shop's frame, holds a row of this shop."""
    for table in db.metadata.sorted_tables:
        if table.name in FRAME_TABLES or "shop_id" not in table.c:
            continue
        if db.session.scalar(sa.select(sa.literal(1)).select_from(table).where(table.c.shop_id == shop_id).limit(1)):
            return True
    return False


def other_members(shop_id: uuid.UUID, user_id: uuid.UUID) -> int:
    from app.accounts.models import User

    return db.session.scalar(
        sa.select(sa.func.count()).select_from(User).where(User.shop_id == shop_id, User.id != user_id)
    )
