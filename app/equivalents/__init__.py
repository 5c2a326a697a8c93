"""Equivalent part numbers (muadil): a graph of links between numbers (OEM, aftermarket, EAN, a shop's own code), each
link with its type and where it came from, and the links a shop rejected for itself."""

from flask import Blueprint


def blueprints() -> list[Blueprint]:
    """The domain's blueprints, registered in this order (imported here so that a model import loads no route)."""
    from app.equivalents import api, views

    return [
        api.bp,
        views.bp,
    ]
