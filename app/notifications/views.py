"""The admins' mail page (/admin/mail): the outbox with each message's delivery state, and on the embedded default
the messages the local catcher received, readable with working links."""

from __future__ import annotations

from flask import Blueprint, abort, render_template
from flask_babel import lazy_gettext as _l

from app.core.security import requires_role
from app.notifications import mailbox
from app.notifications.services import html_blocks

bp = Blueprint("mail_pages", __name__, url_prefix="/admin/mail")

STATUSES = {"pending": _l("Waiting"), "sending": _l("Sending"), "sent": _l("Sent"), "failed": _l("Failed")}


@bp.get("")
@requires_role("admin")
def page():
    return render_template(
        "notifications/mailbox.html",
        caught=mailbox.caught(),
        local=mailbox.directory() is not None,
        outbox=mailbox.outbox(),
        counts=mailbox.outbox_counts(),
        statuses=STATUSES,
    )


@bp.get("/<name>")
@requires_role("admin")
def message(name: str):
    caught = mailbox.one(name)
    if caught is None:
        abort(404)
    return render_template("notifications/caught.html", message=caught, blocks=html_blocks(caught.text))
