"""Where a part's OEM code is used, from the vehicle page: GET /vehicles/<id>/parts/<partId>/where-used.

The parts table's "Used in" link (the `oem_code` macro, templates/catalog/_macros.html) loads the fragment in its own
place: a <details> opened on the list (templates/catalog/_where_used.html), which then closes and opens again without
another request. Without HTMX the same URL is a page around the same fragment. Both read the where-used service, as
GET /api/parts/<oem>/where-used does.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, render_template
from flask_login import current_user

from app.catalog import services
from app.catalog.fit.presenters import with_fit
from app.catalog.where_used import services as where_used
from app.core.errors import ApiError
from app.core.htmx import swappable, wants_fragment
from app.core.security import shop_role

bp = Blueprint("catalog_where_used", __name__, url_prefix="/vehicles/<int:vehicle_id>/parts")


@bp.get("/<int:part_id>/where-used")
@shop_role("clerk")
def panel(vehicle_id: int, part_id: int):
    """The vehicles and pictures carrying the part's code: the row's panel (HTMX), else a page."""
    try:
        vehicle = services.open_vehicle(current_user, vehicle_id)
        part = services.part_with_code(vehicle, part_id)
    except ApiError as error:
        if not wants_fragment():
            raise  # the error page, with its status
        return _answer({"part_id": part_id, "message": error.message}, error.status, error.code)
    found = where_used.find(current_user, part.search_code)
    found = {**found, "vehicles": [{**item, "parts": list(map(with_fit, item["parts"]))} for item in found["vehicles"]]}
    shown = sum(len(vehicle["parts"]) for vehicle in found["vehicles"])
    return _answer({"part_id": part.id, "oem_code": part.oem_code, "vehicle": vehicle, "found": found, "shown": shown})


def _answer(context: dict[str, Any], status: int = 200, code: str = "refused") -> Response:
    fragment = wants_fragment()
    template = "catalog/_where_used.html" if fragment else "catalog/where_used.html"
    return swappable(Response(render_template(template, fragment=fragment, **context), status=status), code)
