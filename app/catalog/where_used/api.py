"""Where an OEM code is used: GET /api/parts/<oem>/where-used (signed in; the vehicles the caller's plan opens); any
number looked up with its equivalents, shelf and offers: GET /api/parts/<number>/lookup."""

from __future__ import annotations

from flask import Blueprint, jsonify, request
from flask_babel import gettext as _
from flask_login import current_user

from app.catalog import numbers
from app.catalog.schemas import NumberLookup, WhereUsed, WhereUsedQuery
from app.catalog.where_used import services as where_used
from app.core.openapi import documented
from app.core.security import shop_role
from app.core.validation import int_arg
from app.equivalents.services import checked_number

bp = Blueprint("catalog_where_used_api", __name__, url_prefix="/api/parts")


# A path, so a code written with slashes ("N 910 455 01/02", sent as %2F or not) is still one; a code that starts
# with a slash, or is empty, is no route (404).
@bp.get("/<path:oem>/where-used", merge_slashes=False)
@shop_role("clerk")
@documented(WhereUsed, query=WhereUsedQuery, errors=(404,))
def lookup(oem: str):
    """Every stored vehicle and picture carrying the OEM code (spaces, dashes and case ignored), or an OEM code the
    number stands for on the caller's shelf list (his own code, an aftermarket number)."""
    code = where_used.parse_code(oem)
    limit = int_arg(request.args, "limit", where_used.DEFAULT_LIMIT, maximum=where_used.MAX_LIMIT)
    return jsonify(where_used.find(current_user, code, limit, via_shelf=True))


@bp.get("/<path:number>/lookup", merge_slashes=False)
@shop_role("clerk")
@documented(NumberLookup, errors=(404,))
def number_lookup(number: str):
    """Any number (an OEM number, an aftermarket or a supplier's code, an EAN, the shop's own code): its equivalents
    and where each came from, what of the group is on the shelf and offered by the shop's suppliers, the vehicles and
    drawings carrying it, and how many vehicles carry each equivalent."""
    checked_number(number, _("The number"))
    return jsonify(numbers.lookup(current_user, number))
