"""Captcha (Turnstile-style siteverify) on sign-in and sign-up, when CAPTCHA_SECRET is set."""

from __future__ import annotations

import logging

import requests
from flask import current_app
from flask_babel import gettext as _

from app.core.errors import ApiError

log = logging.getLogger(__name__)

CAPTCHA_HEADER = "x-captcha-response"
VERIFY_TIMEOUT_SECONDS = 5


def verify_captcha(token: str | None, remote_ip: str | None) -> None:
    """Refuse unless the provider confirms the token; a no-op when no secret is configured."""
    secret = current_app.config["CAPTCHA_SECRET"]
    if not secret:
        return
    if not token:
        raise ApiError("captcha_required", _("Please complete the security check."), 400)
    try:
        answer = requests.post(
            current_app.config["CAPTCHA_VERIFY_URL"],
            data={"secret": secret, "response": token, "remoteip": remote_ip or ""},
            timeout=VERIFY_TIMEOUT_SECONDS,
        )
        confirmed = answer.json().get("success") is True
    except (requests.RequestException, ValueError):
        log.warning("captcha provider did not answer", exc_info=True)
        raise ApiError(
            "captcha_unavailable", _("The security check could not be completed. Please try again."), 503
        ) from None
    if not confirmed:
        raise ApiError("captcha_failed", _("The security check failed. Please try again."), 403)
