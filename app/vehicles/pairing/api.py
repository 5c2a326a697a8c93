"""The phone's side of a pairing: POST the VIN to the link's token. No session: the token is the only credential, so
the session-cookie CSRF rule of /api applies only when the phone happens to be signed in (then JSON from this site)."""

from __future__ import annotations

from flask import Blueprint, jsonify, request

from app.core.openapi import documented
from app.core.security import public
from app.vehicles.answers import normalize_vin
from app.vehicles.pairing import services
from app.vehicles.pairing.throttles import send_throttle
from app.vehicles.schemas import PairingSent, PairingVinBody

bp = Blueprint("vehicles_pairing_api", __name__, url_prefix="/api/vin/pairings")


@bp.post("/<token>/vin")
@documented(PairingSent, body=PairingVinBody, errors=(400, 403, 410, 429, 503), public=True)
@public
@send_throttle
def send_vin(token: str):
    """Send the VIN a phone scanned to the counter PC's page that showed the pairing link (once per link)."""
    vin = normalize_vin((request.get_json(silent=True) or {}).get("vin"))
    services.send_vin(token, vin)
    return jsonify(vin=vin)
