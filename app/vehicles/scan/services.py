"""Reading a VIN from a photo: the reader's texts turned into ranked candidates, with the catalog's stored VINs."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import sqlalchemy as sa
from flask import Request, Response
from flask_babel import gettext as _
from werkzeug.exceptions import RequestEntityTooLarge

from app.core.errors import ApiError, error_response
from app.extensions import db
from app.vehicles.models import Vehicle
from app.vehicles.scan import reader
from app.vehicles.scan.candidates import Read, candidates

# Bound parameters per query (SQLite allows 32766, PostgreSQL 65535): a photo's readings (at most 64 a text, each with
# its single confusions) fit in one query; more are asked in chunks.
CHUNK = 5000


def stored_vins(vins: set[str]) -> set[str]:
    """The VINs among `vins` the catalog already stores (one query per CHUNK readings; a photo rarely needs two)."""
    ordered = sorted(vins)
    found: set[str] = set()
    for start in range(0, len(ordered), CHUNK):
        chunk = ordered[start : start + CHUNK]
        found.update(db.session.scalars(sa.select(Vehicle.vin).where(Vehicle.vin.in_(chunk)).distinct()))
    return found


def _holds_vin(reads: Iterable[Read]) -> bool:
    return bool(candidates(reads))


def uploaded_photo(request: Request) -> bytes:
    """The photo in a multipart request's `image` field, or a refusal: not multipart (415), none attached (400)."""
    if request.mimetype != "multipart/form-data":
        raise ApiError("unsupported_media_type", _("Send the photo as multipart/form-data, in the 'image' field."), 415)
    upload = request.files.get("image")
    data = upload.read() if upload is not None else b""
    if not data:
        raise ApiError("missing_image", _("Attach the photo in the 'image' field."), 400)
    return data


def body_too_large(_error: RequestEntityTooLarge) -> Response:
    """A photo route's answer to a body over its `takes_upload` limit (refused before it is read): the reader's 413."""
    refusal = reader.too_large()
    return error_response(refusal.code, refusal.message, refusal.status)


def scan(data: bytes) -> dict[str, Any]:
    """The VIN candidates a photo holds, best first, and whether text reading is on; a refusal when there is none."""
    reading = reader.read(data, _holds_vin)
    found = candidates(reading.reads, stored_vins)
    if not found:
        raise ApiError("no_vin_found", _no_vin_message(reading.text_reading), 422)
    answer: dict[str, Any] = {
        "candidates": [candidate.as_dict() for candidate in found],
        "textReading": reading.text_reading,
    }
    if not reading.text_reading:
        answer["notice"] = _("Reading printed text is off on this server: only barcodes were read.")
    return answer


def _no_vin_message(text_reading: bool) -> str:
    if text_reading:
        return _("No VIN was found in this photo. Take it closer, straight on and in good light, or type the VIN.")
    return _(
        "No VIN barcode was found in this photo, and reading printed text is off on this server. "
        "Photograph the VIN barcode, or type the VIN."
    )
