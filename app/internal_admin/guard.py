"""Authentication of the internal admin API by a shared token, and the founder and reason every call carries.

Internal routes are not session routes: the founder panel calls them server to server with `X-Internal-Token`.
`InternalBlueprint` checks the token before every view of the blueprint and marks each view public for the session
guard (`app.auth.guards`), so a blueprint built from it can never hold a route open without the token. Later
internal endpoints (users, subscriptions, refunds) make their own `InternalBlueprint` or add views to `api.bp`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, current_app, request
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from app.core.db import writes_data
from app.core.errors import ApiError
from app.core.security import public, token_is_valid
from app.core.validation import json_body, text_field

log = logging.getLogger("app.internal_admin")

URL_PREFIX = "/api/internal/admin"
AUTH_HEADER = "X-Internal-Token"
CONFIG_KEY = "INTERNAL_API_TOKEN"

REASON = _l("Reason")
FOUNDER_ID = _l("Founder id")
REASON_MAX_LENGTH = 500
FOUNDER_ID_MAX_LENGTH = 100


def require_internal_token() -> None:
    """Refuse the request with 401 unless it carries the configured internal token (never logged or echoed)."""
    if token_is_valid(request.headers.get(AUTH_HEADER), current_app.config.get(CONFIG_KEY)):
        return
    reason = "no token configured" if not current_app.config.get(CONFIG_KEY) else "missing or wrong token"
    log.warning("internal call refused (%s): %s %s from %s", reason, request.method, request.path, request.remote_addr)
    raise ApiError("invalid_internal_token", _("A valid internal token is required for this call."), 401)


def token_guarded(view: Callable[..., Any]) -> Callable[..., Any]:
    """Mark a view as authenticated by the internal token instead of a session (the session guard lets it pass)."""
    view.token_guarded = True  # type: ignore[attr-defined]
    return public(view)


class InternalBlueprint(Blueprint):
    """A blueprint under /api/internal/admin whose every view needs the internal token and no session."""

    def __init__(self, name: str, import_name: str, url_prefix: str = "") -> None:
        super().__init__(name, import_name, url_prefix=URL_PREFIX + url_prefix)
        self.before_request(require_internal_token)
        self.after_request(_record_call)

    def add_url_rule(
        self,
        rule: str,
        endpoint: str | None = None,
        view_func: Callable[..., Any] | None = None,
        provide_automatic_options: bool | None = None,
        **options: Any,
    ) -> None:
        if view_func is not None:
            token_guarded(writes_data(view_func))  # every call, reads too, writes its audit entry
        super().add_url_rule(rule, endpoint, view_func, provide_automatic_options, **options)


def _record_call(response: Any) -> Any:
    from app.internal_admin.audit import record_call  # the audit imports this module

    return record_call(response)


@dataclass(frozen=True)
class Actor:
    """Who asked for an internal action and why (reason is empty only where the spec lets it be omitted)."""

    founder_id: str
    reason: str


def read_actor(*, reason_required: bool = True) -> tuple[Actor, dict[str, Any]]:
    """The JSON body with its founderId and reason, checked before anything is written."""
    body = json_body()
    actor = Actor(
        founder_id=text_field(body, "founderId", FOUNDER_ID, max_length=FOUNDER_ID_MAX_LENGTH),
        reason=text_field(body, "reason", REASON, max_length=REASON_MAX_LENGTH, required=reason_required),
    )
    return actor, body


def log_action(actor: Actor, action: str, target: str, **details: Any) -> None:
    """Record an internal action at INFO: who, why, what, on which target and with what result (never the token)."""
    log.info(
        "internal action %s on %s by founder %r, reason %r: %s", action, target, actor.founder_id, actor.reason, details
    )
