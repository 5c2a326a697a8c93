"""/t/<token>: a message's tracked call to action, counted and redirected to its page on this site."""

from __future__ import annotations

from flask import Blueprint, redirect
from flask_babel import gettext as _

from app.core.db import utcnow, writes_data
from app.core.errors import ApiError
from app.core.security import public
from app.extensions import db
from app.notifications import tracking
from app.notifications.models import EmailClick

bp = Blueprint("mail_links", __name__)


@bp.get("/t/<token>")
@public
@writes_data
def follow(token: str):
    target = tracking.target_of(token)
    if target is None:
        raise ApiError("invalid_link", _("This link is invalid or was altered."), 404)
    template, path = target
    db.session.add(EmailClick(template=template, path=path, clicked_at=utcnow()))
    return redirect(path, code=302)
