"""The internal admin API under /api/internal/admin: the founder panel's calls, authenticated by X-Internal-Token."""

from flask import Blueprint


def blueprints() -> list[Blueprint]:
    """The domain's blueprints, registered in this order (imported here so that a model import loads no route)."""
    from app.internal_admin import (
        api,
        dashboard_api,
        payments_api,
        queues_api,
        shops_api,
        subscriptions_api,
        users_api,
    )

    return [
        api.bp,
        subscriptions_api.bp,
        payments_api.bp,
        queues_api.bp,
        users_api.bp,
        users_api.consume_bp,
        dashboard_api.bp,
        shops_api.bp,
    ]
