"""Users and referrals for admins under /api/admin: search, filters, one user's page, the referrals list."""

from __future__ import annotations

from flask import Blueprint, jsonify, request

from app.admin.schemas import ReferralsQuery, UserDetail, UserList, UsersQuery
from app.admin.users import services as users
from app.core.openapi import documented
from app.core.security import requires_role
from app.core.validation import int_arg

bp = Blueprint("admin_users_api", __name__, url_prefix="/api/admin")


@bp.get("/users")
@documented(UserList, query=UsersQuery, errors=(400,), summary="Users by name or e-mail, status and plan")
@requires_role("admin")
def user_list():
    page = int_arg(request.args, "page", 1, maximum=10_000)
    args = request.args
    items, more = users.search(args.get("q") or "", args.get("status") or "", args.get("plan") or "", page)
    return jsonify(items=items, page=page, hasMore=more)


@bp.get("/users/<user_id>")
@documented(UserDetail, errors=(404,), summary="One user: subscriptions, payments, decodes, sessions, referrals")
@requires_role("admin")
def user_detail(user_id: str):
    return jsonify(users.detail(user_id))


@bp.get("/referrals")
@documented(UserList, query=ReferralsQuery, summary="Every referral, newest first, searchable")
@requires_role("admin")
def referral_list():
    page = int_arg(request.args, "page", 1, maximum=10_000)
    items, more = users.referrals(request.args.get("q") or "", page)
    return jsonify(items=items, page=page, hasMore=more)
