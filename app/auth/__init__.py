"""Server-side sessions, sign-up and sign-in, verification and password reset, social sign-in, the request guards."""

from flask import Blueprint


def blueprints() -> list[Blueprint]:
    """The domain's blueprints, registered in this order (imported here so that a model import loads no route)."""
    from app.auth import api, social, views

    return [api.bp, views.bp, social.bp]
