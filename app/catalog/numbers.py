"""Any number looked up (an OEM number, an aftermarket or a supplier's code, an EAN, the shop's own code): its group of
equivalents as the shop sees it, what of each of the group's numbers is on the shop's shelf and offered by its
suppliers, the vehicles and drawings carrying the number (where-used, the shelf's own codes followed), and how many
stored vehicles carry each of its equivalents.

Bounded work whatever the graph: the group's walk is bounded (app.equivalents.groups), and the rest reads the
group's numbers at once: one statement for the shelf, a few for the offers, one for the vehicle counts, where-used's
for the number itself.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from app.accounts.models import User
from app.catalog.models import Part
from app.catalog.on_offer import offers_of_codes
from app.catalog.where_used import services as where_used
from app.equivalents.groups import group_of
from app.equivalents.presenters import group_view
from app.extensions import db
from app.shelf import lookup as shelf_lookup

WHERE_USED_LIMIT = 20


def lookup(user: User, number: str) -> dict[str, Any]:
    """The number's group, shelf rows, offers, where-used and its equivalents' vehicle counts (`number` checked by the
    caller: app.equivalents.services.checked_number)."""
    group = group_of(number, user.shop_id)
    keys = [group.key, *(member.key for member in group.members)]
    shelf = shelf_lookup.views_for_keys({key: key.upper() for key in keys}, shelf_lookup.active_list(user.id))
    carried_by = _vehicle_counts(keys)
    used_key, used = _where_used(user, group.key, carried_by)
    return {
        "number": group.key.upper(),
        "group": group_view(group),
        "shelf": [{"key": key, "row": shelf[key]} for key in keys if key in shelf],
        "offers": offers_of_codes(user, set(keys), listed=None),
        "whereUsedNumber": used_key.upper(),
        "whereUsed": used,
        "carriedBy": carried_by,
    }


def _where_used(user: User, key: str, carried_by: list[dict[str, Any]]) -> tuple[str, dict[str, Any]]:
    """Where the number is used (its shelf rows' OEM numbers followed); for a number no stored row carries (an
    aftermarket code), where the first of its equivalents that vehicles carry is used."""
    used = where_used.find(user, key, WHERE_USED_LIMIT, via_shelf=True, priced=False)
    if used["vehicleCount"] or not carried_by:
        return key, used
    other = carried_by[0]["key"]
    return other, where_used.find(user, other, WHERE_USED_LIMIT, priced=False)


def _vehicle_counts(keys: list[str]) -> list[dict[str, Any]]:
    """How many stored vehicles carry each of the numbers (the part code index: search_code, vehicle_id)."""
    counts = dict(db.session.connection().execute(_VEHICLE_COUNTS, {"keys": keys}).all())
    return [{"key": key, "vehicles": counts[key]} for key in keys if counts.get(key)]


_VEHICLE_COUNTS = (
    sa.select(Part.search_code, sa.func.count(sa.distinct(Part.vehicle_id)))
    .where(Part.search_code.in_(sa.bindparam("keys", expanding=True)))
    .group_by(Part.search_code)
)
