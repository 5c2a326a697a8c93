"""Timing: N requests over K client threads, and the report line that sets a current value beside its baseline."""

from __future__ import annotations

import statistics
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

import requests

Send = Callable[[requests.Session], requests.Response]


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
