"""A shop's branches (şube): adding, editing, deleting one (never the last; its members move to another), and the
branch each member chooses to work in."""

from __future__ import annotations

import uuid

import sqlalchemy as sa
from flask_babel import gettext as _

from app.accounts.models import User
from app.core.errors import ApiError
from app.core.validation import is_id
from app.extensions import db
from app.shops import activity
from app.shops.models import Branch, ShopInvitation

NAME_LENGTH, ADDRESS_LENGTH, PHONE_LENGTH = 80, 300, 40


def branches_of(shop_id: uuid.UUID) -> list[Branch]:
    return list(db.session.scalars(sa.select(Branch).where(Branch.shop_id == shop_id).order_by(Branch.id)))


def shaped(branch: Branch) -> dict:
    return {"id": branch.id, "name": branch.name, "address": branch.address, "phone": branch.phone}


def branch_of_shop(shop_id: uuid.UUID, branch_id: object) -> Branch:
    """A branch of this shop by id; another shop's (or none) is not found."""
    branch = db.session.get(Branch, branch_id) if is_id(branch_id) else None
    if branch is None or branch.shop_id != shop_id:
        raise ApiError("branch_not_found", _("No such branch in your shop."), 404)
    return branch


def _text(value: object, length: int, *, required: bool) -> str | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        if required:
            raise ApiError("missing_field", _("The branch needs a name."), 400)
        return None
    if not isinstance(value, str) or len(value.strip()) > length:
        raise ApiError(
            "invalid_field", _("Branch details must be text of at most %(max)d characters.", max=length), 400
        )
    return value.strip()


def add_branch(actor: User, name: object, address: object = None, phone: object = None) -> Branch:
    branch = Branch(
        shop_id=actor.shop_id,
        name=_text(name, NAME_LENGTH, required=True),
        address=_text(address, ADDRESS_LENGTH, required=False),
        phone=_text(phone, PHONE_LENGTH, required=False),
    )
    db.session.add(branch)
    db.session.flush()
    activity.record(actor, "branch_added", branch.name)
    return branch


def update_branch(actor: User, branch_id: object, changes: dict) -> Branch:
    """Change the name, address or phone named in `changes` (an empty address or phone clears it)."""
    branch = branch_of_shop(actor.shop_id, branch_id)
    if "name" in changes:
        branch.name = _text(changes["name"], NAME_LENGTH, required=True)
    if "address" in changes:
        branch.address = _text(changes["address"], ADDRESS_LENGTH, required=False)
    if "phone" in changes:
        branch.phone = _text(changes["phone"], PHONE_LENGTH, required=False)
    db.session.flush()
    activity.record(actor, "branch_changed", branch.name)
    return branch


def delete_branch(actor: User, branch_id: object, move_to: object = None) -> Branch:
    """Delete a branch that is not the shop's last; its members (and invitations) move to `move_to`, else to the
    shop's first other branch. Returns the branch they moved to."""
    branch = branch_of_shop(actor.shop_id, branch_id)
    others = [other for other in branches_of(actor.shop_id) if other.id != branch.id]
    if not others:
        raise ApiError("last_branch", _("A shop keeps at least one branch: the last one cannot be deleted."), 409)
    target = others[0] if move_to is None else branch_of_shop(actor.shop_id, move_to)
    if target.id == branch.id:
        raise ApiError("same_branch", _("Choose another branch for its members."), 400)
    db.session.execute(sa.update(User).where(User.branch_id == branch.id).values(branch_id=target.id))
    db.session.execute(
        sa.update(ShopInvitation).where(ShopInvitation.branch_id == branch.id).values(branch_id=target.id)
    )
    activity.record(
        actor, "branch_deleted", _("%(branch)s (members moved to %(target)s)", branch=branch.name, target=target.name)
    )
    db.session.delete(branch)
    db.session.flush()
    return target


def choose_branch(user: User, branch_id: object) -> Branch:
    """The branch `user` works in from now on (remembered on the user)."""
    branch = branch_of_shop(user.shop_id, branch_id)
    user.branch_id = branch.id
    db.session.flush()
    return branch
