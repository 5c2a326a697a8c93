"""The pairing's throttles: creating pairings and polling them per user, a phone's sends and photos per address."""

from __future__ import annotations

from flask_limiter.util import get_remote_address

from app.core import throttle
from app.extensions import limiter

create_throttle = limiter.limit(
    throttle.setting("VIN_PAIRING_RATE_LIMIT"), key_func=throttle.user_or_address, scope="vin-pairing"
)
# A page polls every 1.5 s while its QR code is shown (40 a minute); the default per-address limit would stop a shop's
# counters sharing one address.
poll_throttle = limiter.limit("120 per minute", key_func=throttle.user_or_address, scope="vin-pairing-poll")
send_throttle = limiter.limit(
    throttle.setting("VIN_PAIRING_SEND_RATE_LIMIT"), key_func=get_remote_address, scope="vin-pairing-send"
)
# A signed-out phone's photos read through its link: a budget of its own, as each read costs CPU (barcodes, then OCR).
photo_throttle = limiter.limit(
    throttle.setting("VIN_PAIRING_PHOTO_RATE_LIMIT"), key_func=get_remote_address, scope="vin-pairing-photo"
)
