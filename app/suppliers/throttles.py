"""The suppliers' request throttles, shared by their API and pages."""

from __future__ import annotations

from app.core import throttle
from app.extensions import limiter

# Per member, the API and the pages together: each upload is read for its preview and kept in the database.
upload_throttle = limiter.shared_limit(
    throttle.setting("SUPPLIER_UPLOAD_RATE_LIMIT"), scope="supplier-upload", key_func=throttle.user_or_address
)
