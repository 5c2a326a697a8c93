"""Server-side sessions: a row per signed-in browser; the cookie carries its id signed with AUTH_SECRET."""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta

import sqlalchemy as sa
from flask import Response, current_app
from sqlalchemy.orm import contains_eager

from app.accounts.models import User
from app.auth.models import AuthSession
from app.auth.session_cache import live_session
from app.core.db import utcnow
from app.extensions import db

COOKIE_NAME = "pb_session"
SESSION_LIFETIME = timedelta(days=30)
# A session id (token_urlsafe, at most the column's 64 characters), a dot and its unpadded base64url HMAC-SHA256.
SIGNED_ID = re.compile(r"[A-Za-z0-9_-]{1,64}\.[A-Za-z0-9_-]{43}")


def sign(session_id: str) -> str:
    mac = hmac.new(current_app.config["AUTH_SECRET"].encode(), session_id.encode(), hashlib.sha256).digest()
    return f"{session_id}.{base64.urlsafe_b64encode(mac).decode().rstrip('=')}"


def unsign(cookie_value: str) -> str | None:
    """Return the session id of a correctly signed cookie value, else None (compared in constant time)."""
    # Only our own alphabet reaches the HMAC: compare_digest refuses non-ASCII text, and no id is longer than 64.
    if not SIGNED_ID.fullmatch(cookie_value):
        return None
    session_id, _, _signature = cookie_value.partition(".")
    if not hmac.compare_digest(sign(session_id), cookie_value):
        return None
    return session_id


@dataclass(frozen=True)
class SessionRequestInfo:
    ip_address: str | None = None
    user_agent: str | None = None


def create_session(
    user: User,
    *,
    persistent: bool,
    info: SessionRequestInfo | None = None,
    lifetime: timedelta = SESSION_LIFETIME,
    impersonated_by: uuid.UUID | None = None,
    readonly: bool = False,
) -> AuthSession:
    info = info or SessionRequestInfo()
    row = AuthSession(
        id=secrets.token_urlsafe(32),
        user_id=user.id,
        expires_at=utcnow() + lifetime,
        persistent=persistent,
        impersonated_by=impersonated_by,
        impersonation_readonly=readonly,
        ip_address=(info.ip_address or "")[:45] or None,
        user_agent=(info.user_agent or "")[:255] or None,
    )
    db.session.add(row)
    db.session.flush()
    return row


def find_live_session(cookie_value: str | None) -> AuthSession | None:
    if not cookie_value:
        return None
    session_id = unsign(cookie_value)
    if session_id is None:
        return None
    return live_session(session_id, _read_live_session)


def _read_live_session(session_id: str) -> AuthSession | None:
    # Both rows in one statement built once, and the session's `user` then comes from the identity map without
    # another query (cheaper than `session.get` with a joined load, which is planned per call).
    return db.session.scalar(LIVE_SESSION, {"session_id": session_id, "now": utcnow()})


LIVE_SESSION = (
    sa.select(AuthSession)
    .options(contains_eager(AuthSession.user))
    .join(AuthSession.user)
    .where(AuthSession.id == sa.bindparam("session_id"), AuthSession.expires_at > sa.bindparam("now"))
)


def revoke_session(session_id: str) -> None:
    db.session.execute(sa.delete(AuthSession).where(AuthSession.id == session_id))


def revoke_user_sessions(user_id: uuid.UUID, keep: str | None = None) -> int:
    """Delete the user's sessions (all but `keep`) and say how many there were."""
    statement = sa.delete(AuthSession).where(AuthSession.user_id == user_id)
    if keep:
        statement = statement.where(AuthSession.id != keep)
    return db.session.execute(statement).rowcount


def set_session_cookie(response: Response, row: AuthSession) -> None:
    """Persistent sessions get a cookie that lasts as long as the session; others end with the browser."""
    expires: datetime | None = row.expires_at if row.persistent else None
    response.set_cookie(
        COOKIE_NAME,
        sign(row.id),
        expires=expires,
        httponly=True,
        secure=current_app.config["SESSION_COOKIE_SECURE"],
        samesite="Lax",
        path="/",
    )


def clear_session_cookie(response: Response) -> None:
    response.delete_cookie(
        COOKIE_NAME, path="/", httponly=True, secure=current_app.config["SESSION_COOKIE_SECURE"], samesite="Lax"
    )
