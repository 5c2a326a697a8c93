"""The landing page's VIN box: a public preview page that also answers HTMX with just the preview fragment."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, make_response, render_template, request, url_for
from flask_babel import gettext as _
from flask_limiter.errors import RateLimitExceeded

from app.catalog import teaser
from app.core.errors import ApiError
from app.core.htmx import swappable, wants_fragment
from app.core.security import public
from app.vehicles import preview
from app.vehicles.throttles import preview_throttle

bp = Blueprint("vehicles_preview_views", __name__)

# The signed-in VIN search page (built in its own blueprint); linked by path when its endpoint is not registered.


def vin_search_url(vin: str) -> str:
    """The VIN search page opened on `vin`."""
    return url_for("vehicles_views.search", vin=vin)


@bp.get("/vin/preview")
@public
@preview_throttle
def preview_page() -> Response:
    raw = request.args.get("vin")
    if raw is None:
        return _render({"vin": "", "result": None, "stats": None, "error": None}, 200)
    try:
        result = preview.preview(raw)
        stats = teaser.teaser_stats(result["vin"])
    except ApiError as error:
        return _render({"vin": raw, "result": None, "stats": None, "error": error.message}, error.status, error.code)
    context = {"vin": result["vin"], "result": result, "stats": stats, "error": None}
    return _render({**context, "search_url": vin_search_url(result["vin"])}, 200)


@bp.errorhandler(RateLimitExceeded)
def _throttled(_error: RateLimitExceeded) -> Response:
    """Keep the visitor on the VIN box with the reason, instead of a bare error page."""
    message = _("Too many VIN lookups from your address. Please wait a minute and try again.")
    context = {"vin": request.args.get("vin", ""), "result": None, "stats": None, "error": message}
    return _render(context, 429, "rate_limited")


def _render(context: dict[str, Any], status: int, code: str = "refused") -> Response:
    """The whole page, or for HTMX the fragment alone; a refusal's status through core.htmx.swappable (htmx 2 swaps
    only 2xx answers, so a fragment is always 200)."""
    template = "vehicles/_preview.html" if wants_fragment() else "vehicles/preview.html"
    return swappable(make_response(render_template(template, **context), status), code)
