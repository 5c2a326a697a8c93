"""Site-wide services: the health report."""

from __future__ import annotations

import logging
from typing import Any

import sqlalchemy as sa
from flask import current_app

from app.config import not_configured
from app.core.redis_store import UNAVAILABLE
from app.core.worker_beat import worker_state
from app.extensions import db, redis_store
from app.vehicles.scan import text_engine

log = logging.getLogger(__name__)


def _database_ok() -> bool:
    try:
        db.session.execute(sa.text("SELECT 1"))
        return True
    except sa.exc.SQLAlchemyError:
        log.warning("health: database unreachable", exc_info=True)
        db.session.rollback()
        return False


def _redis_ok() -> bool:
    """Ask Redis itself on every call (never a remembered outage), so health sees it return at once."""
    try:
        return redis_store.ping()
    except Exception as error:  # any failure to answer means unreachable
        log.warning("health: redis unreachable: %s", error)
        return False


def _worker_state() -> str:
    try:
        return worker_state(redis_store.client)
    except UNAVAILABLE:
        return "unknown"  # Redis went away between the ping and this read


def health_report() -> dict[str, Any]:
    """Report database and Redis reachability (503 when either is down); the worker's state and the VIN scan's text
    engine are informational, and so, in production, are the optional settings left empty (each a feature that is
    off)."""
    database = "ok" if _database_ok() else "down"
    redis_state = "ok" if _redis_ok() else "down"
    overall = "ok" if database == redis_state == "ok" else "degraded"
    worker = _worker_state() if redis_state == "ok" else "unknown"
    engine = text_engine.engine()
    report: dict[str, Any] = {
        "status": overall,
        "database": database,
        "redis": redis_state,
        "worker": worker,
        "textEngine": engine.as_dict() if engine else None,
    }
    if current_app.config["PRODUCTION"]:
        report["notConfigured"] = not_configured(current_app.config)
    return report
