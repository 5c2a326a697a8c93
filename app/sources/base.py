"""The one small interface every upstream catalog source meets, so the decode engine can race them.

A lookup ends in exactly one of four outcomes: one car, several candidate cars, no car, or a failure (timeout,
5xx, unreadable page). Candidates from every source share the `Car` shape.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol


class Outcome(StrEnum):
    ONE = "one"
    CANDIDATES = "candidates"
    NONE = "none"
    FAILURE = "failure"


@dataclass(frozen=True)
class Car:
    """A vehicle as a source identifies it; `raw` keeps source-specific data (catalog code, session, options)."""

    source: str
    brand: str
    model: str
    car_id: str | None = None
    catalog_id: str | None = None
    year: int | None = None
    engine: str | None = None
    criteria: str | None = None
    parameters: dict[str, str] = field(default_factory=dict)
    raw: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class LookupResult:
    source: str
    outcome: Outcome
    cars: tuple[Car, ...] = ()
    error: str | None = None
    elapsed_ms: int = 0

    @property
    def car(self) -> Car | None:
        return self.cars[0] if self.outcome is Outcome.ONE else None


def result_from_cars(source: str, cars: list[Car], elapsed_ms: int = 0) -> LookupResult:
    if not cars:
        return LookupResult(source, Outcome.NONE, elapsed_ms=elapsed_ms)
    outcome = Outcome.ONE if len(cars) == 1 else Outcome.CANDIDATES
    return LookupResult(source, outcome, tuple(cars), elapsed_ms=elapsed_ms)


def timed(source: str, lookup: Callable[[], list[Car]], failures: tuple[type[Exception], ...]) -> LookupResult:
    """Run `lookup`, classify what it gave, and turn the expected failures into a FAILURE outcome."""
    started = time.monotonic()
    try:
        cars = lookup()
    except failures as error:
        elapsed = int((time.monotonic() - started) * 1000)
        return LookupResult(source, Outcome.FAILURE, error=f"{type(error).__name__}: {error}"[:300], elapsed_ms=elapsed)
    return result_from_cars(source, cars, int((time.monotonic() - started) * 1000))


# Told, with the reason, each time an attempt failed and the source tries again (the race lets others join then).
RetryListener = Callable[[str], None]


class VinSource(Protocol):
    """What the decode engine needs of a source; `on_retry` hears of each failed attempt that another follows."""

    name: str

    def lookup_vin(self, vin: str, on_retry: RetryListener | None = None) -> LookupResult: ...
