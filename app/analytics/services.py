"""Product analytics through PostHog. Events wait on the database session and go out only after it commits,
so an action that rolled back is never reported. With no POSTHOG_API_KEY nothing is sent."""

from __future__ import annotations

import logging
from functools import partial
from typing import Any

from flask import Flask, current_app, has_app_context
from posthog import Posthog

from app.core.after_commit import after_commit

log = logging.getLogger(__name__)


def capture(distinct_id: str, event: str, properties: dict[str, Any]) -> None:
    """Queue `event` for `distinct_id`; it is sent when the current transaction commits."""
    after_commit(partial(_send, distinct_id, event, dict(properties)))


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


def _send(distinct_id: str, event: str, properties: dict[str, Any]) -> None:
    if not has_app_context():
        return
    client: Posthog | None = current_app.extensions.get("posthog")
    if client is None:  # analytics are off
        return
    try:
        client.capture(event, distinct_id=distinct_id, properties=properties)
    except Exception:  # analytics must never break the action it reports
        log.warning("analytics event %s could not be sent", event, exc_info=True)
