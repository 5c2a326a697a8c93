"""The founder's operations on a user: suspend, ban, reactivate (spec "User status"), and a read-only impersonation
session with its one-shot consume link (spec "Authentication" 6).

Every refusal comes before any write; a suspended or banned user's sessions are deleted in the same transaction as
the status change, so the guard refuses them at once. Admins are refused for every operation.
"""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import sqlalchemy as sa
from flask import current_app
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from app.accounts.models import User
from app.auth.models import AuthSession
from app.auth.sessions import create_session, revoke_user_sessions
from app.core.db import utcnow
from app.core.errors import ApiError
from app.core.signing import sign, unsign
from app.extensions import db

TRANSITIONS = {"suspend": ("active", "suspended"), "ban": ("active", "banned"), "reactivate": (None, "active")}
STATUS_LABELS = {"active": _l("active"), "suspended": _l("suspended"), "banned": _l("banned")}
TTL_DEFAULT, TTL_MIN, TTL_MAX = 15, 1, 60
CONSUME_WINDOW = timedelta(seconds=60)
CONSUME_PATH = "/admin/impersonate/consume"
CONSUME_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,300}\.[A-Za-z0-9_-]{43}")


@dataclass(frozen=True)
class StatusChange:
    previous: str
    current: str
    sessions_killed: int
    changed_at: datetime

    def as_json(self) -> dict[str, Any]:
        return {
            "from": self.previous,
            "to": self.current,
            "sessionsKilled": self.sessions_killed,
            "changedAt": self.changed_at.isoformat(),
        }


def target_user(raw_id: str) -> User:
    """The user an operation names; 404 for an unknown or malformed id, 403 for an admin."""
    try:
        user_id = uuid.UUID(raw_id)
    except ValueError:
        user_id = None
    user = db.session.get(User, user_id) if user_id else None
    if user is None:
        raise ApiError("user_not_found", _("No such user was found."), 404)
    if user.role == "admin":
        raise ApiError("admin_protected", _("Admin accounts cannot be changed or impersonated."), 403)
    return user


def change_status(user: User, action: str, founder_id: str, reason: str) -> StatusChange:
    required, new_status = TRANSITIONS[action]
    if user.status == new_status:
        raise ApiError("same_status", _("The user is already %(status)s.", status=STATUS_LABELS[new_status]), 409)
    if required is not None and user.status != required:
        raise ApiError("reactivate_first", _("A suspended or banned user must be reactivated before this change."), 409)
    previous, now = user.status, utcnow()
    killed = revoke_user_sessions(user.id) if new_status != "active" else 0
    user.status, user.status_reason, user.status_changed_at = new_status, reason or None, now
    user.status_changed_by = founder_uuid(founder_id)
    db.session.flush()
    return StatusChange(previous, new_status, killed, now)


def founder_uuid(founder_id: str) -> uuid.UUID:
    """The founder's id as the UUID columns keep it: itself when it is one, else a stable UUID derived from it (the
    audit entry keeps it as given)."""
    try:
        return uuid.UUID(founder_id)
    except ValueError:
        return uuid.uuid5(uuid.NAMESPACE_URL, f"founder:{founder_id}")


def ttl_minutes(raw: Any) -> int:
    """ttlMinutes clamped to 1-60, 15 when absent; anything but a whole number is refused."""
    if raw is None:
        return TTL_DEFAULT
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise ApiError("invalid_ttl", _("ttlMinutes must be a whole number of minutes."), 400)
    return min(max(raw, TTL_MIN), TTL_MAX)


def impersonate(user: User, founder_id: str, minutes: int) -> dict[str, Any]:
    """A read-only session of `user` for `minutes`, and the one-shot link (valid CONSUME_WINDOW) that opens it."""
    if user.status != "active":
        raise ApiError("user_inactive", _("A suspended or banned user cannot be impersonated."), 409)
    row = create_session(
        user,
        persistent=False,
        lifetime=timedelta(minutes=minutes),
        impersonated_by=founder_uuid(founder_id),
        readonly=True,
    )
    link_expires = utcnow() + CONSUME_WINDOW
    token = consume_token(row.id, link_expires)
    return {
        "redirectUrl": f"{current_app.config['BASE_URL']}{CONSUME_PATH}?t={token}",
        "expiresAt": row.expires_at.isoformat(),
        "sessionIdPrefix": row.id[:8],
    }


# --- the consume link ----------------------------------------------------------------------------------------------


def _secret() -> bytes:
    return current_app.config["AUTH_SECRET"].encode()


def consume_token(session_id: str, expires: datetime) -> str:
    return sign(f"impersonate|{session_id}|{int(expires.timestamp())}".encode(), _secret())


def consume(token: str) -> AuthSession:
    """The impersonation session a genuine, unexpired, unused link opens; the link is spent. One refusal for all."""
    refused = ApiError("invalid_link", _("This link is invalid, expired or already used."), 400)
    if not CONSUME_TOKEN.fullmatch(token or ""):
        raise refused
    payload = unsign(token, _secret())
    if payload is None:
        raise refused
    kind, _bar, rest = payload.decode(errors="replace").partition("|")
    session_id, _bar, expires = rest.partition("|")
    if kind != "impersonate" or not expires.isdigit() or int(expires) < utcnow().timestamp():
        raise refused
    spent = db.session.execute(
        sa.update(AuthSession)
        .where(
            AuthSession.id == session_id,
            AuthSession.impersonation_readonly.is_(True),
            AuthSession.link_consumed_at.is_(None),
            AuthSession.expires_at > utcnow(),
        )
        .values(link_consumed_at=utcnow())
        .execution_options(synchronize_session=False)
    ).rowcount
    if not spent:
        raise refused
    return db.session.get(AuthSession, session_id)
