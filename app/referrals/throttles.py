"""The referrals' request throttles, shared by their API and pages."""

from __future__ import annotations

from app.core import throttle
from app.extensions import limiter

# Per dealer: a few invitations an hour is a shop's work; a script must not mail the city.
invite_throttle = limiter.limit(
    throttle.setting("REFERRAL_INVITE_RATE_LIMIT"), key_func=throttle.user_or_address, scope="referral-invite"
)
