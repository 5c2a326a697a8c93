"""A shop's members: who they are, their role and branch; changing a role and removing a member (both end that
member's sessions at once, as signing out does; what they made stays in the shop)."""

from __future__ import annotations

import uuid

import sqlalchemy as sa
from flask_babel import gettext as _

from app.accounts.models import SHOP_ROLES, User
from app.auth.sessions import revoke_user_sessions
from app.core.errors import ApiError
from app.extensions import db
from app.shops import activity
from app.shops.models import Branch
from app.shops.services import create_one_person_shop


def members_of(shop_id: uuid.UUID) -> list[dict]:
    rows = db.session.execute(
        sa.select(User, Branch.name)
        .outerjoin(Branch, Branch.id == User.branch_id)
        .where(User.shop_id == shop_id)
        .order_by(User.created_at, User.id)
    ).all()
    return [_shape(user, branch) for user, branch in rows]


def _shape(user: User, branch: str | None) -> dict:
    return {
        "id": str(user.id),
        "name": user.name,
        "email": user.email,
        "role": user.shop_role,
        "branchId": user.branch_id,
        "branchName": branch,
    }


def member_of_shop(actor: User, member_id: uuid.UUID | str) -> User:
    """A member of the actor's shop by id; anyone else (or no one) is not found."""
    try:
        member = db.session.get(User, uuid.UUID(str(member_id)))
    except ValueError:
        member = None
    if member is None or member.shop_id != actor.shop_id:
        raise ApiError("member_not_found", _("No such member in your shop."), 404)
    return member


def check_role(role: object) -> str:
    if role not in SHOP_ROLES:
        raise ApiError("invalid_role", _("The role must be clerk, manager or owner."), 400)
    return role


def ensure_may_handle(actor: User, role: str) -> None:
    """Only an owner touches an owner or makes one."""
    if role == "owner" and actor.shop_role != "owner":
        raise ApiError("owner_only", _("Only an owner can change an owner or make someone an owner."), 403)


def _owners(shop_id: uuid.UUID) -> int:
    return db.session.scalar(
        sa.select(sa.func.count()).select_from(User).where(User.shop_id == shop_id, User.shop_role == "owner")
    )


def _ensure_not_last_owner(member: User) -> None:
    if member.shop_role == "owner" and _owners(member.shop_id) <= 1:
        raise ApiError("last_owner", _("The shop's last owner cannot be removed or demoted."), 409)


def change_role(actor: User, member_id: uuid.UUID | str, role: object) -> User:
    member = member_of_shop(actor, member_id)
    role = check_role(role)
    ensure_may_handle(actor, member.shop_role)
    ensure_may_handle(actor, role)
    if role == member.shop_role:
        return member
    if role != "owner":
        _ensure_not_last_owner(member)
    previous, member.shop_role = member.shop_role, role
    db.session.flush()
    revoke_user_sessions(member.id)
    activity.record(actor, "member_role", f"{member.name}: {previous} → {role}")
    return member


def remove_member(actor: User, member_id: uuid.UUID | str) -> User:
    """Take the member out of the shop: their sessions end, they get a one-person shop of their own, and what they
    did stays with this shop."""
    member = member_of_shop(actor, member_id)
    ensure_may_handle(actor, member.shop_role)
    _ensure_not_last_owner(member)
    revoke_user_sessions(member.id)
    activity.record(actor, "member_removed", member.name)
    create_one_person_shop(member)
    db.session.flush()
    return member
