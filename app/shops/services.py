"""Making shops and their branches, and reading a shop."""

from __future__ import annotations

import uuid

from flask_babel import gettext as _

from app.accounts.models import User
from app.extensions import db
from app.shops.models import Branch, Shop


def create_one_person_shop(user: User) -> Shop:
    """The shop a new person owns, with its first branch, the one they work in."""
    shop = Shop(name=user.name)
    db.session.add(shop)
    db.session.flush()
    branch = Branch(shop_id=shop.id, name=_("Main branch"))
    db.session.add(branch)
    db.session.flush()
    user.shop_id, user.shop_role, user.branch_id = shop.id, "owner", branch.id
    return shop


def shop_name(shop_id: uuid.UUID) -> str:
    """The shop's name, empty for a shop that is gone."""
    shop = db.session.get(Shop, shop_id)
    return shop.name if shop is not None else ""
