"""The admin area: dashboard figures, users, queues, the source probe, the copy log."""

from flask import Blueprint


def blueprints() -> list[Blueprint]:
    """The domain's blueprints, registered in this order (imported here so that a model import loads no route)."""
    from app.admin import (
        api,
        copy_logs,
        dashboard_api,
        dashboard_views,
        queue_views,
        queues_api,
        users_api,
        users_views,
    )

    return [
        api.bp,
        copy_logs.bp,
        queues_api.bp,
        queue_views.bp,
        dashboard_api.bp,
        dashboard_views.bp,
        users_api.bp,
        users_views.bp,
    ]
