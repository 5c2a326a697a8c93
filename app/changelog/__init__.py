""" "What's new" entries, written by the release automation."""

from flask import Blueprint


def blueprints() -> list[Blueprint]:
    """The domain's blueprints, registered in this order (imported here so that a model import loads no route)."""
    from app.changelog import api, views

    return [api.bp, views.bp]
