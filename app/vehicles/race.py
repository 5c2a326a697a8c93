"""The race between upstream sources for one VIN, with no knowledge of caches, users or the database.

catapi and scrape start together; the first single car wins at once (the others finish in the background).
When catapi fails an attempt or settles with no car, the portal joins, unless the make is not routed to it or its
breaker is open. Every wait is bounded by the decode's deadline; once catapi has failed, by `settle_by`, which leaves
the fallbacks their time (a source still running then is given up on, as failed).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping
from concurrent.futures import FIRST_COMPLETED, Future, InvalidStateError, ThreadPoolExecutor, wait
from contextlib import suppress
from dataclasses import dataclass, field

from app.sources.base import LookupResult, Outcome, RetryListener, VinSource
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
    catapi_failed: bool = False  # an attempt failed (its retries may still be running)
    portal_joined: bool = False
    gave_up: list[str] = field(default_factory=list)  # still running at `settle_by`: counted as failed

    def candidates(self, source: str) -> LookupResult | None:
        result = self.results.get(source)
        return result if result is not None and result.outcome is Outcome.CANDIDATES else None

    @property
    def certain_miss(self) -> bool:
        """No car, and every source that should have been asked answered: only such a miss may be cached (a failed
        source, or a portal kept out by its breaker, might know the car next time)."""
        failed = self.gave_up or any(result.outcome is Outcome.FAILURE for result in self.results.values())
        return self.winner is None and not failed and not self.portal_circuit_open

    @property
    def unavailable(self) -> bool:
        """Sources were asked and none answered (each failed or was given up on): nobody said whether a catalog
        covers the car, so a no-catalog or not-recognised answer would be a guess."""
        asked = bool(self.results or self.gave_up)
        return asked and all(result.outcome is Outcome.FAILURE for result in self.results.values())


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


def ask(source: VinSource, vin: str, on_retry: RetryListener | None = None) -> LookupResult:
    """A source's answer; an unexpected exception is a failure of that source, never of the decode."""
    with IN_FLIGHT:
        try:
            return source.lookup_vin(vin, on_retry) if on_retry else source.lookup_vin(vin)
        except Exception as error:  # one broken adapter must not break the race
            log.exception("source %s raised on %s", source.name, vin)
            return LookupResult(source.name, Outcome.FAILURE, error=f"{type(error).__name__}: {error}"[:300])


def ask_within(source: VinSource, vin: str, deadline: float) -> LookupResult | None:
    """One source's answer, or None when the deadline passes first."""
    future = EXECUTOR.submit(ask, source, vin)
    done, _ = wait([future], timeout=max(deadline - time.monotonic(), 0))
    return future.result() if done else None


def run_race(
    vin: str,
    sources: Mapping[str, VinSource],
    gate: PortalGate,
    deadline: float,
    on_stage: StageListener,
    settle_by: float | None = None,
) -> RaceReport:
    report = RaceReport()
    race = _Race(vin, sources, gate, report, on_stage)
    for name in CATALOG_RACERS:
        if name in sources:
            race.start(name)
    if "catapi" not in sources:
        race.join_portal()
    while race.pending and report.winner is None:
        until = min(deadline, settle_by) if report.catapi_failed and settle_by is not None else deadline
        done, _ = wait(
            [*race.pending, *race.signals], timeout=max(until - time.monotonic(), 0), return_when=FIRST_COMPLETED
        )
        if not done:
            race.stop(aborted=until >= deadline)
            break
        race.settle(done)
    race.count_portal_later()
    return report


class _Race:
    """The running state of one race: the calls pending and catapi's "an attempt failed" signal."""

    def __init__(
        self, vin: str, sources: Mapping[str, VinSource], gate: PortalGate, report: RaceReport, on_stage: StageListener
    ) -> None:
        self.vin, self.sources, self.gate, self.report, self.on_stage = vin, sources, gate, report, on_stage
        self.started = time.monotonic()
        self.pending: dict[Future[LookupResult], str] = {}
        self.catapi_retrying: Future[str] = Future()
        self.signals: set[Future[str]] = {self.catapi_retrying}

    def start(self, name: str) -> None:
        self.on_stage(name, "running")
        on_retry = _signal(self.catapi_retrying) if name == "catapi" else None
        self.pending[EXECUTOR.submit(ask, self.sources[name], self.vin, on_retry)] = name

    def join_portal(self) -> None:
        if PORTAL not in self.sources or self.report.portal_joined:
            return
        self.report.portal_joined = True
        if not self.gate.routed or self.gate.breaker.is_open():
            self.report.portal_skipped = True
            self.report.portal_circuit_open = self.gate.routed
            self.on_stage(PORTAL, "skipped")
            return
        self.start(PORTAL)

    def settle(self, done: set[Future]) -> None:
        if self.catapi_retrying in done:
            self.signals.discard(self.catapi_retrying)
            self._catapi_failed()
        for future in done:
            name = self.pending.pop(future, None)
            if name is not None:
                self._record(name, future.result())

    def _record(self, name: str, result: LookupResult) -> None:
        report = self.report
        report.results[name] = result
        self.on_stage(name, result.outcome.value)
        if name == PORTAL:
            _count_for_breaker(self.gate.breaker, result)
        if result.outcome is Outcome.ONE and report.winner is None:
            report.winner = result
        elif name == "catapi" and result.outcome in NO_CAR:
            if result.outcome is Outcome.FAILURE:
                report.catapi_failed = True
            self.join_portal()

    def _catapi_failed(self) -> None:
        """catapi failed an attempt and tries again: the portal need not wait for its retries."""
        self.report.catapi_failed = True
        self.join_portal()

    def stop(self, aborted: bool) -> None:
        """The deadline (abort) or `settle_by` (give up on the sources still running) has come."""
        if aborted:
            self.report.aborted = True
            return
        for name in self.pending.values():
            self.report.gave_up.append(name)
            self.on_stage(name, Outcome.FAILURE.value)

    def count_portal_later(self) -> None:
        """Decided or stopped first: the portal still counts for its breaker when it answers."""
        for future, name in self.pending.items():
            if name == PORTAL:
                future.add_done_callback(lambda done: _count_for_breaker(self.gate.breaker, done.result()))


def _signal(future: Future[str]) -> RetryListener:
    def told(reason: str) -> None:
        with suppress(InvalidStateError):  # told before: one signal is all the race needs
            future.set_result(reason)

    return told


def _count_for_breaker(breaker: CircuitBreaker, result: LookupResult) -> None:
    if result.outcome is Outcome.FAILURE:
        breaker.record_failure()
    else:
        breaker.record_success()
