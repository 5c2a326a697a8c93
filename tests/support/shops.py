"""A shop with staff for the founder's views: an owner in the main branch, a manager and a clerk in a second one."""

from __future__ import annotations

from dataclasses import dataclass

from app.accounts import services as accounts
from app.accounts.models import User
from app.extensions import db
from app.shops.models import Branch
from tests.conftest import PASSWORD


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
