"""The public demo: one stored vehicle's catalog for visitors without an account, read-only.

Everything here reads stored rows (`app.catalog.store`) and never asks an upstream: a demo category whose children or
parts were never stored is simply empty. The answers have the signed-in catalog's shapes (`app.catalog.services`), so
one front end renders both; `loadError` is always false, since nothing is ever loaded.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from flask import current_app
from flask_babel import gettext as _

from app.catalog import store
from app.catalog.models import Category

# The signed-in catalog's view helpers; each reads stored rows and storage URLs only, never an upstream.
from app.catalog.services import category_view, children_view, detail_view
from app.core.errors import ApiError
from app.extensions import db
from app.vehicles.models import Vehicle

WMI_LENGTH = 3
VIN_MASK = "*"


def demo_vehicle() -> Vehicle:
    """The demo vehicle: DEMO_VEHICLE_ID when set, else the stored vehicle of DEMO_VIN; 404 when there is none."""
    config = current_app.config
    vehicle_id, vin = config.get("DEMO_VEHICLE_ID"), config.get("DEMO_VIN") or ""
    vehicle = None
    if vehicle_id not in (None, ""):
        vehicle = db.session.get(Vehicle, _as_id(vehicle_id))
    elif vin:
        vehicle = db.session.scalar(sa.select(Vehicle).where(Vehicle.vin == vin))
    if vehicle is None:
        raise ApiError("demo_unavailable", _("The demo is not available right now. Please try again later."), 404)
    return vehicle


def demo_category(vehicle: Vehicle, category_id: int) -> Category:
    """The category, only if it is the demo vehicle's: the one check every demo category id passes before any read."""
    category = db.session.scalar(
        sa.select(Category).where(Category.id == category_id, Category.vehicle_id == vehicle.id)
    )
    if category is None:
        raise ApiError("category_not_found", _("No such category was found for this vehicle."), 404)
    return category


def vehicle_summary(vehicle: Vehicle) -> dict[str, Any]:
    """What the demo shows of its vehicle: make, model, year and engine, the VIN masked past its WMI, and the size
    of the stored catalog."""
    categories, parts, pictures = store.counts(vehicle.id)
    return {
        "id": vehicle.id,
        "brandName": vehicle.brand_name,
        "model": vehicle.model,
        "year": vehicle.year,
        "engine": vehicle.engine,
        "vin": mask_vin(vehicle.vin),
        "counts": {"categories": categories, "parts": parts, "schemaPictures": pictures},
    }


def mask_vin(vin: str) -> str:
    """The WMI (maker and plant region), the rest masked: a real car's serial never goes out on a public page."""
    return vin[:WMI_LENGTH] + VIN_MASK * max(len(vin) - WMI_LENGTH, 0)


def tree(vehicle: Vehicle) -> dict[str, Any]:
    """The stored root categories (empty while the tree is not stored yet)."""
    return {"categories": [category_view(category) for category in store.roots(vehicle.id)], "loadError": False}


def category_detail(vehicle: Vehicle, category: Category) -> dict[str, Any]:
    """The signed-in detail's shape from stored rows: children or parts, the schema with hotspots, the ancestors."""
    children = [] if category.is_leaf else store.children(category.id)
    parts = store.parts(category.id) if category.is_leaf else []
    return detail_view(vehicle, category, children, parts, load_error=False)


def children_of(category: Category) -> dict[str, Any]:
    return {"categories": children_view(store.children(category.id)), "loadError": False}


def _as_id(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0  # no row has id 0: a malformed setting reads as a demo that points nowhere
