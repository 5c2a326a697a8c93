"""The phone's side of a pairing: read a photo for its VIN candidates, then POST the chosen VIN to the link's token.
No session: the token is the only credential, so the session-cookie CSRF rule of /api applies only when the phone
happens to be signed in (then JSON, or the photo's multipart, from this site)."""

from __future__ import annotations

from flask import Blueprint, jsonify, request
from werkzeug.exceptions import RequestEntityTooLarge

from app.core.openapi import documented
from app.core.security import public
from app.core.uploads import takes_upload
from app.core.validation import json_body
from app.vehicles.answers import normalize_vin
from app.vehicles.pairing import services
from app.vehicles.pairing.throttles import photo_throttle, send_throttle
from app.vehicles.scan import reader
from app.vehicles.scan import services as scan
from app.vehicles.schemas import PairingSent, PairingVinBody, ScanAnswer, ScanForm

bp = Blueprint("vehicles_pairing_api", __name__, url_prefix="/api/vin/pairings")
bp.register_error_handler(RequestEntityTooLarge, scan.body_too_large)


@bp.post("/<token>/vin")
@documented(PairingSent, body=PairingVinBody, errors=(400, 403, 410, 429, 503), public=True)
@public
@send_throttle
def send_vin(token: str):
    """Send the VIN a phone scanned to the counter PC's page that showed the pairing link (once per link)."""
    vin = normalize_vin(json_body().get("vin"))
    services.send_vin(token, vin)
    return jsonify(vin=vin)


@bp.post("/<token>/photo")
@takes_upload(reader.MAX_BYTES)
@documented(ScanAnswer, form=ScanForm, errors=(410, 413, 422, 503), public=True)
@public
@photo_throttle
def scan_photo(token: str):
    """Read a photo for the VIN candidates (as POST /api/vin/scan) on a pairing link's phone; the link stays unspent."""
    photo = scan.uploaded_photo(request)  # the request's form first (415, 400), as on every upload route
    services.check_token(token)  # before the photo is decoded: a dead link costs no reading
    return jsonify(scan.scan(photo))
