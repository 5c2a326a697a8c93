"""The site's request throttles, shared by its API and page routes."""

from __future__ import annotations

from flask_limiter.util import get_remote_address

from app.core import throttle
from app.extensions import limiter

# The contact form's page and API share one budget per address: each message is a mail to the team.
contact_throttle = limiter.limit(throttle.setting("CONTACT_RATE_LIMIT"), key_func=get_remote_address, scope="contact")
