"""The shelf's request throttles, shared by its API and pages."""

from __future__ import annotations

from app.core import throttle
from app.extensions import limiter

# Per dealer, the API and the page together: each upload is read for its preview (up to 50 MB of spreadsheet: CPU)
# and kept in the database; a shop corrects and uploads its list again a few times, a script must not loop.
upload_throttle = limiter.shared_limit(
    throttle.setting("SHELF_UPLOAD_RATE_LIMIT"), scope="shelf-upload", key_func=throttle.user_or_address
)
