"""What the auth API and the auth pages share: starting a session for a response, rate-limit keys."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Response, request
from flask_limiter.util import get_remote_address

from app.accounts.models import User
from app.accounts.services import normalize_email
from app.auth.guards import current_session
from app.auth.models import AuthSession
from app.auth.sessions import (
    SessionRequestInfo,
    clear_session_cookie,
    create_session,
    revoke_session,
    set_session_cookie,
)
from app.core import throttle
from app.core.errors import ApiError
from app.core.validation import request_json
from app.extensions import limiter


def request_info() -> SessionRequestInfo:
    user_agent = (request.headers.get("User-Agent") or "").replace("\x00", "")  # PostgreSQL text refuses NUL
    return SessionRequestInfo(ip_address=request.remote_addr, user_agent=user_agent or None)


def end_current_session(response: Response) -> Response:
    """Delete the session behind this request's cookie (if any) and clear the cookie."""
    row = current_session()
    if row is not None:
        revoke_session(row.id)
    clear_session_cookie(response)
    return response


def open_session(user: User, remember: bool) -> AuthSession:
    return create_session(user, persistent=remember, info=request_info())


def signed_in(response: Response, row: AuthSession) -> Response:
    set_session_cookie(response, row)
    return response


def _email_key() -> str:
    data: Any = request.form
    if request.is_json:
        try:
            data = request_json()
        except ApiError:
            data = None  # the route refuses the body itself; the address counter still counts the attempt
    email = data.get("email") if isinstance(data, Mapping) else None
    return "email:" + normalize_email(email if isinstance(email, str) else "")


_sign_in_limit = throttle.setting("SIGN_IN_RATE_LIMIT")
# Applied to every sign-in and sign-up entry point, page or API: one counter per client address and one per e-mail
# address, shared by all of them (a per-route counter would multiply the limit by the number of entry points).
sign_in_throttle_by_ip = limiter.shared_limit(_sign_in_limit, scope="sign-in-ip", key_func=get_remote_address)
sign_in_throttle_by_email = limiter.shared_limit(_sign_in_limit, scope="sign-in-email", key_func=_email_key)
lookup_throttle = limiter.limit("30 per minute", key_func=get_remote_address, scope="email-lookup")
