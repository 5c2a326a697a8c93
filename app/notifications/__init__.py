"""E-mail: templates rendered into the outbox, delivery over SMTP, tracked links, the admins' mail page."""

from flask import Blueprint


def blueprints() -> list[Blueprint]:
    """The domain's blueprints, registered in this order (imported here so that a model import loads no route)."""
    from app.notifications import tracked_links, views

    return [views.bp, tracked_links.bp]
