"""The teaser counts: how big a VIN's catalog is, shown to a visitor before signing up (the stored catalog's real
size from TEASER_PARTS_THRESHOLD parts up, stable placeholders below)."""

from __future__ import annotations

import hashlib
from typing import Any

import sqlalchemy as sa

from app.catalog.store import counts
from app.extensions import db
from app.vehicles.answers import normalize_vin
from app.vehicles.models import Vehicle

TEASER_PARTS_THRESHOLD = 1000
# Placeholder ranges (inclusive) of the spec's teaser rule.
CATEGORY_RANGE = (15, 30)
PART_RANGE = (9000, 11000)
PICTURE_RANGE = (80, 200)


def teaser_stats(raw_vin: Any) -> dict[str, int]:
    """The catalog's size for a VIN: real counts from 1000 stored parts up, stable placeholders below."""
    vin = normalize_vin(raw_vin)
    stored = stored_counts(vin)
    if stored is not None and stored[1] >= TEASER_PARTS_THRESHOLD:
        categories, parts, pictures = stored
    else:
        categories, parts, pictures = placeholder_counts(vin)
    return {"categories": categories, "parts": parts, "schemaPictures": pictures}


def stored_counts(vin: str) -> tuple[int, int, int] | None:
    """The VIN's confirmed vehicle's (categories, parts, schema pictures), or None when none is stored for the VIN (a
    candidate a dealer chose is not the VIN's for everyone)."""
    vehicle_id = db.session.scalar(sa.select(Vehicle.id).where(Vehicle.vin == vin, Vehicle.candidate_key == ""))
    return counts(vehicle_id) if vehicle_id is not None else None


def placeholder_counts(vin: str) -> tuple[int, int, int]:
    """Counts seeded from the VIN's SHA-256 (not hash(), which changes per process): the same VIN, the same numbers."""
    digest = hashlib.sha256(vin.encode()).digest()

    def pick(offset: int, bounds: tuple[int, int]) -> int:
        low, high = bounds
        return low + int.from_bytes(digest[offset : offset + 4], "big") % (high - low + 1)

    return pick(0, CATEGORY_RANGE), pick(4, PART_RANGE), pick(8, PICTURE_RANGE)
