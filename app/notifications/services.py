"""E-mail: every message is rendered from a template and written to the outbox; the log says that it was.

The default backend keeps messages in the outbox table (and logs their subject), so development and tests need no
mail server. Links in verification and reset messages are plain links, never tracking links.
"""

from __future__ import annotations

import logging

from flask import current_app, render_template
from flask_babel import force_locale

from app.extensions import db
from app.notifications.models import OutboxEmail

log = logging.getLogger(__name__)


def send_email(to_address: str, template: str, locale: str = "tr", **context: object) -> OutboxEmail:
    """Render `templates/notifications/<template>.txt` (first line is the subject) and queue it in the outbox."""
    with force_locale(locale):
        rendered = render_template(f"notifications/{template}.txt", base_url=current_app.config["BASE_URL"], **context)
    subject, _, body = rendered.strip().partition("\n")
    message = OutboxEmail(to_address=to_address, template=template, subject=subject.strip(), body_text=body.strip())
    db.session.add(message)
    db.session.flush()
    log.info("e-mail %s queued for %s (outbox id %s)", template, _mask(to_address), message.id)
    return message


def _mask(address: str) -> str:
    local, _, domain = address.partition("@")
    return f"{local[:2]}***@{domain}"
