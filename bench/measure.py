"""Timing: N requests over K client threads, and the report line that sets a current value beside its baseline."""

from __future__ import annotations

import statistics
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

import requests

Send = Callable[[requests.Session], requests.Response]
Sample = TypeVar("Sample")


@dataclass
class Batch:
    """What one run of timed requests saw: the wall time of the whole run and each request's latency and answer."""

    seconds: float
    latencies: list[float]
    responses: list[requests.Response]

    @property
    def rate(self) -> float:
        return len(self.latencies) / self.seconds

    def percentile_ms(self, percent: int) -> float:
        return percentile(self.latencies, percent) * 1000

    @property
    def statuses(self) -> set[int]:
        return {response.status_code for response in self.responses}

    def status_counts(self) -> str:
        counts = Counter(response.status_code for response in self.responses)
        return ", ".join(f"{count} x {status}" for status, count in sorted(counts.items()))


def percentile(values: list[float], percent: int) -> float:
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[percent - 1]


def in_turns(
    samples: Sequence[Sample], contenders: dict[str, Callable[[Sample], object]], rounds: int
) -> dict[str, list[float]]:
    """Each sample timed under every contender in turn, round after round: drifts of a shared machine hit all. Who goes
    first moves on with every sample and round, since the first to read a sample's rows reads them colder than those
    after it (measured: the same JSON request 8.3 ms when always first, 5.9 ms when always after the page)."""
    times: dict[str, list[float]] = {name: [] for name in contenders}
    order = list(contenders.items())
    for round_number in range(rounds):
        for index, sample in enumerate(samples):
            start = (round_number + index) % len(order)
            for name, contender in order[start:] + order[:start]:
                began = time.perf_counter()
                contender(sample)
                times[name].append(time.perf_counter() - began)
    return times


def ratios(current: list[float], baseline: list[float]) -> tuple[float, float]:
    """current / baseline at p50 and at p95."""
    p50, p95 = (percentile(current, p) / percentile(baseline, p) for p in (50, 95))
    return p50, p95


def latency(values: list[float]) -> str:
    return f"p50 {percentile(values, 50) * 1000:7.2f} ms  p95 {percentile(values, 95) * 1000:7.2f} ms"


def within_ratio(
    name: str,
    current: tuple[str, list[float]],
    baseline: tuple[str, list[float]],
    target: float,
    details: list[str] | None = None,
) -> Result:
    """(label, timings) of the current contender against its baseline's: passed when their ratio is within `target`
    at p50 and at p95."""
    p50, p95 = ratios(current[1], baseline[1])
    return Result(
        name=name,
        current=f"{current[0]:<18} {latency(current[1])}",
        baseline=f"{baseline[0]:<18} {latency(baseline[1])}",
        ratio=f"p50 {p50:.2f}  p95 {p95:.2f}",
        target=f"<= {target:.1f} at p50 and at p95",
        passed=p50 <= target and p95 <= target,
        details=details or [],
    )


def timed_requests(sessions: list[requests.Session], send: Send, count: int, threads: int) -> Batch:
    """Send `count` requests from `threads` threads (thread i uses sessions[i]), all released at once."""
    shares = [count // threads + (1 if index < count % threads else 0) for index in range(threads)]
    start = threading.Barrier(threads + 1)
    seen: list[list[tuple[float, requests.Response]]] = [[] for _ in range(threads)]

    def client(index: int) -> None:
        session, out = sessions[index], seen[index]
        start.wait()
        for _ in range(shares[index]):
            began = time.perf_counter()
            response = send(session)
            out.append((time.perf_counter() - began, response))

    workers = [threading.Thread(target=client, args=(index,), name=f"bench-client-{index}") for index in range(threads)]
    for worker in workers:
        worker.start()
    start.wait()
    began = time.perf_counter()
    for worker in workers:
        worker.join()
    elapsed = time.perf_counter() - began
    pairs = [pair for out in seen for pair in out]
    return Batch(elapsed, [latency for latency, _ in pairs], [response for _, response in pairs])


@dataclass
class Result:
    """One measurement: the current value, its baseline from the same run, their ratio and the target's verdict."""

    name: str
    current: str
    baseline: str
    ratio: str
    target: str
    passed: bool
    details: list[str] = field(default_factory=list)

    def print(self) -> None:
        print(f"\n{self.name}: {'PASS' if self.passed else 'FAIL'}")
        print(f"  current   {self.current}")
        print(f"  baseline  {self.baseline}")
        print(f"  ratio     {self.ratio}")
        print(f"  target    {self.target}")
        for line in self.details:
            print(f"  {line}")
