"""How many decodes past the cache one process runs at once.

A decode past the cache may wait on a hung upstream for its whole budget (25 s). gunicorn serves each process with a
few threads (`make run`: 4), so a handful of such decodes would leave no thread for stored pages, search or health.
Decodes therefore take one of a few slots per process (DECODE_MAX_CONCURRENT, lock waiters included) and wait a short
time for one (DECODE_QUEUE_SECONDS), watching meanwhile whether another request's decode answered their VIN. A decode
that gets no slot is refused as busy; so is one that finds every slot held for longer than a healthy decode takes
(STALLED_AFTER_SECONDS): waiting behind hung decodes would only hold another thread. Cached decodes need no slot.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Callable
from enum import Enum

POLL_SECONDS = 0.05
STALLED_AFTER_SECONDS = 3.0  # a healthy decode, lock wait included, ends well within this


class Taken(Enum):
    SLOT = "slot"
    ANSWERED = "answered"  # the VIN was answered elsewhere while we waited: no slot needed
    BUSY = "busy"


class Slots:
    """A counting gate whose size is read at each `take`, so a changed setting applies at once."""

    def __init__(self) -> None:
        self._started: dict[int, float] = {}  # slot token -> when it was taken (monotonic)
        self._tokens = itertools.count()
        self._freed = threading.Condition()

    def take(self, limit: int, wait_seconds: float, answered: Callable[[], bool]) -> tuple[Taken, int | None]:
        """A slot (and its token), or why none was taken; `answered` is asked between waits."""
        give_up_at = time.monotonic() + max(wait_seconds, 0)
        while True:
            with self._freed:
                if len(self._started) < max(limit, 1):
                    token = next(self._tokens)
                    self._started[token] = time.monotonic()
                    return Taken.SLOT, token
                if self._stalled() or time.monotonic() >= give_up_at:
                    return Taken.BUSY, None
                self._freed.wait(min(POLL_SECONDS, max(give_up_at - time.monotonic(), 0)))
            if answered():
                return Taken.ANSWERED, None

    def give_back(self, token: int) -> None:
        with self._freed:
            self._started.pop(token, None)
            self._freed.notify()

    @property
    def busy(self) -> int:
        return len(self._started)

    def _stalled(self) -> bool:
        oldest_allowed = time.monotonic() - STALLED_AFTER_SECONDS
        return all(started < oldest_allowed for started in self._started.values())


SLOTS = Slots()
