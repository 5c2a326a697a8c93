"""A shop closes: its owner deletes it, or its last member deletes their account. The shop's data (branches, lists,
quotes, history, fit answers, activity) goes with it, by the foreign keys' cascades; payments and subscriptions stay
for the books with no shop. Domains above may refuse an owner's deleting through `shop_closing` (billing: a paid plan
with time left); a person deleting their account is never kept by their plan (their data went with it before shops
existed, and still does)."""

from __future__ import annotations

import uuid

import sqlalchemy as sa
from blinker import Namespace
from flask import current_app
from flask_babel import gettext as _

from app.accounts.models import User
from app.auth.sessions import revoke_user_sessions
from app.core.errors import ApiError
from app.extensions import db
from app.shops.models import Shop
from app.shops.services import create_one_person_shop

_signals = Namespace()
# Sent with `shop_id` before a shop closes; a receiver refuses by raising ApiError.
shop_closing = _signals.signal("shop-closing")


def _members(shop_id: uuid.UUID) -> list[User]:
    return list(db.session.scalars(sa.select(User).where(User.shop_id == shop_id)))


def _close(shop_id: uuid.UUID) -> None:
    db.session.execute(sa.delete(Shop).where(Shop.id == shop_id))


def delete_shop(owner: User, confirmation: object) -> None:
    """The owner deletes the shop after typing its name: every member (the owner too) is signed out everywhere and
    left with an empty one-person shop of their own, and the shop's data is deleted."""
    # Locked, and read afresh: a second tab's close waits for the first and finds the shop gone.
    shop = db.session.scalar(sa.select(Shop).where(Shop.id == owner.shop_id).with_for_update())
    if shop is None:
        raise ApiError("shop_closed", _("This shop has already been closed."), 409)
    if not isinstance(confirmation, str) or confirmation.strip().casefold() != shop.name.strip().casefold():
        raise ApiError(
            "confirmation_mismatch", _("Type the shop's name exactly to delete it. Nothing was deleted."), 400
        )
    shop_closing.send(current_app._get_current_object(), shop_id=shop.id)
    for member in _members(shop.id):
        revoke_user_sessions(member.id)
        create_one_person_shop(member)
    db.session.flush()
    _close(shop.id)


def ensure_an_owner_stays(user: User) -> None:
    """Before an account is deleted: the last owner of a shop with other members cannot delete their account (the
    shop would have nobody to run it)."""
    if user.shop_role != "owner" or user.shop_id is None:
        return
    others = [member for member in _members(user.shop_id) if member.id != user.id]
    if others and not any(member.shop_role == "owner" for member in others):
        raise ApiError(
            "last_owner",
            _(
                "You are your shop's last owner and it has other members. Make one of them an owner, or delete the "
                "shop, before deleting your account."
            ),
            409,
        )


def close_if_empty(shop_id: uuid.UUID | None) -> None:
    """After an account is deleted: a shop left with no member closes (a person's one-person shop and its data go
    with their account, as their data went before shops existed)."""
    if shop_id is not None and not _members(shop_id):
        _close(shop_id)
