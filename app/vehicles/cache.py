"""The VIN resolve cache in Redis: positive answers (24 h), negative answers (6 h) and the in-flight decode lock.

Values are JSON documents, so a cache hit answers without touching the database.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from typing import Any

import orjson
from redis import Redis

from app.core import redis_store
from app.core.errors import ApiError
from app.vehicles.answers import normalize_vin

POSITIVE_TTL_SECONDS = 24 * 3600
NEGATIVE_TTL_SECONDS = 6 * 3600

# Release the lock only if it is still ours (a decode that overran its lock must not free someone else's).
RELEASE_SCRIPT = """
if redis.call('get', KEYS[1]) == ARGV[1] then
    return redis.call('del', KEYS[1])
end
return 0
"""


def positive_key(vin: str) -> str:
    return f"vin:resolve:{vin}"


def ahead_of_decode(raw_vin: Any) -> list[str]:
    """What a decode route reads ahead with the session's tokens (`redis_store.read_ahead`): the cached answer of
    the VIN asked for, the one GET of a cached decode; nothing for what is not a VIN."""
    try:
        return [positive_key(normalize_vin(raw_vin))]
    except ApiError:
        return []


def negative_key(vin: str) -> str:
    return f"vin:resolve:neg:{vin}"


def lock_key(vin: str) -> str:
    return f"vin:lock:{vin}"


def keys_for(vin: str) -> list[str]:
    return [positive_key(vin), negative_key(vin), lock_key(vin)]


@dataclass(frozen=True)
class Lock:
    key: str
    token: str


class ResolveCache:
    def __init__(self, client: Redis) -> None:
        self.client = client

    def positive(self, vin: str) -> dict[str, Any] | None:
        return self._read(positive_key(vin))

    def negative(self, vin: str) -> dict[str, Any] | None:
        return self._read(negative_key(vin))

    def remember(self, vin: str, answer: dict[str, Any]) -> None:
        """Cache a vehicle or a candidate list; it replaces any negative answer."""
        pipe = self.client.pipeline()
        pipe.set(positive_key(vin), json.dumps(answer), ex=POSITIVE_TTL_SECONDS)
        pipe.delete(negative_key(vin))
        pipe.execute()

    def remember_negative(self, vin: str, answer: dict[str, Any]) -> None:
        self.client.set(negative_key(vin), json.dumps(answer), ex=NEGATIVE_TTL_SECONDS)

    def try_lock(self, vin: str, ttl_ms: int) -> Lock | None:
        lock = Lock(lock_key(vin), secrets.token_hex(8))
        return lock if self.client.set(lock.key, lock.token, nx=True, px=ttl_ms) else None

    def is_locked(self, vin: str) -> bool:
        return bool(self.client.exists(lock_key(vin)))

    def release(self, lock: Lock) -> None:
        self.client.eval(RELEASE_SCRIPT, 1, lock.key, lock.token)

    def clear(self, vin: str) -> tuple[list[str], int]:
        """Delete the positive, negative and lock keys; returns the keys that existed and how many were checked."""
        keys = keys_for(vin)
        pipe = self.client.pipeline()
        for key in keys:
            pipe.delete(key)
        deleted = pipe.execute()
        return [key for key, count in zip(keys, deleted, strict=True) if count], len(keys)

    def _read(self, key: str) -> dict[str, Any] | None:
        raw = redis_store.get(self.client, key)  # read ahead with the session's tokens by the decode routes
        return orjson.loads(raw) if raw else None
