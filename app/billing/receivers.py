"""What billing does when a lower domain tells it something: a shop with a paid plan that still has time left is not
deleted by its owner (the money paid for that time would be lost with it); a trial ends with the shop."""

from __future__ import annotations

import uuid
from typing import Any

from flask_babel import format_date
from flask_babel import gettext as _

from app.billing.subscriptions import transitions
from app.billing.subscriptions.queries import live_shop_subscription
from app.core.errors import ApiError
from app.shops.closing import shop_closing


@shop_closing.connect
def _keep_a_paid_plan(_sender: Any, shop_id: uuid.UUID, **_kwargs: Any) -> None:
    subscription = live_shop_subscription(shop_id)
    if subscription is None:
        return
    if subscription.status == "active":
        raise ApiError(
            "paid_plan_running",
            _(
                "Your shop's paid plan runs until %(date)s. The shop can be deleted after that date; write to us if "
                "it must go sooner.",
                date=format_date(subscription.end_date, "long"),
            ),
            409,
        )
    transitions.cancel(subscription)
