"""A clock the test moves on by hand, for code that reads `clock: Callable[[], float]` (time.monotonic otherwise)."""

from __future__ import annotations

import threading


class FakeClock:
    def __init__(self, start: float = 1_000.0) -> None:
        self._now = start
        self._lock = threading.Lock()  # read by loopback servers' threads

    def __call__(self) -> float:
        with self._lock:
            return self._now

    def advance(self, seconds: float) -> None:
        with self._lock:
            self._now += seconds
