"""VIN-less catalog browsing: make -> model -> variant -> groups -> drawing and parts, in both upstream catalog
architectures (the catalog API and the legacy web catalog)."""

from flask import Blueprint


def blueprints() -> list[Blueprint]:
    """The domain's blueprints, registered in this order (imported here so that a model import loads no route)."""
    from app.browse import api, views

    return [api.bp, views.bp]
