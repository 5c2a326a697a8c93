"""Site-wide services: the health report."""

from __future__ import annotations

import logging
from datetime import timedelta

import sqlalchemy as sa

from app.core.db import utcnow
from app.core.tasks import last_heartbeat
from app.extensions import db, redis_store

log = logging.getLogger(__name__)

# The scheduler enqueues the heartbeat every minute; a few missed beats mean no worker is draining the queues.
HEARTBEAT_STALE_AFTER = timedelta(minutes=5)


def _database_ok() -> bool:
    try:
        db.session.execute(sa.text("SELECT 1"))
        return True
    except sa.exc.SQLAlchemyError:
        log.warning("health: database unreachable", exc_info=True)
        db.session.rollback()
        return False


def _redis_ok() -> bool:
    try:
        return bool(redis_store.client.ping())
    except Exception:  # noqa: BLE001 - any failure to answer means unreachable
        log.warning("health: redis unreachable", exc_info=True)
        return False


def _worker_state() -> str:
    try:
        beat = last_heartbeat()
    except Exception:  # noqa: BLE001 - Redis already reported as down
        return "unknown"
    if beat is None:
        return "unknown"
    return "ok" if utcnow() - beat <= HEARTBEAT_STALE_AFTER else "stale"


def health_report() -> dict[str, str]:
    """Report database and Redis reachability; the worker's heartbeat is informational."""
    database = "ok" if _database_ok() else "down"
    redis_state = "ok" if _redis_ok() else "down"
    overall = "ok" if database == redis_state == "ok" else "degraded"
    return {"status": overall, "database": database, "redis": redis_state, "worker": _worker_state()}
