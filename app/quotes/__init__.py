"""Quotes (teklif): parts and free lines for the vehicle in front of the clerk, totals with KDV, shared with the
customer by a signed read-only link (WhatsApp), printed or exported."""

from flask import Blueprint


def blueprints() -> list[Blueprint]:
    """The domain's blueprints, registered in this order (imported here so that a model import loads no route)."""
    from app.quotes import api, views

    return [api.bp, views.bp]
