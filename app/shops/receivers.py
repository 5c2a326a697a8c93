"""What the shops domain does when a lower domain tells it something."""

from __future__ import annotations

from typing import Any

from app.accounts.models import User
from app.accounts.signals import user_created, user_deleted, user_deleting
from app.shops.closing import close_if_empty, ensure_an_owner_stays
from app.shops.services import create_one_person_shop


@user_created.connect
def _give_a_shop(_sender: Any, user: User, **_kwargs: Any) -> None:
    if user.shop_id is None:
        create_one_person_shop(user)


@user_deleting.connect
def _keep_an_owner(_sender: Any, user: User, **_kwargs: Any) -> None:
    ensure_an_owner_stays(user)


@user_deleted.connect
def _close_an_empty_shop(_sender: Any, shop_id: Any, **_kwargs: Any) -> None:
    close_if_empty(shop_id)
