"""The admins' user pages: /admin/users (search and filters), /admin/users/<id>, /admin/referrals."""

from __future__ import annotations

from flask import Blueprint, render_template, request

from app.admin.users import services as users
from app.core.errors import ApiError
from app.core.security import requires_role
from app.core.validation import int_arg

bp = Blueprint("admin_user_pages", __name__, url_prefix="/admin")


@bp.get("/users")
@requires_role("admin")
def user_list():
    page = int_arg(request.args, "page", 1, maximum=10_000)
    filters = {key: (request.args.get(key) or "")[:100] for key in ("q", "status", "plan")}
    try:
        items, more = users.search(filters["q"], filters["status"], filters["plan"], page)
    except ApiError as error:
        empty = {"items": [], "more": False, "page": 1}
        return render_template("admin/users.html", filters=filters, error=error.message, **empty), error.status
    return render_template("admin/users.html", items=items, more=more, page=page, filters=filters, error=None)


@bp.get("/users/<user_id>")
@requires_role("admin")
def user_detail(user_id: str):
    return render_template("admin/user.html", detail=users.detail(user_id))


@bp.get("/referrals")
@requires_role("admin")
def referral_list():
    page = int_arg(request.args, "page", 1, maximum=10_000)
    query = (request.args.get("q") or "")[:100]
    items, more = users.referrals(query, page)
    return render_template("admin/referrals.html", items=items, more=more, page=page, query=query)
