"""Jobs of the shared plumbing."""

from __future__ import annotations

from datetime import datetime

from app.core.db import utcnow
from app.extensions import redis_store

HEARTBEAT_KEY = "worker:heartbeat"
HEARTBEAT_TTL_SECONDS = 15 * 60


def heartbeat() -> str:
    """Record that the scheduler enqueued and a worker ran a job: `worker:heartbeat` shows when that chain last worked.

    /api/health does not wait for it: each worker process beats on its own every few seconds (app.core.worker_beat).
    """
    stamp = utcnow().isoformat()
    redis_store.client.set(HEARTBEAT_KEY, stamp, ex=HEARTBEAT_TTL_SECONDS)
    return stamp


def last_heartbeat() -> datetime | None:
    """When a worker last ran the scheduler's heartbeat job (None when never, or not in the last 15 minutes)."""
    raw = redis_store.client.get(HEARTBEAT_KEY)
    return datetime.fromisoformat(raw.decode()) if raw else None
