"""A seat change on the shop's paid subscription: fewer seats at once (never below its members, no money back for
the current period), more seats through the card checkout at their prorated price, added when it is paid."""

from __future__ import annotations

import math
from datetime import datetime
from typing import Any

from flask_babel import gettext as _

from app.accounts.models import User
from app.billing import payments
from app.billing.models import Subscription
from app.billing.seats import add_seat_url, ensure_enough_seats, seat_count, seat_limit, seats_in_use
from app.billing.subscriptions.queries import live_subscription
from app.billing.subscriptions.transitions import PERIOD_LENGTHS
from app.core.db import utcnow
from app.core.errors import ApiError
from app.extensions import db


def change_seats(user: User, requested: Any) -> tuple[Subscription, str | None]:
    """Set the seats of the shop's active subscription to `requested`; return it and, when seats are added, the
    checkout address where they are paid (None when nothing is to pay)."""
    count = seat_count(requested)
    subscription = live_subscription(user)
    if subscription is None or subscription.status != "active":
        raise ApiError("no_active_subscription", _("Seats can be changed on a paid, active plan."), 409)
    if count == subscription.seats:
        raise ApiError("same_seats", _("Your plan already has this many seats."), 409)
    if count < subscription.plan.included_seats:
        raise ApiError(
            "seats_included",
            _("Your plan includes %(seats)d seats; it cannot have fewer.", seats=subscription.plan.included_seats),
            409,
        )
    ensure_enough_seats(subscription.shop_id, count)
    if count < subscription.seats:
        subscription.seats = count
        db.session.flush()
        return subscription, None
    added = count - subscription.seats
    per_seat = prorated_seat_price(subscription, utcnow())
    if per_seat == 0:
        subscription.seats = count
        db.session.flush()
        return subscription, None
    return subscription, payments.start_seat_checkout(user, subscription, count, per_seat * added)


def prorated_seat_price(subscription: Subscription, now: datetime) -> int:
    """One extra seat for what is left of the period: the seat's period price times the share of a period left
    (never more than one period), rounded up to the kuruş."""
    period = (now + PERIOD_LENGTHS[subscription.billing_period]) - now
    left = max(subscription.end_date - now, period * 0)
    share = min(left / period, 1.0)
    return math.ceil(subscription.plan.seat_price(subscription.billing_period) * share)


def seat_overview(user: User) -> dict[str, Any]:
    """The shop's seats for its members: how many, in use, included, and one more for the rest of the period."""
    subscription = live_subscription(user)
    paid = subscription is not None and subscription.status == "active"
    return {
        "seats": seat_limit(user.shop_id),
        "inUse": seats_in_use(user.shop_id),
        "included": subscription.plan.included_seats if subscription else None,
        "seatPrice": prorated_seat_price(subscription, utcnow()) if paid else None,
        "addSeatUrl": add_seat_url(),
    }
