"""The shop (bayi): the business that owns the data, its members with their roles, its branches, invitations, API keys
and activity. A person belongs to one shop; signing up creates a one-person shop that the person owns."""

from flask import Blueprint


def blueprints() -> list[Blueprint]:
    """The domain's blueprints, registered in this order (imported here so that a model import loads no route)."""
    from app.auth.api_keys import load_keys_with
    from app.shops import api, receivers, views  # noqa: F401  (receivers: a new user's one-person shop, a deleted one's)
    from app.shops.keys import api as keys_api
    from app.shops.keys import views as keys_views
    from app.shops.keys.services import principal_for

    load_keys_with(principal_for)  # a request with `Authorization: Bearer <key>` acts through the key's maker
    return [api.bp, views.bp, keys_api.bp, keys_views.bp]
