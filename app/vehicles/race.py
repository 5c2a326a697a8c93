"""The race between upstream sources for one VIN, with no knowledge of caches, users or the database.

catapi and scrape start together; the first single car wins at once (the others finish in the background).
When catapi settles with no car, the portal joins, unless the make is not routed to it or its breaker is open.
Every wait is bounded by the decode's deadline.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field

from app.sources.base import LookupResult, Outcome, VinSource
from app.vehicles.breaker import CircuitBreaker

log = logging.getLogger(__name__)

# Upstream calls block on the network, so threads, not processes; shared by every decode in the process.
EXECUTOR = ThreadPoolExecutor(max_workers=64, thread_name_prefix="decode")

CATALOG_RACERS = ("catapi", "scrape")
PORTAL = "portal"
NO_CAR = (Outcome.NONE, Outcome.FAILURE)

StageListener = Callable[[str, str], None]


@dataclass
class RaceReport:
    results: dict[str, LookupResult] = field(default_factory=dict)
    winner: LookupResult | None = None
    aborted: bool = False
    portal_skipped: bool = False
    portal_circuit_open: bool = False

    def candidates(self, source: str) -> LookupResult | None:
        result = self.results.get(source)
        return result if result is not None and result.outcome is Outcome.CANDIDATES else None

    @property
    def certain_miss(self) -> bool:
        """No car, and every source that should have been asked answered: only such a miss may be cached (a failed
        source, or a portal kept out by its breaker, might know the car next time)."""
        failed = any(result.outcome is Outcome.FAILURE for result in self.results.values())
        return self.winner is None and not failed and not self.portal_circuit_open


@dataclass(frozen=True)
class PortalGate:
    """Whether the portal may join: the make must be routed to it and its breaker closed."""

    routed: bool
    breaker: CircuitBreaker


class _InFlight:
    """How many upstream calls are running, so a shutdown (or a test) can wait for the stragglers of decided races."""

    def __init__(self) -> None:
        self._count = 0
        self._idle = threading.Condition()

    def __enter__(self) -> None:
        with self._idle:
            self._count += 1

    def __exit__(self, *_exc: object) -> None:
        with self._idle:
            self._count -= 1
            if not self._count:
                self._idle.notify_all()

    def wait_idle(self, timeout: float) -> bool:
        with self._idle:
            return self._idle.wait_for(lambda: not self._count, timeout)


IN_FLIGHT = _InFlight()


def ask(source: VinSource, vin: str) -> LookupResult:
    """A source's answer; an unexpected exception is a failure of that source, never of the decode."""
    with IN_FLIGHT:
        try:
            return source.lookup_vin(vin)
        except Exception as error:  # noqa: BLE001 - one broken adapter must not break the race
            log.exception("source %s raised on %s", source.name, vin)
            return LookupResult(source.name, Outcome.FAILURE, error=f"{type(error).__name__}: {error}"[:300])


def ask_within(source: VinSource, vin: str, deadline: float) -> LookupResult | None:
    """One source's answer, or None when the deadline passes first."""
    future = EXECUTOR.submit(ask, source, vin)
    done, _ = wait([future], timeout=max(deadline - time.monotonic(), 0))
    return future.result() if done else None


def run_race(
    vin: str, sources: Mapping[str, VinSource], gate: PortalGate, deadline: float, on_stage: StageListener
) -> RaceReport:
    report = RaceReport()
    pending: dict[Future[LookupResult], str] = {}

    def start(name: str) -> Future[LookupResult]:
        on_stage(name, "running")
        future = EXECUTOR.submit(ask, sources[name], vin)
        pending[future] = name
        return future

    def join_portal() -> None:
        if PORTAL not in sources:
            return
        if not gate.routed or gate.breaker.is_open():
            report.portal_skipped = True
            report.portal_circuit_open = gate.routed
            on_stage(PORTAL, "skipped")
            return
        start(PORTAL)

    for name in CATALOG_RACERS:
        if name in sources:
            start(name)
    if "catapi" not in sources:
        join_portal()

    while pending and report.winner is None:
        done, _ = wait(pending, timeout=max(deadline - time.monotonic(), 0), return_when=FIRST_COMPLETED)
        if not done:
            report.aborted = True
            break
        for future in done:
            name = pending.pop(future)
            result = future.result()
            report.results[name] = result
            on_stage(name, result.outcome.value)
            if name == PORTAL:
                _record(gate.breaker, result)
            if result.outcome is Outcome.ONE and report.winner is None:
                report.winner = result
            elif name == "catapi" and result.outcome in NO_CAR:
                join_portal()
    for future, name in pending.items():  # decided or aborted first: the portal still counts when it answers
        if name == PORTAL:
            future.add_done_callback(lambda done: _record(gate.breaker, done.result()))
    return report


def _record(breaker: CircuitBreaker, result: LookupResult) -> None:
    if result.outcome is Outcome.FAILURE:
        breaker.record_failure()
    else:
        breaker.record_success()
