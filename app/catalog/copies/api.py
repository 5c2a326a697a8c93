"""Logging a copied OEM code: POST /api/vehicles/<vehicleId>/parts/<partId>/copy (signed in, brand access)."""

from __future__ import annotations

from flask import Blueprint, jsonify
from flask_login import current_user

from app.catalog.copies import services as copies
from app.catalog.schemas import Copied
from app.catalog.services import open_vehicle
from app.core import throttle
from app.core.openapi import documented
from app.core.security import shop_role
from app.extensions import limiter

bp = Blueprint("catalog_copies_api", __name__, url_prefix="/api/vehicles/<int:vehicle_id>/parts")


# Per user, whatever address they come from: a dealer copies a few codes a minute; a script must not fill the table.
copy_throttle = limiter.limit(
    throttle.setting("OEM_COPY_RATE_LIMIT"), key_func=throttle.user_or_address, scope="oem-copy"
)


@bp.post("/<int:part_id>/copy")
@shop_role("clerk")
@documented(Copied, status=201, errors=(404, 422), summary="Log that the caller copied a part's OEM code")
@copy_throttle
def copy(vehicle_id: int, part_id: int):
    vehicle = open_vehicle(current_user, vehicle_id)
    code = copies.record_copy(current_user, vehicle, part_id)
    return jsonify(status=True, oemCode=code), 201
