"""Reading a VIN from a photo: POST /api/vin/scan (multipart, the photo in `image`)."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, request
from flask_babel import gettext as _
from werkzeug.exceptions import RequestEntityTooLarge

from app.core.errors import ApiError, error_response
from app.core.openapi import documented
from app.core.uploads import takes_upload
from app.vehicles.scan import reader, services
from app.vehicles.schemas import ScanAnswer, ScanForm
from app.vehicles.throttles import scan_throttle

bp = Blueprint("vehicles_scan_api", __name__, url_prefix="/api/vin")


@bp.post("/scan")
@takes_upload(reader.MAX_BYTES)
@documented(
    ScanAnswer,
    form=ScanForm,
    errors=(413, 422),
    summary="Read a VIN from a photo (barcode, ruhsat or printed text): the candidates, best first",
)
@scan_throttle
def scan_photo():
    if request.mimetype != "multipart/form-data":
        raise ApiError("unsupported_media_type", _("Send the photo as multipart/form-data, in the 'image' field."), 415)
    upload = request.files.get("image")
    data = upload.read() if upload is not None else b""
    if not data:
        raise ApiError("missing_image", _("Attach the photo in the 'image' field."), 400)
    return jsonify(services.scan(data))


@bp.errorhandler(RequestEntityTooLarge)
def _body_too_large(_error: RequestEntityTooLarge) -> Response:
    refusal = reader.too_large()
    return error_response(refusal.code, refusal.message, refusal.status)
