"""The way from a VIN no catalog covers into browsing (a link to /browse, no import of the browse domain): its make
(from the WMI) and, where the VIN tells it reliably, its model year."""

from __future__ import annotations

from datetime import UTC, datetime

from flask import url_for
from vininfo import Vin
from vininfo.exceptions import ValidationError

from app.sources import wmi

YEARS_BACK = 30  # the 10th character's year code repeats every 30 years


def browse_make(vin: str) -> dict[str, str] | None:
    """{"make", "url"} of the VIN's make on /browse (with `year` when the VIN gives exactly one recent model year)."""
    info = wmi.identify(vin or "")
    if info is None:
        return None
    year = model_year(vin)
    return {"make": info.brand, "url": url_for("browse_views.makes", make=info.brand_slug, year=year)}


def model_year(vin: str) -> int | None:
    """The model year from the 10th character when only one of the years it can stand for is recent (a code names
    a year every 30 years: 'H' is 1987 or 2017, and a 1987 car is rare at a counter); None otherwise."""
    try:
        candidates = Vin(vin.strip().upper()).years
    except (ValidationError, ValueError, KeyError):
        return None
    now = datetime.now(UTC).year
    recent = [year for year in candidates if now - YEARS_BACK <= year <= now + 1]
    return recent[0] if len(recent) == 1 else None
