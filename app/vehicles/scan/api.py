"""Reading a VIN from a photo: POST /api/vin/scan (multipart, the photo in `image`)."""

from __future__ import annotations

from flask import Blueprint, jsonify, request
from werkzeug.exceptions import RequestEntityTooLarge

from app.core.openapi import documented
from app.core.security import shop_role
from app.core.uploads import takes_upload
from app.vehicles.scan import reader, services
from app.vehicles.schemas import ScanAnswer, ScanForm
from app.vehicles.throttles import scan_throttle

bp = Blueprint("vehicles_scan_api", __name__, url_prefix="/api/vin")
bp.register_error_handler(RequestEntityTooLarge, services.body_too_large)


@bp.post("/scan")
@shop_role("clerk")
@takes_upload(reader.MAX_BYTES)
@documented(
    ScanAnswer,
    form=ScanForm,
    errors=(413, 422),
    summary="Read a VIN from a photo (barcode, ruhsat or printed text): the candidates, best first",
)
@scan_throttle
def scan_photo():
    return jsonify(services.scan(services.uploaded_photo(request)))
