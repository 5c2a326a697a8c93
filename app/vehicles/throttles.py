"""The vehicles domain's request throttles, shared by its API and page routes."""

from __future__ import annotations

from flask_limiter.util import get_remote_address

from app.core import throttle
from app.extensions import limiter

_preview_limit = throttle.setting("VIN_PREVIEW_RATE_LIMIT")
# The preview API and the preview page share one budget per address: both can cost upstream calls.
preview_throttle = limiter.shared_limit(_preview_limit, scope="vin-preview", key_func=get_remote_address)
teaser_throttle = limiter.limit(_preview_limit, key_func=get_remote_address, scope="vin-teaser")
