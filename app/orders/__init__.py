"""Order lists (sipariş listesi): the quote lines with a supplier's offer chosen become order lines, one open list per
supplier collecting them; a manager sends a supplier its list (e-mail with an XLSX, or a download) and marks it ordered
and arrived."""

from flask import Blueprint


def blueprints() -> list[Blueprint]:
    """The domain's blueprints, registered in this order (imported here so that a model import loads no route)."""
    from app.orders import api, views

    return [api.bp, views.bp]
