"""The worker's beat: every worker process records every few seconds, from a thread of its own, that it is alive.

So /api/health can say within seconds whether anything drains the queues, from the first second on (a job-based
heartbeat could only say so after the scheduler's next minute, and only once the job had run). Beats go into one
sorted set, scored by Redis's own clock so that web and worker machines need not agree on the time.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
from collections.abc import Callable
from contextlib import suppress

import redis

log = logging.getLogger(__name__)

BEATS_KEY = "worker:beats"
BEAT_SECONDS = 2.0
# A worker whose last beat is older than this is not running (health reports it within this many seconds).
FRESH_SECONDS = 5.0
# Beats older than this are forgotten: a worker gone that long is "down" rather than "stale".
FORGET_SECONDS = 24 * 3600


def _as_seconds(time_reply: tuple[int, int]) -> float:
    """Redis's TIME reply (seconds, microseconds) as seconds."""
    seconds, micros = time_reply
    return seconds + micros / 1_000_000


class WorkerBeat:
    """A daemon thread beating for this process until `stop()`; a Redis outage only pauses it."""

    def __init__(self, client_factory: Callable[[], redis.Redis], name: str | None = None) -> None:
        self.name = name or f"{socket.gethostname()}:{os.getpid()}"
        self._client_factory = client_factory
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name="worker-beat", daemon=True)
        self._failing = False

    def start(self) -> WorkerBeat:
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop beating and sign off, so health says "down" at once rather than "stale" seconds later."""
        self._stopping.set()
        self._thread.join(timeout=BEAT_SECONDS * 2)
        with suppress(redis.RedisError):  # Redis is away: the beat goes stale on its own
            self._client_factory().zrem(BEATS_KEY, self.name)

    def beat(self) -> None:
        client = self._client_factory()
        now = _as_seconds(client.time())
        with client.pipeline() as pipe:
            pipe.zadd(BEATS_KEY, {self.name: now})
            pipe.zremrangebyscore(BEATS_KEY, 0, now - FORGET_SECONDS)
            pipe.expire(BEATS_KEY, FORGET_SECONDS)
            pipe.execute()

    def _run(self) -> None:
        while not self._stopping.is_set():
            try:
                self.beat()
            except Exception as error:  # the beat must outlive any outage
                if not self._failing:
                    log.warning("worker %s: beat not recorded (%s); trying again", self.name, error)
                self._failing = True
            else:
                if self._failing:
                    log.info("worker %s: beat recorded again", self.name)
                self._failing = False
            self._stopping.wait(BEAT_SECONDS)


def worker_state(client: redis.Redis) -> str:
    """ "ok" when a worker beat in the last FRESH_SECONDS, "stale" when the last beat is older, "down" when none."""
    with client.pipeline(transaction=False) as pipe:
        pipe.time()
        pipe.zrevrange(BEATS_KEY, 0, 0, withscores=True)
        server_time, newest = pipe.execute()
    if not newest:
        return "down"
    age = _as_seconds(server_time) - newest[0][1]
    return "ok" if age <= FRESH_SECONDS else "stale"
