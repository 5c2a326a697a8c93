"""The shop's distributors (tedarikçi): who they are and on what terms, their price lists (uploaded or pulled from a
URL), the day's currency rates, the lines of those lists matched to part numbers with the reason of each match, and
the offers a counter row shows from them."""

from flask import Blueprint


def blueprints() -> list[Blueprint]:
    """The domain's blueprints, registered in this order (imported here so that a model import loads no route)."""
    from app.suppliers import api, views

    return [api.bp, views.bp]
