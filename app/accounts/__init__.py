"""Users and their linked social accounts, the account page and API, the first admin's seed."""

from flask import Blueprint


def blueprints() -> list[Blueprint]:
    """The domain's blueprints, registered in this order (imported here so that a model import loads no route)."""
    from app.accounts import api, views

    return [api.bp, views.bp]
