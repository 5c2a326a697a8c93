"""The admin service-test tool: ask one decode source (or all of them) about a VIN and show what each answered.

It writes nothing: the adapters are called directly, not through the decode orchestrator, so no vehicle, query log,
cache key or breaker state comes of it. Every call is bounded by the decode budget.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from concurrent.futures import Future, wait
from dataclasses import asdict, dataclass
from typing import Any

from flask_babel import format_decimal
from flask_babel import gettext as _

from app.sources import pool as source_pool
from app.sources import wmi
from app.sources.base import Car, LookupResult, Outcome, VinSource
from app.vehicles.race import EXECUTOR, ask

# In the order the decode chain asks them; "wmi" is the offline table, "chain" means all of them.
SOURCES = ("catapi", "scrape", "portal", "vin_api", "wmi")
CHAIN = "chain"
CHOICES = (*SOURCES, CHAIN)

# Outcomes besides the sources' own four.
TIMEOUT = "timeout"
NOT_CONFIGURED = "not_configured"


@dataclass(frozen=True)
class SourceReport:
    source: str
    success: bool
    outcome: str
    data: Any
    error: str | None
    elapsed_ms: int

    def to_json(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "success": self.success,
            "outcome": self.outcome,
            "data": self.data,
            "error": self.error,
            "elapsedMs": self.elapsed_ms,
        }


def run_service_test(vin: str, choice: str, config: Mapping[str, Any]) -> list[SourceReport]:
    """Ask `choice` (one of SOURCES, or CHAIN for all of them at once) about `vin`; one report per source asked."""
    names = SOURCES if choice == CHAIN else (choice,)
    adapters = source_pool.configured_sources(config)
    budget_seconds = float(config["DECODE_BUDGET_SECONDS"])
    deadline = time.monotonic() + budget_seconds
    started = time.monotonic()
    # Upstream calls first (concurrently), then the offline table while they run.
    pending: dict[str, Future[tuple[LookupResult, int]]] = {
        name: EXECUTOR.submit(_timed_ask, adapters[name], vin) for name in names if name in adapters
    }
    offline = {"wmi": _wmi_report(vin, source_pool.suspended_makes(config))} if "wmi" in names else {}
    wait(pending.values(), timeout=max(deadline - time.monotonic(), 0))
    reports = []
    for name in names:
        if name in offline:
            reports.append(offline[name])
        elif name not in pending:
            reports.append(_not_configured(name))
        elif pending[name].done():
            reports.append(_lookup_report(*pending[name].result()))
        else:
            reports.append(_timed_out(name, budget_seconds, int((time.monotonic() - started) * 1000)))
    return reports


def _timed_ask(source: VinSource, vin: str) -> tuple[LookupResult, int]:
    started = time.monotonic()
    result = ask(source, vin)  # an adapter that raises is reported as a failure, not a 500
    return result, int((time.monotonic() - started) * 1000)


def _lookup_report(result: LookupResult, elapsed_ms: int) -> SourceReport:
    success = result.outcome in (Outcome.ONE, Outcome.CANDIDATES)
    return SourceReport(
        source=result.source,
        success=success,
        outcome=result.outcome.value,
        data=[car_json(car) for car in result.cars],
        error=result.error,
        elapsed_ms=max(result.elapsed_ms, elapsed_ms),
    )


def car_json(car: Car) -> dict[str, Any]:
    fields = asdict(car)
    return {
        "source": fields["source"],
        "brand": fields["brand"],
        "model": fields["model"],
        "carId": fields["car_id"],
        "catalogId": fields["catalog_id"],
        "year": fields["year"],
        "engine": fields["engine"],
        "criteria": fields["criteria"],
        "parameters": fields["parameters"],
        "raw": fields["raw"],
    }


def _wmi_report(vin: str, suspended: frozenset[str]) -> SourceReport:
    started = time.monotonic()
    info = wmi.identify(vin)
    elapsed_ms = int((time.monotonic() - started) * 1000)
    if info is None:
        return SourceReport("wmi", False, Outcome.NONE.value, None, None, elapsed_ms)
    data = {
        "wmi": info.wmi,
        "brand": info.brand,
        "brandSlug": info.brand_slug,
        "country": info.country,
        "portalService": info.portal_service,
        "routedToPortal": info.routed_to_portal(suspended),
    }
    return SourceReport("wmi", True, Outcome.ONE.value, data, None, elapsed_ms)


def _not_configured(name: str) -> SourceReport:
    return SourceReport(name, False, NOT_CONFIGURED, None, _("This source is not configured on this server."), 0)


def _timed_out(name: str, budget_seconds: float, elapsed_ms: int) -> SourceReport:
    message = _("The source did not answer within %(seconds)s seconds.", seconds=format_decimal(budget_seconds))
    return SourceReport(name, False, TIMEOUT, None, message, elapsed_ms)
