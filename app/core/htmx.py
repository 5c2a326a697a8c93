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


REFUSED_HEADER = "X-Refused"


def swappable(response: Response, code: str = "refused") -> Response:
    """A page or fragment answer as htmx swaps it; every view that answers HTMX a refusal goes through here.

    A status of 400 or more reports a refusal: the answer carries `X-Refused: <code>`, on which
    `core.db.commit_per_request` rolls back everything the request wrote, whatever status the answer leaves with; HTMX
    then gets it with 200 (htmx swaps no error status), a page keeps its 4xx.
    """
    if response.status_code >= 400:
        response.headers[REFUSED_HEADER] = code
        if wants_fragment():
            response.status_code = 200
    return vary_on_htmx(response)


def vary_on_htmx(response: Response) -> Response:
    """One URL answers a fragment or a page depending on HX-Request: caches must tell them apart."""
    response.vary.add("HX-Request")
    return response
