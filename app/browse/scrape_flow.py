"""Browsing the web catalog (scrape, the legacy HTML-page architecture) without a VIN: brand -> vehicle -> group ->
parts, and its variant selectors: body, engine, gearbox and model year chosen one at a time (the wizard), each choice
narrowing the variants; and the wizard's vehicles looked up by a model name.

The model lookup matches in three tiers and stops at the first that finds anything: the exact name (Turkish case and
accents folded), then names that start with the query, then fuzzy matches (rapidfuzz's WRatio of at least
FUZZY_THRESHOLD, best first), so "golf" finds "Golf", "gol" finds "Golf VII" and "glof" still finds the Golf.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask_babel import gettext as _
from rapidfuzz import fuzz, process, utils

from app.accounts.models import User
from app.browse.upstream import (
    checked_id,
    drawing_view,
    ensure_brand_named,
    names,
    not_found_upstream,
    scrape,
    upstream,
)
from app.core.errors import ApiError
from app.core.text import fold
from app.sources.scrape import WIZARD_STEPS
from app.sources.scrape_types import VehicleInfo, WizardMatch, WizardPage

FUZZY_THRESHOLD = 70  # one wrong letter in a four-letter name ("klio") scores 75; unrelated names stay below 60
MODEL_QUERY_MAX = 60
OPTION_MAX = 100


def brands() -> list[dict[str, Any]]:
    with upstream("scrape brands"):
        found = scrape().brands()
    return [{"id": item.id, "name": item.name} for item in found]


def vehicles(brand: str) -> dict[str, Any]:
    brand = checked_id(brand, "brand")
    with upstream("scrape vehicles"):
        found = scrape().vehicles(brand)
    return {"brand": brand, "vehicles": [vehicle_view(item) for item in found]}


def vehicle_view(vehicle: VehicleInfo) -> dict[str, Any]:
    return {
        "catalogCode": vehicle.catalog_code,
        "brand": vehicle.brand,
        "model": vehicle.model,
        "name": vehicle.name,
        "year": vehicle.year,
        "engine": vehicle.engine,
        "parameters": vehicle.parameters,
    }


def wizard(brand: str, chosen: Mapping[str, str], step: str | None = None) -> dict[str, Any]:
    """The options of `step` (default: the first one not chosen) among the variants the chosen options leave."""
    brand = checked_id(brand, "brand")
    if step is not None and step not in WIZARD_STEPS:
        raise ApiError("invalid_step", _("Choose one of: %(steps)s.", steps=", ".join(WIZARD_STEPS)), 400)
    with upstream("scrape wizard"):
        page = scrape().wizard(brand, _choices(chosen), step)
    return wizard_view(page)


def wizard_view(page: WizardPage) -> dict[str, Any]:
    return {
        "brand": page.brand,
        "step": page.step,
        "steps": list(WIZARD_STEPS),
        "options": list(page.options),
        "selected": page.selected,
        "variantCount": len(page.matches),
        "variants": [match_view(match) for match in page.matches],
    }


def match_view(match: WizardMatch) -> dict[str, Any]:
    return {
        "catalogCode": match.catalog_code,
        "carId": match.car_id,
        "name": match.name,
        "year": match.year,
        "engine": match.engine,
    }


def wizard_vehicles(brand: str, model: str, chosen: Mapping[str, str]) -> dict[str, Any]:
    """The variants the chosen options leave whose model matches `model`: exact, else prefix, else fuzzy."""
    query = " ".join((model or "").split())
    if not query or len(query) > MODEL_QUERY_MAX:
        raise ApiError("invalid_model", _("Type a model name of at most %(max)d characters.", max=MODEL_QUERY_MAX), 400)
    found = wizard(brand, chosen)
    with upstream("scrape vehicles"):
        models = {item.catalog_code: item.model for item in scrape().vehicles(found["brand"])}
    variants = [{**item, "model": models.get(item["catalogCode"], "")} for item in found["variants"]]
    tier, matches = match_model(query, variants)
    return {"brand": found["brand"], "model": query, "matchTier": tier, "vehicles": matches}


def match_model(query: str, variants: list[dict[str, Any]]) -> tuple[str, list[dict[str, Any]]]:
    """The first tier that finds anything: the model's exact name, a name that starts with the query, fuzzy."""
    wanted = fold(query)
    exact = [item for item in variants if wanted in (fold(item["model"]), fold(item["name"]))]
    if exact:
        return "exact", exact
    prefix = [
        item for item in variants if fold(item["model"]).startswith(wanted) or fold(item["name"]).startswith(wanted)
    ]
    if prefix:
        return "prefix", prefix
    choices = {index: fold(item["model"] or item["name"]) for index, item in enumerate(variants)}
    scored = process.extract(
        wanted, choices, scorer=fuzz.WRatio, processor=utils.default_process, score_cutoff=FUZZY_THRESHOLD, limit=None
    )
    if scored:
        return "fuzzy", [variants[index] for _choice, _score, index in scored]
    return "none", []


def groups(user: User, brand: str, code: str) -> dict[str, Any]:
    """The vehicle's groups (brand-bound)."""
    vehicle = guarded_vehicle(user, brand, code)
    with upstream("scrape groups"):
        found = scrape().groups(vehicle.catalog_code)
    return {
        "vehicle": vehicle_view(vehicle),
        "groups": [
            {"id": item.id, **names(item.name), "category": names(item.category)["name"] if item.category else None}
            for item in found
        ],
    }


def parts(user: User, brand: str, code: str, group_id: str) -> dict[str, Any]:
    """A group's parts with its schema picture and hotspots (brand-bound)."""
    vehicle = guarded_vehicle(user, brand, code)
    group_id = checked_id(group_id, "group")
    with upstream("scrape parts"):
        sheet = scrape().parts_sheet(vehicle.catalog_code, group_id)
    picture = sheet.picture
    return {
        "vehicle": vehicle_view(vehicle),
        "groupId": group_id,
        "image": None if picture is None else {"url": picture.url, "width": picture.width, "height": picture.height},
        **drawing_view(picture.hotspots if picture else (), sheet.parts),
    }


def guarded_vehicle(user: User, brand: str, code: str) -> VehicleInfo:
    """The vehicle of a catalog code, from its brand's list."""
    brand, code = checked_id(brand, "brand"), checked_id(code, "vehicle")
    with upstream("scrape vehicle"):
        found = scrape().vehicles(brand)
    vehicle = next((item for item in found if item.catalog_code.casefold() == code.casefold()), None)
    if vehicle is None:
        raise not_found_upstream()
    ensure_brand_named(user, vehicle.brand)
    return vehicle


def _choices(chosen: Mapping[str, str]) -> dict[str, str]:
    choices = {}
    for step in WIZARD_STEPS:
        value = " ".join(str(chosen.get(step) or "").split())
        if len(value) > OPTION_MAX:
            raise ApiError("invalid_option", _("An option can be at most %(max)d characters.", max=OPTION_MAX), 400)
        if value:
            choices[step] = value
    return choices
