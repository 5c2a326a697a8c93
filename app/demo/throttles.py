"""The demo's request throttles, shared by its API and pages."""

from __future__ import annotations

from flask_limiter.util import get_remote_address

from app.core import throttle
from app.extensions import limiter

# One budget per address for the whole demo, and a tighter one for the search, which reads the whole catalog.
demo_throttle = limiter.shared_limit(throttle.setting("DEMO_RATE_LIMIT"), scope="demo", key_func=get_remote_address)
search_throttle = limiter.limit(
    throttle.setting("DEMO_SEARCH_RATE_LIMIT"), key_func=get_remote_address, scope="demo-search"
)
