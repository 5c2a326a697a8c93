"""The contact form: a visitor's message mailed to the team (through the outbox) with the sender as reply-to. The
captcha is checked when a secret is set; every field is HTML-escaped before it reaches the message."""

from __future__ import annotations

from email.utils import parseaddr
from typing import Any

from flask import current_app
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from markupsafe import escape

from app.accounts.services import normalize_email, validate_email
from app.auth.captcha import verify_captcha
from app.core.errors import ApiError
from app.core.validation import text_field
from app.notifications.services import send_email

NAME, EMAIL, MESSAGE = _l("Name"), _l("E-mail"), _l("Message")
MESSAGE_MIN, MESSAGE_MAX = 10, 5000


def send_contact_message(data: dict[str, Any], remote_ip: str | None) -> None:
    """Check the captcha and the fields, then write the message to the outbox (refusals write nothing)."""
    verify_captcha(data.get("captchaToken") if isinstance(data.get("captchaToken"), str) else None, remote_ip)
    name = text_field(data, "name", NAME, max_length=100)
    email = validate_email(normalize_email(text_field(data, "email", EMAIL, max_length=254)))
    message = text_field(data, "message", MESSAGE, max_length=MESSAGE_MAX)
    if len(message) < MESSAGE_MIN:
        raise ApiError("message_too_short", _("Please write at least %(min)d characters.", min=MESSAGE_MIN), 400)
    send_email(
        _team_address(),
        "contact_message",
        locale="tr",
        reply_to=email,
        sender_name=str(escape(name)),
        sender_email=str(escape(email)),
        message=str(escape(message)),
    )


def _team_address() -> str:
    config = current_app.config
    return config["CONTACT_EMAIL"] or config["ADMIN_EMAIL"] or parseaddr(config["MAIL_FROM"])[1]
