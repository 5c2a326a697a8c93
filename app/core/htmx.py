"""HTMX helpers shared by every page that answers with a fragment or a whole page from one route."""

from __future__ import annotations

from flask import Response, request


def wants_fragment() -> bool:
    """HTMX asked for a fragment alone (a boosted navigation or a history restore needs the whole page)."""
    headers = request.headers
    return (
        bool(headers.get("HX-Request"))
        and not headers.get("HX-Boosted")
        and not headers.get("HX-History-Restore-Request")
    )


def vary_on_htmx(response: Response) -> Response:
    """One URL answers a fragment or a page depending on HX-Request: caches must tell them apart."""
    response.vary.add("HX-Request")
    return response
