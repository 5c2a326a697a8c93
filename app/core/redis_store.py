"""The one Redis client of the application, and the guard its optional uses go through.

Redis holds caches, locks, counters and queues, never data: when it goes away, a page must still answer from the
database. So the client fails fast (short socket timeouts, one quick retry for a connection that went stale), the
rate limiter shares its connection pool, and every optional read or write on a page path goes through `optional`,
which logs the failure and answers a fallback instead of raising.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

import redis
from flask import Flask, current_app, g, has_request_context, request
from redis.backoff import ExponentialBackoff
from redis.retry import Retry

from app.core import embedded_redis

log = logging.getLogger(__name__)

T = TypeVar("T")

# The errors that mean "Redis is not answering" (a refused or dropped connection, a timeout).
UNAVAILABLE = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError)
# After a failure, optional calls skip Redis for this long instead of each paying a connect timeout.
SKIP_AFTER_FAILURE_SECONDS = 2.0


def resolve_redis_url(configured: str) -> str:
    """Return the configured Redis URL, or the embedded store's when none is configured."""
    return configured or embedded_redis.shared_url()


def make_client(url: str, connect_timeout: float, socket_timeout: float) -> redis.Redis:
    """A client that gives up within about the timeouts instead of redis-py's ten retries with backoff."""
    return redis.Redis.from_url(
        url,
        socket_connect_timeout=connect_timeout,
        socket_timeout=socket_timeout,
        # One quick retry for a pooled connection that Redis closed (a restart); a timeout is not retried.
        retry=Retry(ExponentialBackoff(cap=0.05, base=0.01), 1, supported_errors=(redis.exceptions.ConnectionError,)),
        health_check_interval=30,
    )


class RedisStore:
    """Flask extension holding a single connection-pooled Redis client per app."""

    def init_app(self, app: Flask) -> None:
        url = resolve_redis_url(app.config.get("REDIS_URL", ""))
        app.config["REDIS_URL"] = url
        client = make_client(
            url, app.config.get("REDIS_CONNECT_TIMEOUT", 1.0), app.config.get("REDIS_SOCKET_TIMEOUT", 2.0)
        )
        app.extensions["redis"] = client
        app.extensions["redis_outage"] = Outage()
        app.config.setdefault("RATELIMIT_STORAGE_URI", url)
        if app.config["RATELIMIT_STORAGE_URI"] == url:
            # The limiter's counters use this client's pool, so they fail as fast as everything else.
            app.config.setdefault("RATELIMIT_STORAGE_OPTIONS", {"connection_pool": client.connection_pool})

    @property
    def client(self) -> redis.Redis:
        return current_app.extensions["redis"]

    def ping(self) -> bool:
        """Ask Redis now (whatever an earlier failure said); an answer ends the optional calls' skipping."""
        outage: Outage = current_app.extensions["redis_outage"]
        try:
            answered = bool(self.client.ping())
        except UNAVAILABLE:
            outage.failed()
            raise
        outage.recovered()
        return answered

    def optional(self, what: str, call: Callable[[redis.Redis], T], fallback: T) -> T:
        """Run `call(client)`, or answer `fallback` when Redis does not answer (logged, never raised)."""
        outage: Outage = current_app.extensions["redis_outage"]
        if outage.skipping():
            return fallback
        try:
            result = call(self.client)
        except UNAVAILABLE as error:
            outage.failed()
            log.warning("redis unavailable, %s skipped: %s", what, error)
            return fallback
        outage.recovered()
        return result

    def first_in_window(self, what: str, key: str, seconds: int, when_down: bool) -> bool:
        """Whether this is the first call for `key` in the next `seconds` (it sets a marker that ends with them);
        `when_down` when Redis does not answer."""
        return bool(self.optional(what, lambda client: client.set(key, 1, nx=True, ex=seconds), when_down))


# endpoint -> the keys its view will read, known from the request alone (see read_ahead)
_AHEAD: dict[str, Callable[[], Iterable[str]]] = {}
READ_AHEAD = "redis_read_ahead"  # flask.g: the values read ahead, by key


def read_ahead(endpoint: str, keys: Callable[[], Iterable[str]]) -> None:
    """Let the request's first MGET (the session's tokens, `mget_first`) also read the keys that `endpoint`'s view
    will GET, as `keys()` tells them from the request (it must not raise: none for a request it cannot read), so
    the view's `get` costs no round trip of its own."""
    _AHEAD[endpoint] = keys


def mget_first(client: redis.Redis, keys: Sequence[str]) -> list[bytes | None]:
    """MGET `keys` and, in the same round trip, the keys this request's endpoint reads ahead."""
    keys_of = _AHEAD.get(request.endpoint or "") if has_request_context() else None
    ahead = list(keys_of()) if keys_of is not None else []
    if not ahead:
        return pooled_mget(client, keys)
    values = pooled_mget(client, [*keys, *ahead])
    g.setdefault(READ_AHEAD, {}).update(zip(ahead, values[len(keys) :], strict=True))
    return values[: len(keys)]


def pooled_mget(client: redis.Redis, keys: Sequence[str]) -> list[bytes | None]:
    """MGET on one of the client's pooled connections, past redis-py's command layer: its retry wrapper, dispatch and
    bookkeeping took a quarter of the call's instructions, on every signed-in request (bench/README.md). The pool
    still replaces a connection that Redis closed while it was idle (a restart); one that fails during the call is
    dropped and the error raised, for the caller's fallback."""
    pool = client.connection_pool
    connection = pool.get_connection()
    try:
        connection.send_command("MGET", *keys)
        return connection.read_response()
    except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError):
        connection.disconnect()
        raise
    finally:
        pool.release(connection)


def get(client: redis.Redis, key: str) -> bytes | None:
    """GET `key`, answered by this request's read-ahead once when it read the key (a moment ago, in this request)."""
    ahead = g.get(READ_AHEAD) if has_request_context() else None
    if ahead and key in ahead:
        return ahead.pop(key)
    return client.get(key)


class Outage:
    """Remembers a recent failure, so a request's further optional calls skip a Redis that just failed."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._skip_until = 0.0

    def skipping(self) -> bool:
        return time.monotonic() < self._skip_until

    def failed(self) -> None:
        with self._lock:
            self._skip_until = time.monotonic() + SKIP_AFTER_FAILURE_SECONDS

    def recovered(self) -> None:
        self._skip_until = 0.0


def redis_key(*parts: str) -> str:
    """Join key parts with ':' the way every key in the store is spelt, e.g. vin:resolve:<vin>."""
    return ":".join(parts)
