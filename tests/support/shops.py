"""Branches and colleagues of a shop, made straight in their tables (the branch and member pages have their own
tests): a branch with its details, and a member of a given role working in a given branch."""

from __future__ import annotations

from app.extensions import db
from app.shops.models import Branch


def add_branch(shop_id, name: str, address: str | None = None, phone: str | None = None) -> Branch:
    branch = Branch(shop_id=shop_id, name=name, address=address, phone=phone)
    db.session.add(branch)
    db.session.commit()
    return branch


def rename_branch(branch_id: int, name: str, address: str | None = None, phone: str | None = None) -> Branch:
    branch = db.session.get(Branch, branch_id)
    branch.name, branch.address, branch.phone = name, address, phone
    db.session.commit()
    return branch


def colleague(create_user, owner, role: str, branch: Branch | None = None, **fields):
    """A member of `owner`'s shop with `role`, working in `branch` (the owner's when None)."""
    return create_user(
        shop_id=owner.shop_id, shop_role=role, branch_id=branch.id if branch else owner.branch_id, **fields
    )
