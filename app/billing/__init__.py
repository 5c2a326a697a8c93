"""Brands and plans on sale, subscriptions, card payments, refunds, brand access, the lifecycle mails."""

from flask import Blueprint


def blueprints() -> list[Blueprint]:
    """The domain's blueprints, registered in this order (imported here so that a model import loads no route)."""
    from app.billing import api, cli, payments_api, payments_views, receivers, views  # noqa: F401 (receivers)

    return [api.bp, views.bp, payments_api.bp, payments_views.bp, cli.bp]
