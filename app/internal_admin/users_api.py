"""The founder's user operations under /api/internal/admin/users (X-Internal-Token): suspend, ban, reactivate and a
read-only impersonation; and the public one-shot link that opens an impersonation session in a browser."""

from __future__ import annotations

from flask import Blueprint, jsonify, redirect, request

from app.auth.sessions import set_session_cookie
from app.core.db import writes_data
from app.core.openapi import INTERNAL, documented
from app.core.security import public
from app.internal_admin import users
from app.internal_admin.audit import audited
from app.internal_admin.guard import InternalBlueprint, read_actor
from app.internal_admin.schemas import (
    ActorBody,
    ImpersonateBody,
    Impersonation,
    InternalHeaders,
    ReactivateBody,
    StatusChanged,
)

bp = InternalBlueprint("internal_admin_users", __name__, url_prefix="/users")
consume_bp = Blueprint("impersonation", __name__)

INTERNAL_CALL = {"headers": InternalHeaders, "security": INTERNAL, "public": True}


def _status_route(action: str, body: type, summary: str) -> None:
    def change(user_id: str):
        actor, _body = read_actor(reason_required=action != "reactivate")
        with audited(actor, f"user.{action}", "user", user_id) as record:
            user = users.target_user(user_id)
            record.before = {"status": user.status}
            change = users.change_status(user, action, actor.founder_id, actor.reason)
            record.after = {"status": change.current, "sessionsKilled": change.sessions_killed}
        return jsonify(change.as_json())

    change.__name__ = change.__qualname__ = action  # the endpoint and the OpenAPI operation id
    view = documented(StatusChanged, body=body, errors=(401, 403, 404, 409), summary=summary, **INTERNAL_CALL)(change)
    bp.add_url_rule(f"/<user_id>/{action}", view_func=view, methods=["POST"])


_status_route("suspend", ActorBody, "Suspend a user: their sessions end at once")
_status_route("ban", ActorBody, "Ban a user: their sessions end at once")
_status_route("reactivate", ReactivateBody, "Reactivate a suspended or banned user")


@bp.post("/<user_id>/impersonate-readonly")
@documented(
    Impersonation,
    body=ImpersonateBody,
    errors=(400, 401, 403, 404, 409),
    summary="Open a read-only session of a user",
    **INTERNAL_CALL,
)
def impersonate(user_id: str):
    actor, body = read_actor()
    with audited(actor, "user.impersonate_readonly", "user", user_id) as record:
        user = users.target_user(user_id)
        minutes = users.ttl_minutes(body.get("ttlMinutes"))
        opened = users.impersonate(user, actor.founder_id, minutes)
        record.after = {"ttlMinutes": minutes, "sessionIdPrefix": opened["sessionIdPrefix"]}
    return jsonify(opened)


@consume_bp.get(users.CONSUME_PATH)
@public
@writes_data
def consume():
    """The founder's browser follows the link: it gets the read-only session's cookie and lands on /."""
    row = users.consume(request.args.get("t", ""))
    response = redirect("/", code=302)
    set_session_cookie(response, row)
    return response
