"""The public VIN preview: what a visitor learns about a VIN before signing up (the teaser counts beside it are the
catalog's, app.catalog.teaser).

The preview asks the portal, then scrape (only when the portal gives no single car), within one time limit. What it
learns is cached in Redis under vin:preview:<VIN> for a day, so a VIN costs at most one upstream round a day. When
neither source has one car, the fields every candidate shares, or else the offline WMI table's brand, say what can
be said; `known` lists the fields the answer fills. No answer ever names a source.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from flask import current_app
from flask_babel import gettext as _

from app.core.errors import ApiError
from app.extensions import db, redis_store
from app.sources import pool as source_pool
from app.sources import wmi
from app.sources.base import Car, LookupResult, Outcome, VinSource
from app.sources.brands import BRANDS
from app.vehicles.answers import normalize_vin
from app.vehicles.breaker import portal_breaker
from app.vehicles.models import Vehicle
from app.vehicles.race import ask_within

log = logging.getLogger(__name__)

TIME_LIMIT_SECONDS = 10.0
CACHE_TTL_SECONDS = 24 * 3600
# An answer given while a source failed or ran out of time is kept only briefly, then the sources are asked again.
DEGRADED_TTL_SECONDS = 5 * 60
FIELDS = ("brand", "model", "year", "engine")

_BRAND_NAMES = {slug: name for name, slug, _wmis in BRANDS}


def cache_key(vin: str) -> str:
    return f"vin:preview:{vin}"


@dataclass(frozen=True)
class Preview:
    """What a preview can say about a VIN; `variants` is how many cars matched (0: only the WMI spoke)."""

    vin: str
    brand: str | None = None
    model: str | None = None
    year: int | None = None
    engine: str | None = None
    variants: int = 0

    @property
    def known(self) -> list[str]:
        return [name for name in FIELDS if getattr(self, name) not in (None, "")]

    def to_dict(self) -> dict[str, Any]:
        return {
            "vin": self.vin,
            "brand": self.brand,
            "model": self.model,
            "year": self.year,
            "engine": self.engine,
            "known": self.known,
            "variants": self.variants,
        }


# --- preview ------------------------------------------------------------------------------------------------------


def preview(raw_vin: Any) -> dict[str, Any]:
    """Say what vehicle a VIN names (brand, model, year, engine, as far as known); refuse a bad or unknown VIN."""
    vin = normalize_vin(raw_vin)
    key = cache_key(vin)
    cached = redis_store.optional("preview cache read", lambda client: client.get(key), None)
    if cached is not None:
        answer = json.loads(cached)
    else:
        found, degraded = _look_up(vin)
        if not found.known and degraded:
            # Nothing known because a source could not answer: say so, and remember nothing.
            raise ApiError(
                "preview_unavailable", _("The vehicle could not be looked up right now. Please try again shortly."), 503
            )
        answer = found.to_dict()
        ttl = DEGRADED_TTL_SECONDS if degraded else CACHE_TTL_SECONDS
        redis_store.optional("preview cache write", lambda client: client.set(key, json.dumps(answer), ex=ttl), None)
    if not answer["known"]:
        raise ApiError(
            "vin_not_recognised", _("This VIN was not recognised, or its brand is not supported. Check the VIN."), 404
        )
    return answer


def _look_up(vin: str) -> tuple[Preview, bool]:
    """The VIN's confirmed vehicle, else the portal then scrape, else the WMI table; and whether a failed source leaves
    the answer short of one car (such an answer is kept only briefly)."""
    stored = db.session.scalar(sa.select(Vehicle).where(Vehicle.vin == vin, Vehicle.candidate_key == ""))
    if stored is not None:
        return Preview(vin, stored.brand_name, stored.model, stored.year, stored.engine, variants=1), False
    config = current_app.config
    sources = source_pool.catalog_sources(config)
    deadline = time.monotonic() + TIME_LIMIT_SECONDS
    results: list[LookupResult] = []
    portal = _ask_portal(vin, sources, config, deadline)
    if portal is not None:
        results.append(portal)
    if portal is None or portal.outcome is not Outcome.ONE:
        scrape = sources.get("scrape")
        if scrape is not None:
            results.append(_ask(scrape, vin, deadline))
    for result in results:
        if result.outcome is Outcome.ONE:
            return summarize(vin, result.cars), False  # one car is a full answer, whatever else failed
    degraded = any(result.outcome is Outcome.FAILURE for result in results)
    summaries = [summarize(vin, result.cars) for result in results if result.outcome is Outcome.CANDIDATES]
    best = max(summaries, key=lambda summary: len(summary.known), default=None)
    if best is not None and best.known:
        return best, degraded
    info = wmi.identify(vin)
    return Preview(vin, brand=brand_name(info.brand) if info else None), degraded


def _ask_portal(
    vin: str, sources: Mapping[str, VinSource], config: Mapping[str, Any], deadline: float
) -> LookupResult | None:
    """The portal's answer, subject to its WMI routing and circuit breaker; None when the VIN is not its to answer."""
    source = sources.get("portal")
    info = wmi.identify(vin)
    if source is None or info is None or not info.routed_to_portal(source_pool.suspended_makes(config)):
        return None
    breaker = portal_breaker()
    if breaker.is_open():
        return LookupResult(source.name, Outcome.FAILURE, error="circuit open")
    result = _ask(source, vin, deadline)
    if result.outcome is Outcome.FAILURE:
        breaker.record_failure()
    else:
        breaker.record_success()
    return result


def _ask(source: VinSource, vin: str, deadline: float) -> LookupResult:
    """A source's answer within the preview's time limit; running out of time counts as a failure."""
    result = ask_within(source, vin, deadline) if time.monotonic() < deadline else None
    if result is None:
        log.warning("preview: %s did not answer in time for %s", source.name, vin)
        return LookupResult(source.name, Outcome.FAILURE, error="time limit")
    return result


def summarize(vin: str, cars: Sequence[Car]) -> Preview:
    """One car as it is; several cars as the fields they all share (brand and model, usually), the rest left empty."""

    def shared(values: list[Any]) -> Any:
        first = values[0] if values else None
        if first in (None, ""):
            return None
        same = all(str(value).casefold() == str(first).casefold() for value in values)
        return first if same else None

    if not cars:
        return Preview(vin)
    brand = shared([car.brand for car in cars])
    return Preview(
        vin,
        brand=brand_name(brand) if brand else None,
        model=shared([car.model for car in cars]),
        year=shared([car.year for car in cars]),
        engine=shared([car.engine for car in cars]),
        variants=len(cars),
    )


def brand_name(name: str) -> str:
    """Our spelling of a brand ('VOLKSWAGEN', 'Citroen' -> 'Volkswagen', 'Citroën'); an unknown brand stays as is."""
    return _BRAND_NAMES.get(wmi.slugify(name), name.strip())
