"""The landing and public pages, contact form, health report, API docs, live chat, monitoring collector."""

from flask import Blueprint


def blueprints() -> list[Blueprint]:
    """The domain's blueprints, registered in this order (imported here so that a model import loads no route)."""
    from app.site import api, api_docs, collect, pages, support_api, views

    return [views.bp, api.bp, api_docs.bp, support_api.bp, collect.bp, pages.bp]
