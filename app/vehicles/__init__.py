"""VIN decode, decoded vehicles shared by every dealer, each dealer's picks and history, the public preview."""

from flask import Blueprint


def blueprints() -> list[Blueprint]:
    """The domain's blueprints, registered in this order (imported here so that a model import loads no route)."""
    from app.vehicles import (
        activity,  # noqa: F401 - registers the decodes as shop activity (app.shops.activity)
        api,
        preview_api,
        preview_views,
        views,
    )
    from app.vehicles.pairing import api as pairing_api
    from app.vehicles.pairing import views as pairing_views
    from app.vehicles.scan import api as scan_api

    return [api.bp, views.bp, preview_api.bp, preview_views.bp, pairing_api.bp, pairing_views.bp, scan_api.bp]
