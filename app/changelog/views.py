"""The "what's new" page (/whats-new) for signed-in users."""

from __future__ import annotations

from flask import Blueprint, render_template, request
from flask_babel import lazy_gettext as _l

from app.changelog import services
from app.core.security import shop_role
from app.core.validation import int_arg

bp = Blueprint("changelog_pages", __name__)

TYPE_LABELS = {
    "feature": _l("New"),
    "improvement": _l("Improved"),
    "fix": _l("Fixed"),
    "security": _l("Security"),
    "catalog": _l("Catalog"),
}


@bp.get("/whats-new")
@shop_role("clerk")
def page():
    number = int_arg(request.args, "page", 1, maximum=10_000)
    items, more = services.entries(number)
    return render_template("changelog/whats_new.html", items=items, page=number, has_more=more, labels=TYPE_LABELS)
