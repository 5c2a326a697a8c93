"""The vehicles domain's request throttles, shared by its API and page routes."""

from __future__ import annotations

from flask_limiter.util import get_remote_address

from app.core import throttle
from app.extensions import limiter
from app.vehicles import refusals

_preview_limit = throttle.setting("VIN_PREVIEW_RATE_LIMIT")
# The preview API and the preview page share one budget per address: both can cost upstream calls.
preview_throttle = limiter.shared_limit(_preview_limit, scope="vin-preview", key_func=get_remote_address)
teaser_throttle = limiter.limit(_preview_limit, key_func=get_remote_address, scope="vin-teaser")

# One budget per user for every decode, on the API and on the VIN search page.
# Its refusals are logged as refused decodes (one row per client and window: app.vehicles.refusals).
decode_throttle = limiter.shared_limit(
    throttle.setting("DECODE_RATE_LIMIT"),
    scope="vin-decode",
    key_func=throttle.user_or_address,
    on_breach=refusals.log_throttled,
)

# Photos read for a VIN: per user like decoding, a budget of its own (each read costs CPU: barcodes, then OCR).
scan_throttle = limiter.limit(
    throttle.setting("VIN_SCAN_RATE_LIMIT"), scope="vin-scan", key_func=throttle.user_or_address
)
