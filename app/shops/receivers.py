"""What the shops domain does when a lower domain tells it something."""

from __future__ import annotations

from typing import Any

from app.accounts.models import User
from app.accounts.signals import user_created
from app.shops.services import create_one_person_shop


@user_created.connect
def _give_a_shop(_sender: Any, user: User, **_kwargs: Any) -> None:
    if user.shop_id is None:
        create_one_person_shop(user)
