"""The admin area: dashboard figures, users, shops, queues, the source probe, the copy log."""

from flask import Blueprint


def blueprints() -> list[Blueprint]:
    """The domain's blueprints, registered in this order (imported here so that a model import loads no route)."""
    from app.admin import api, copy_logs
    from app.admin.dashboard import api as dashboard_api
    from app.admin.dashboard import views as dashboard_views
    from app.admin.queues import api as queues_api
    from app.admin.queues import views as queue_views
    from app.admin.shops import api as shops_api
    from app.admin.shops import views as shops_views
    from app.admin.users import api as users_api
    from app.admin.users import views as users_views

    return [
        api.bp,
        copy_logs.bp,
        queues_api.bp,
        queue_views.bp,
        dashboard_api.bp,
        dashboard_views.bp,
        users_api.bp,
        users_views.bp,
        shops_api.bp,
        shops_views.bp,
    ]
