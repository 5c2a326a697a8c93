"""Product analytics through PostHog. Events wait on the database session and go out only after it commits,
so an action that rolled back is never reported. With no POSTHOG_API_KEY nothing is sent."""

from __future__ import annotations

import logging
from typing import Any

import sqlalchemy as sa
from flask import Flask, current_app, has_app_context
from posthog import Posthog
from sqlalchemy.orm import Session

from app.extensions import db

log = logging.getLogger(__name__)

PENDING = "analytics_pending_events"


def capture(distinct_id: str, event: str, properties: dict[str, Any]) -> None:
    """Queue `event` for `distinct_id`; it is sent when the current transaction commits."""
    db.session.connection()  # the event belongs to this transaction: begin one if none is open
    db.session.info.setdefault(PENDING, []).append((distinct_id, event, dict(properties)))


def init_analytics(app: Flask) -> None:
    """Start the PostHog client when a key is set; with none, no client at all: a disabled one still starts its
    threads, and it logged a "secret_key" warning every 30 s."""
    key = app.config["POSTHOG_API_KEY"]
    app.extensions["posthog"] = None
    if key:
        app.extensions["posthog"] = Posthog(
            key,
            host=app.config["POSTHOG_HOST"],
            # Tests send synchronously so the fake PostHog server has the event when the request returns.
            sync_mode=app.config.get("ANALYTICS_SYNC", False),
        )


@sa.event.listens_for(Session, "after_commit")
def _send_after_commit(session: Session) -> None:
    events = session.info.pop(PENDING, [])
    if not events or not has_app_context():
        return
    client: Posthog | None = current_app.extensions.get("posthog")
    if client is None:  # analytics are off
        return
    for distinct_id, event, properties in events:
        try:
            client.capture(event, distinct_id=distinct_id, properties=properties)
        except Exception:  # noqa: BLE001 - analytics must never break the action it reports
            log.warning("analytics event %s could not be sent", event, exc_info=True)


@sa.event.listens_for(Session, "after_soft_rollback")
def _drop_after_rollback(session: Session, previous_transaction) -> None:  # noqa: ANN001
    # A nested savepoint rolling back (a retried insert) leaves the outer transaction's events in place.
    if not previous_transaction.nested:
        session.info.pop(PENDING, None)
