"""Reference rows ("bk. tablo: 109-010"): the picture a row points to, found on demand when it is not stored yet.

A reference is looked up in the vehicle's illustration index (the {NNN-NNN} codes in stored category names). A picture
not stored yet is found by drilling the upstream through the vehicle's own adapter. In a catalog whose external ids
spell the codes (the portal's and the catalog API's: main group 1, subgroup 109, picture 109-010) only the code's own
branch is drilled, one upstream call when the levels above it are stored, and a code missing there is missing from the
catalog. A catalog that names its groups instead (the web catalog) is drilled level by level, each group not drilled
yet, until the picture turns up, within MAX_DRILLS upstream calls.
"""

from __future__ import annotations

import re
from collections import deque

from flask import current_app
from flask_babel import gettext as _

from app.catalog import services, store
from app.catalog.models import Category
from app.catalog.providers import TreeProvider, provider_for
from app.core.errors import ApiError
from app.vehicles.models import Vehicle

REFERENCE_CODE = re.compile(r"\d{3}-\d{3}")
MAX_DEPTH = 4  # levels of a numbered branch: main group, subgroup, picture, and one to spare
MAX_DRILLS = 30  # upstream calls a named catalog may take to find one picture


def resolve(vehicle: Vehicle, code: str) -> int:
    """The category of the illustration `code` (NNN-NNN) points to. Refused with 404 when the catalog has no such
    picture: the client then searches for the code."""
    if not REFERENCE_CODE.fullmatch(code or ""):
        raise ApiError("invalid_reference", _("A reference code looks like 109-010."), 400)
    found = _indexed(vehicle, code)
    if found is None:
        found = _drilled(vehicle, code)
    if found is None:
        raise ApiError("reference_not_found", _("Illustration %(code)s is not in this catalog.", code=code), 404)
    return found


def _indexed(vehicle: Vehicle, code: str) -> int | None:
    return store.illustration_index(vehicle.id, {code}).get(code)


def _drilled(vehicle: Vehicle, code: str) -> int | None:
    roots = store.roots(vehicle.id)
    if not roots:
        if not services.fetch_roots(vehicle):
            return None
        found = _indexed(vehicle, code)  # a tree copied from the same car stored (app.catalog.bridge) may have it
        if found is not None:
            return found
        roots = store.roots(vehicle.id)
    provider = provider_for(vehicle, current_app.config)
    if any(root.external_id.isdigit() for root in roots):
        return _along_the_numbers(vehicle, provider, roots, code)
    return _level_by_level(vehicle, provider, roots, code)


def _along_the_numbers(vehicle: Vehicle, provider: TreeProvider | None, roots: list[Category], code: str) -> int | None:
    """Down the branch whose external ids start the code's digits."""
    digits, level = code.replace("-", ""), roots
    for _depth in range(MAX_DEPTH):
        branch = next((node for node in level if node.external_id and digits.startswith(node.external_id)), None)
        if branch is None:
            return None
        level = services.load_children(vehicle, branch, provider)
        found = _indexed(vehicle, code)
        if found is not None:
            return found
    return None


def _level_by_level(vehicle: Vehicle, provider: TreeProvider | None, roots: list[Category], code: str) -> int | None:
    """Breadth first through the groups, drilling those never drilled."""
    groups, drills = deque(node for node in roots if not node.is_leaf), 0
    while groups and drills < MAX_DRILLS:
        group = groups.popleft()
        drilled = group.children_fetched_at is None and provider is not None
        children = services.load_children(vehicle, group, provider)
        if drilled:
            drills += 1
            found = _indexed(vehicle, code)
            if found is not None:
                return found
        groups.extend(child for child in children if not child.is_leaf)
    return None
