"""E-mail: every message is rendered from its template, in the recipient's language, and written to the outbox in the
caller's transaction; its `email` job is queued when that transaction commits (app.notifications.delivery).

A template is plain text (`templates/notifications/<name>.txt`, first line the subject); the HTML part is made from
it: paragraphs, links, and a line that is only a link becomes the message's button. One text to keep per message,
both parts always saying the same. Links in verification and reset messages are plain links, never tracking links.
"""

from __future__ import annotations

import logging
import re

from flask import current_app, render_template
from flask_babel import force_locale
from markupsafe import Markup, escape

from app.core.db import insert_for, utcnow
from app.core.text import masked_email
from app.extensions import db
from app.notifications import tracking
from app.notifications.delivery import queue_after_commit
from app.notifications.models import EmailAttachment, OutboxEmail
from app.notifications.transport import Attachment

log = logging.getLogger(__name__)

LINK = re.compile(r"https?://[^\s<>\"']+")
LOCALES = ("tr", "en")


def send_email(
    to_address: str,
    template: str,
    locale: str | None = "tr",
    reply_to: str | None = None,
    dedupe_key: str | None = None,
    attachments: tuple[Attachment, ...] = (),
    **context: object,
) -> OutboxEmail | None:
    """Render `templates/notifications/<template>.txt` in `locale` and write it to the outbox, with its `attachments`.
    A message with a `dedupe_key` already written is not written again (None is returned)."""
    locale = locale if locale in LOCALES else "tr"
    with force_locale(locale):
        rendered = render_template(
            f"notifications/{template}.txt",
            base_url=current_app.config["BASE_URL"],
            cta=lambda path: tracking.cta_url(template, path),
            **context,
        )
        subject, _, body = rendered.strip().partition("\n")
        subject, body = subject.strip(), body.strip()
        html = render_template("notifications/_layout.html", subject=subject, blocks=html_blocks(body), lang=locale)
    values = {
        "to_address": to_address,
        "reply_to": reply_to,
        "template": template,
        "locale": locale,
        "subject": subject[:255],
        "body_text": body,
        "body_html": html,
        "dedupe_key": dedupe_key,
    }
    message = _written(values)
    if message is None:
        log.info("e-mail %s (%s) was written before: not again", template, dedupe_key)
        return None
    for attachment in attachments:
        db.session.add(
            EmailAttachment(
                outbox_id=message.id,
                filename=attachment.filename,
                content_type=attachment.content_type,
                data=attachment.data,
            )
        )
    db.session.flush()
    queue_after_commit(message.id)
    log.info("e-mail %s queued for %s (outbox id %s)", template, masked_email(to_address), message.id)
    return message


def _written(values: dict[str, object]) -> OutboxEmail | None:
    if values["dedupe_key"] is None:
        message = OutboxEmail(**values)
        db.session.add(message)
        db.session.flush()
        return message
    outbox_id = db.session.scalar(
        insert_for(db.session, OutboxEmail)
        .values(**values, status="pending", attempts=0, created_at=utcnow())
        .on_conflict_do_nothing(index_elements=[OutboxEmail.dedupe_key])
        .returning(OutboxEmail.id)
    )
    return db.session.get(OutboxEmail, outbox_id) if outbox_id is not None else None


def html_blocks(text: str) -> list[dict[str, str | Markup]]:
    """The text's paragraphs: a paragraph that ends in a line that is only a link becomes its lead-in line and a button
    to the link (the address also shown, to copy); any other is its lines, escaped, with their links."""
    blocks: list[dict[str, str | Markup]] = []
    for paragraph in re.split(r"\n\s*\n", text):
        lines = [line.strip() for line in paragraph.splitlines() if line.strip()]
        if not lines:
            continue
        if LINK.fullmatch(lines[-1]) and len(lines) <= 2:
            lead = lines[0] if len(lines) == 2 else ""
            blocks.append({"kind": "button", "lead": lead, "url": lines[-1]})
        else:
            blocks.append({"kind": "text", "html": Markup("<br>").join(_linked(line) for line in lines)})
    return blocks


def _linked(line: str) -> Markup:
    parts, last = [], 0
    for found in LINK.finditer(line):
        url = found.group()
        parts += [escape(line[last : found.start()]), Markup('<a href="{0}">{0}</a>').format(url)]
        last = found.end()
    parts.append(escape(line[last:]))
    return Markup("").join(parts)
