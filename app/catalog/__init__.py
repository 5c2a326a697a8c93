"""A vehicle's stored catalog: tree, parts, schema pictures, search, where-used, copy log, exports, prefetch."""

from flask import Blueprint


def blueprints() -> list[Blueprint]:
    """The domain's blueprints, registered in this order (imported here so that a model import loads no route)."""
    from app.catalog import api, cli, exports, progress_views, views
    from app.catalog.copies import api as copies_api
    from app.catalog.fit import api as fit_api
    from app.catalog.fit import views as fit_views
    from app.catalog.search import api as search_api
    from app.catalog.where_used import api as where_used_api
    from app.catalog.where_used import views as where_used_views

    return [
        cli.bp,
        api.bp,
        views.bp,
        exports.bp,
        progress_views.bp,
        search_api.bp,
        copies_api.bp,
        fit_api.bp,
        where_used_api.bp,
        where_used_views.bp,
        fit_views.bp,
    ]
