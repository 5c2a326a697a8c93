"""Shops with staff, made straight in their tables (the branch and member pages have their own tests): a branch with
its details, a member of a given role working in a given branch, and a staffed shop for the founder's views (an owner
in the main branch, a manager and a clerk in a second one)."""

from __future__ import annotations

from dataclasses import dataclass

from app.accounts import services as accounts
from app.accounts.models import User
from app.extensions import db
from app.shops.models import Branch
from tests.conftest import PASSWORD
from tests.support.payments import sign_in_client


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


@dataclass
class StaffedShop:
    owner: User
    manager: User
    clerk: User
    second_branch: Branch


def staffed_shop(create_user, name: str = "Kadıköy Oto", domain: str = "kadikoy.example") -> StaffedShop:
    """An owner named `name` (their one-person shop grows), a branch "Ümraniye" and two members working there."""
    owner = create_user(name=name, email=f"owner@{domain}")
    branch = Branch(shop_id=owner.shop_id, name="Ümraniye", address="Alemdağ Cd. 5", phone="0216 000 00 00")
    db.session.add(branch)
    db.session.flush()
    staff = []
    for role in ("manager", "clerk"):
        member = accounts.create_user(email=f"{role}@{domain}", name=f"{name} {role}", password=PASSWORD,
                                      email_verified=True, shop_id=owner.shop_id, shop_role=role)  # fmt: skip
        member.branch_id = branch.id
        staff.append(member)
    db.session.commit()
    return StaffedShop(owner, *staff, branch)


def signed_in_colleague(app, create_user, owner, role: str, branch: Branch | None = None):
    """A member of `owner`'s shop (as `colleague` makes one), signed in on a client of his own: (member, client). The
    plan he works under is the shop's, not one of his own."""
    member = colleague(create_user, owner, role, branch)
    client = app.test_client()
    sign_in_client(client, member.email)
    return member, client
