"""Links to one part of a drawing that outlive re-fetches of the catalog.

Category and part ids are ours and are renumbered when a vehicle's catalog is fetched again, and upstream ids change
between catalog releases; what stays is the way a clerk would say it: this vehicle, this path of group names, this
position and OEM code. A deep link is therefore `/vehicles/<id>/catalog/<group>/<group>/<picture>?pos=..&oem=..`, each
path step a slug of the category's name as the upstream wrote it (the same in every language and dictionary version),
and it is resolved again, step by step, whenever it is opened.
"""

from __future__ import annotations

import re
from typing import Any

from flask_babel import gettext as _

from app.catalog import names, services
from app.catalog.models import Category
from app.core.errors import ApiError
from app.core.text import fold, fold_code
from app.vehicles.models import Vehicle

_NOT_SLUG = re.compile(r"[^0-9a-z]+")
MAX_STEPS = 12  # deeper than any catalog tree: a longer path is not one of ours


def slug(name: str) -> str:
    """A path step: the folded name's letters and digits joined by dashes ("Yağ filtresi {115}" → yag-filtresi-115)."""
    return _NOT_SLUG.sub("-", fold(name)).strip("-") or "-"


def trail(detail: dict[str, Any]) -> str:
    """The path of a category detail (its ancestors, then itself) as URL steps."""
    steps = [*detail["ancestors"], detail["category"]]
    return "/".join(slug(names.upstream_name(step)) for step in steps)


def resolve(vehicle: Vehicle, path: str) -> Category:
    """The category the path names, walked from the roots (loading levels that are not stored yet)."""
    steps = [step for step in path.split("/") if step]
    if not steps or len(steps) > MAX_STEPS:
        raise _not_found()
    level = services.tree(vehicle)["categories"]
    found: Category | None = None
    for depth, step in enumerate(steps):
        if depth:
            level = services.children_of(vehicle, found)["categories"]
        match = next((item for item in level if slug(names.upstream_name(item)) == step), None)
        if match is None:
            raise _not_found()
        found = services.category_in(vehicle, match["id"])
    return found


def part_named(parts: list[dict[str, Any]], position: str, oem_code: str) -> int | None:
    """The id of the part row with that OEM code and position; the code alone, then the position alone, when the
    catalog changed under the link."""
    code, position = fold_code(oem_code), position.strip()
    same_code = [part for part in parts if code and fold_code(part["oemCode"]) == code]
    for candidates in (
        [part for part in same_code if part["position"] == position],
        same_code,
        [part for part in parts if position and part["position"] == position],
    ):
        if candidates:
            return candidates[0]["id"]
    return None


def _not_found() -> ApiError:
    return ApiError(
        "deep_link_not_found",
        _("This link no longer leads to a group of this vehicle's catalog. Open the catalog and search for the part."),
        404,
    )
