"""The public, read-only demo over one stored vehicle."""

from flask import Blueprint


def blueprints() -> list[Blueprint]:
    """The domain's blueprints, registered in this order (imported here so that a model import loads no route)."""
    from app.demo import api, cli, views

    return [api.bp, views.bp, cli.bp]
