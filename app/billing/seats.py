"""Seats: how many members a shop's plan lets work, and the checks before seats are bought (the invitation that
would need one more seat is refused by app.shops.invitations, which counts the open invitations too).

A shop with no live subscription has one seat (its owner). The seats in use are the shop's members (users with its
shop_id, whatever their status: a suspended member keeps their seat until removed).
"""

from __future__ import annotations

import uuid
from typing import Any

import sqlalchemy as sa
from flask import url_for
from flask_babel import gettext as _

from app.accounts.models import User
from app.billing.models import Payment, Plan, Subscription
from app.billing.subscriptions.queries import live_shop_subscription
from app.core.errors import ApiError
from app.extensions import db
from app.shops.holdings import paid_history_check

FREE_SEATS = 1  # a shop without a plan: its owner
MAX_SEATS = 100
ADD_SEAT_ENDPOINT = "billing_pages.subscription"
ADD_SEAT_ANCHOR = "seats"


def seat_limit(shop_id: uuid.UUID) -> int:
    """How many members the shop may have now: its live subscription's seats, else one."""
    subscription = live_shop_subscription(shop_id)
    return subscription.seats if subscription is not None else FREE_SEATS


def seats_in_use(shop_id: uuid.UUID) -> int:
    """The shop's members."""
    return db.session.scalar(sa.select(sa.func.count()).select_from(User).where(User.shop_id == shop_id)) or 0


def add_seat_url() -> str:
    return url_for(ADD_SEAT_ENDPOINT, _anchor=ADD_SEAT_ANCHOR)


def seat_count(value: Any) -> int:
    """A seat count from a request: a whole number from 1 to MAX_SEATS."""
    if isinstance(value, bool) or not isinstance(value, int | str) or not str(value).isdigit():
        raise _invalid_seats()
    count = int(value)
    if not 1 <= count <= MAX_SEATS:
        raise _invalid_seats()
    return count


def _invalid_seats() -> ApiError:
    return ApiError("invalid_seats", _("The seat count must be between 1 and %(max)d.", max=MAX_SEATS), 400)


def seats_to_buy(shop_id: uuid.UUID | None, plan: Plan, requested: Any, current: Subscription | None) -> int:
    """The seats a new period of `plan` is bought with: the requested count (by default the shop's current seats),
    never fewer than the plan includes; refused when fewer than the shop's members."""
    if requested is None:
        count = current.seats if current is not None else plan.included_seats
    else:
        count = seat_count(requested)
    count = max(count, plan.included_seats)
    if shop_id is not None:
        ensure_enough_seats(shop_id, count)
    return count


def ensure_enough_seats(shop_id: uuid.UUID, seats: int) -> None:
    """Refuse (409 `seats_in_use`) a seat count below the shop's members."""
    members = seats_in_use(shop_id)
    if seats < members:
        raise ApiError(
            "seats_in_use",
            _(
                "Your shop has %(members)d members; it cannot have fewer seats. Remove a member first.",
                members=members,
            ),
            409,
        )


# A payment that took money, even if refunded since: the shop has a paid history.
PAID_STATUSES = ("completed", "refunded", "partially_refunded", "disputed")


@paid_history_check
def _has_paid(shop_id: uuid.UUID) -> bool:
    """A shop that has ever paid cannot be left behind by a person joining another shop (app.shops.holdings)."""
    paid = sa.select(Payment.id).where(Payment.shop_id == shop_id, Payment.status.in_(PAID_STATUSES)).limit(1)
    return db.session.scalar(paid) is not None
