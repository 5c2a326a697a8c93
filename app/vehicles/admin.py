"""Founder actions on shared vehicles: clearing a VIN's resolve cache and hard-deleting a decoded vehicle."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from functools import partial

import sqlalchemy as sa
from flask_babel import gettext as _

from app.core.after_commit import after_commit
from app.core.errors import ApiError
from app.extensions import db, redis_store
from app.vehicles import preview
from app.vehicles.cache import ResolveCache
from app.vehicles.models import UserVehicle, Vehicle

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class DeletedVehicle:
    vehicle_id: int
    brand_name: str
    model: str
    source: str
    cascaded_user_links: int


def clear_cache(vin: str) -> tuple[list[str], int]:
    """Delete the VIN's positive, negative and lock keys; returns the keys that existed and how many were checked."""
    return ResolveCache(redis_store.client).clear(vin)


def delete_vehicle(vin: str) -> DeletedVehicle:
    """Hard-delete the VIN's shared vehicles (the confirmed one and every chosen candidate) and every user's link and
    pick of them; query logs stay (they hold the VIN only). The answer names the confirmed vehicle, else the first.

    The cache keys are cleared after the commit: cleared earlier, a decode running meanwhile could find the
    not-yet-deleted row and cache it again for 24 hours.
    """
    vehicles = list(
        db.session.scalars(sa.select(Vehicle).where(Vehicle.vin == vin).order_by(Vehicle.candidate_key, Vehicle.id))
    )
    if not vehicles:
        raise ApiError("vehicle_not_found", _("No vehicle with this VIN was found."), 404)
    links = db.session.scalar(
        sa.select(sa.func.count())
        .select_from(UserVehicle)
        .where(UserVehicle.vehicle_id.in_([vehicle.id for vehicle in vehicles]))
    )
    named = vehicles[0]
    deleted = DeletedVehicle(named.id, named.brand_name, named.model, named.source, int(links or 0))
    # The database cascades the user links and picks (and later the catalog rows) from the vehicle rows.
    for vehicle in vehicles:
        db.session.delete(vehicle)
    db.session.flush()
    after_commit(partial(_clear_deleted, vin))
    return deleted


def _clear_deleted(vin: str) -> None:
    try:
        clear_cache(vin)
        redis_store.client.delete(preview.cache_key(vin))  # the public preview must not outlive the vehicle
    except Exception:  # the delete stands; the founder can clear the cache again
        log.exception("vehicle %s deleted but its cache keys could not be cleared", vin)
