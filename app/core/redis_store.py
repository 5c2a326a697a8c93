"""The one Redis client of the application."""

from __future__ import annotations

import redis
from flask import Flask, current_app

from app.core import embedded_redis


def resolve_redis_url(configured: str) -> str:
    """Return the configured Redis URL, or the embedded store's when none is configured."""
    return configured or embedded_redis.shared_url()


class RedisStore:
    """Flask extension holding a single connection-pooled Redis client per app."""

    def init_app(self, app: Flask) -> None:
        url = resolve_redis_url(app.config.get("REDIS_URL", ""))
        app.config["REDIS_URL"] = url
        app.extensions["redis"] = redis.Redis.from_url(url, health_check_interval=30)

    @property
    def client(self) -> redis.Redis:
        return current_app.extensions["redis"]


def redis_key(*parts: str) -> str:
    """Join key parts with ':' the way every key in the store is spelt, e.g. vin:resolve:<vin>."""
    return ":".join(parts)
