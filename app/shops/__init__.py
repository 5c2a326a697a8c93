"""The shop (bayi): the business that owns the data, its members with their roles, its branches, invitations, API keys
and activity. A person belongs to one shop; signing up creates a one-person shop that the person owns."""

from flask import Blueprint


def blueprints() -> list[Blueprint]:
    """The domain's blueprints, registered in this order (imported here so that a model import loads no route)."""
    from app.shops import api, receivers, views  # noqa: F401  (receivers: the one-person shop made for each new user)

    return [api.bp, views.bp]
