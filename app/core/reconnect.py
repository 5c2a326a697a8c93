"""Keep a process that lives on Redis (the RQ worker, the scheduler) running through a Redis outage.

`keep_running` runs the process's loop; when the loop ends or fails because Redis went away, it waits for Redis
with exponential backoff (logging each retry) and runs the loop again. Only SIGINT/SIGTERM ends it: the loops'
own signal handlers set `STOP` (see worker.py), and between runs ours do.
"""

from __future__ import annotations

import logging
import random
import signal
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import redis

log = logging.getLogger(__name__)

STOP = threading.Event()
# A run that lasted this long was a working connection: the next outage starts the backoff from the beginning.
STEADY_SECONDS = 30.0


@dataclass
class Backoff:
    """Delays of first, first*factor, ... up to cap, each shifted by up to ±jitter so processes spread out."""

    first: float = 0.5
    factor: float = 2.0
    cap: float = 10.0
    jitter: float = 0.2
    _next: float = field(default=0.0, init=False)

    def next_delay(self) -> float:
        base = self._next or self.first
        self._next = min(base * self.factor, self.cap)
        return base * random.uniform(1 - self.jitter, 1 + self.jitter)

    def reset(self) -> None:
        self._next = 0.0


def install_stop_handlers() -> None:
    """Let SIGINT and SIGTERM end `keep_running` while no run has handlers of its own."""

    def request_stop(_signum, _frame):
        STOP.set()

    signal.signal(signal.SIGINT, request_stop)
    signal.signal(signal.SIGTERM, request_stop)


def redis_answers(client: redis.Redis) -> bool:
    try:
        return bool(client.ping())
    except redis.RedisError:
        return False


def keep_running(name: str, run: Callable[[], object], client: redis.Redis, backoff: Backoff | None = None) -> None:
    """Call `run` whenever Redis answers, again after each outage, until a stop signal."""
    backoff = backoff or Backoff()
    install_stop_handlers()
    while not STOP.is_set():
        if redis_answers(client):
            _run_once(name, run, backoff)
            if STOP.is_set():
                return
            install_stop_handlers()  # the run's handlers belonged to objects that are gone now
        delay = backoff.next_delay()
        log.warning("%s: Redis is not answering; connecting again in %.1f s", name, delay)
        STOP.wait(delay)


def _run_once(name: str, run: Callable[[], object], backoff: Backoff) -> None:
    started = time.monotonic()
    try:
        run()
    except redis.RedisError as error:
        log.warning("%s: lost Redis (%s: %s)", name, type(error).__name__, error)
    else:
        if not STOP.is_set():
            log.warning("%s: stopped working on its own (Redis went away)", name)
    if time.monotonic() - started >= STEADY_SECONDS:
        backoff.reset()
