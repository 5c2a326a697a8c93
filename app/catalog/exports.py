"""A leaf's parts list to take to the workshop: a CSV file for Excel and a page to print.

Both are checked as the leaf's page is (app.catalog.views.category): the caller's plan covers the vehicle's brand and
the category is the vehicle's; a group, which has no parts list, is not found. A refusal is the error page, in the
request's language. The public demo has neither (app.catalog.page_links: no endpoints given, so no links).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from flask import Blueprint, Response, render_template
from flask_babel import format_datetime, to_user_timezone
from flask_login import current_user

from app.catalog import parts_list, presenters, services
from app.catalog.fit.presenters import fit_label
from app.catalog.page_links import dealer_links
from app.core.db import utcnow
from app.core.security import shop_role
from app.vehicles.models import Vehicle

bp = Blueprint("catalog_exports", __name__, url_prefix="/vehicles/<int:vehicle_id>/categories/<int:category_id>")

FILENAME_SAFE = "!#$&+-.^_`|~"  # RFC 5987 attr-chars that need no percent-encoding in filename*


@bp.get("/parts.csv")
@shop_role("clerk")
def parts_csv(vehicle_id: int, category_id: int) -> Response:
    """The leaf's parts as a CSV file, named after the vehicle and the category."""
    vehicle, detail = _open_leaf(vehicle_id, category_id)
    category = presenters.node(detail["category"])
    name, ascii_name = parts_list.download_names(vehicle.title, category["label"], category["illustrationCode"])
    response = Response(parts_list.csv_text(detail["parts"]).encode(), content_type="text/csv; charset=utf-8")
    utf8_name = f"UTF-8''{quote(name, safe=FILENAME_SAFE)}"
    response.headers.set("Content-Disposition", "attachment", filename=ascii_name, **{"filename*": utf8_name})
    return response


@bp.get("/print")
@shop_role("clerk")
def print_view(vehicle_id: int, category_id: int) -> str:
    """The leaf on a page of its own to print: the vehicle, the category's path, the picture and the parts table."""
    vehicle, detail = _open_leaf(vehicle_id, category_id)
    printed_at = to_user_timezone(utcnow())  # the display zone (Europe/Istanbul), whatever the server's
    every_row = {**detail, "fit": {**(detail.get("fit") or {}), "fittingOnly": False}}  # each row says if it fits
    main = presenters.category_main(vehicle, every_row)
    order = {part["id"]: index for index, part in enumerate(detail["parts"])}  # the drawing's order, not fitting first
    return render_template(
        "catalog/print.html",
        vehicle=vehicle,
        main=main,
        rows=sorted([*main["parts"], *main["notFitting"]], key=lambda row: order[row["id"]]),
        fit_label=fit_label,
        links=dealer_links(vehicle.id),
        printed_at=format_datetime(printed_at, "medium"),
        printed_iso=printed_at.isoformat(timespec="minutes"),
    )


def _open_leaf(vehicle_id: int, category_id: int) -> tuple[Vehicle, dict[str, Any]]:
    vehicle = services.open_vehicle(current_user, vehicle_id)
    category = services.category_in(vehicle, category_id)
    return vehicle, parts_list.leaf_detail(vehicle, category, current_user)
