"""The dealer's own shelf: the price and stock list imported from the dealer's stock program (CSV or XLSX), and the
numbers on it matched against catalog part numbers as a clerk types them."""

from flask import Blueprint


def blueprints() -> list[Blueprint]:
    """The domain's blueprints, registered in this order (imported here so that a model import loads no route)."""
    from app.shelf import api, lookup_api, views

    return [
        api.bp,
        lookup_api.bp,
        views.bp,
    ]
