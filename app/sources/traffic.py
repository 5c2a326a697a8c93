"""The upstream-traffic flag: a dealer's decode marks the upstreams as the dealer's for TRAFFIC_QUIET seconds, and
background catalog work (app.catalog.backfill) waits until the mark ends."""

from __future__ import annotations

from contextlib import suppress

from redis.exceptions import RedisError

from app.extensions import redis_store

TRAFFIC_KEY = "traffic:dealers"
TRAFFIC_QUIET = 30  # seconds after a dealer's decode before background catalog work goes on


def mark_dealer_traffic() -> None:
    """A dealer is decoding: background catalog work waits TRAFFIC_QUIET seconds for the upstreams to be theirs."""
    with suppress(RedisError):  # the decode goes on; the backfill only loses its manners for a moment
        redis_store.client.set(TRAFFIC_KEY, "1", ex=TRAFFIC_QUIET)


def seconds_until_quiet() -> int | None:
    """Seconds the mark still lives (None or <= 0: quiet). Raises RedisError when Redis cannot say."""
    return redis_store.client.ttl(TRAFFIC_KEY)
