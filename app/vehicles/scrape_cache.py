"""The web catalog's VIN cache: the cars the scrape source answered for a VIN, kept in the database, so a repeat
VIN skips that (slow, challenge-prone) upstream call and the race takes the stored answer at once.

Only a car or candidates are kept (a miss or a failure may change next time); the internal admin's cache clear and
the vehicle delete leave it, since the web catalog's answer for a VIN does not change.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Mapping

from sqlalchemy.exc import SQLAlchemyError

from app.core.db import begin_writes, insert_for, utcnow
from app.extensions import db
from app.sources.base import Car, LookupResult, Outcome, RetryListener, VinSource, result_from_cars
from app.vehicles.models import ScrapeVinCache
from app.vehicles.race import RaceReport

log = logging.getLogger(__name__)

SOURCE = "scrape"
KEPT = (Outcome.ONE, Outcome.CANDIDATES)


@dataclasses.dataclass(frozen=True)
class StoredAnswer:
    """Stands in for the scrape source in a race: its stored answer for the VIN, without an upstream call."""

    cars: tuple[Car, ...]
    name: str = SOURCE

    def lookup_vin(self, vin: str, on_retry: RetryListener | None = None) -> LookupResult:
        return result_from_cars(SOURCE, list(self.cars))


def with_stored_scrape(vin: str, sources: Mapping[str, VinSource]) -> dict[str, VinSource]:
    """The race's sources, with the scrape source answered from the cache when the VIN is in it."""
    if SOURCE not in sources:
        return dict(sources)
    row = db.session.get(ScrapeVinCache, vin)
    if row is None or not row.cars:
        return dict(sources)
    try:
        cars = tuple(Car(**car) for car in row.cars)
    except TypeError:  # a row written by another version: ask the upstream instead
        return dict(sources)
    return {**sources, SOURCE: StoredAnswer(cars)}


def remember(vin: str, report: RaceReport, sources: Mapping[str, VinSource]) -> None:
    """Keep what the scrape upstream answered in this race (a car or candidates), once per VIN."""
    result = report.results.get(SOURCE)
    if result is None or result.outcome not in KEPT or isinstance(sources.get(SOURCE), StoredAnswer):
        return
    cars = [dataclasses.asdict(car) for car in result.cars]
    try:
        begin_writes(db.session, durable=False)
        db.session.execute(
            insert_for(db.session, ScrapeVinCache)
            .values(vin=vin, cars=cars, created_at=utcnow())
            .on_conflict_do_nothing(index_elements=[ScrapeVinCache.vin])
        )
        db.session.commit()
    except SQLAlchemyError as error:  # a cache: the decode goes on without it
        db.session.rollback()
        log.warning("scrape VIN cache of %s not written: %s", vin, error)
