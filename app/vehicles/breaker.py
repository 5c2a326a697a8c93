"""A circuit breaker kept in Redis, so every web and worker process shares it.

`threshold` consecutive failures open it for `cooldown_seconds`; any success resets the count. While open, the
source is not called at all.
"""

from __future__ import annotations

from flask import current_app
from redis import Redis

from app.extensions import redis_store


class CircuitBreaker:
    def __init__(self, client: Redis, name: str, threshold: int = 3, cooldown_seconds: int = 30) -> None:
        self.client = client
        self.failures_key = f"breaker:{name}:failures"
        self.cooldown_key = f"breaker:{name}:cooldown"
        self.threshold = threshold
        self.cooldown_seconds = cooldown_seconds

    def is_open(self) -> bool:
        return bool(self.client.exists(self.cooldown_key))

    def record_success(self) -> None:
        self.client.delete(self.failures_key)

    def record_failure(self) -> None:
        pipe = self.client.pipeline()
        pipe.incr(self.failures_key)
        pipe.expire(self.failures_key, max(self.cooldown_seconds * 10, 60))
        failures, _ = pipe.execute()
        if failures >= self.threshold:
            pipe = self.client.pipeline()
            pipe.set(self.cooldown_key, "1", ex=self.cooldown_seconds)
            pipe.delete(self.failures_key)
            pipe.execute()


def portal_breaker() -> CircuitBreaker:
    """The portal's breaker, as configured (shared by the decode and the preview)."""
    config = current_app.config
    return CircuitBreaker(
        redis_store.client,
        "portal",
        threshold=int(config["PORTAL_BREAKER_THRESHOLD"]),
        cooldown_seconds=int(config["PORTAL_BREAKER_COOLDOWN_SECONDS"]),
    )
