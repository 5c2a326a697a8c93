"""A number looked up on the signed-in dealer's list in use: GET /api/shelf/lookup?number=."""

from __future__ import annotations

from flask import Blueprint, jsonify, request
from flask_babel import gettext as _
from flask_login import current_user

from app.core.errors import ApiError
from app.core.openapi import documented
from app.core.security import shop_role
from app.shelf import lookup
from app.shelf.lookup_schemas import ShelfLookup, ShelfLookupQuery

bp = Blueprint("shelf_lookup_api", __name__, url_prefix="/api/shelf")


@bp.get("/lookup")
@shop_role("clerk")
@documented(ShelfLookup, query=ShelfLookupQuery, errors=(400, 404))
def lookup_number():
    """The list's row for a number (OEM, own code or aftermarket), with its current number when it is replaced."""
    number, key = lookup.parse_number(request.args.get("number"))
    hit = lookup.shelf_for(current_user.id, [number]).get(key)
    if hit is None:
        raise ApiError("not_on_shelf", _("This number is not on your list."), 404)
    return jsonify(searchKey=key, **lookup.hit_view(hit))
