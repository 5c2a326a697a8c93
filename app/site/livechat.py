"""The live-chat widget: loaded on every page when LIVECHAT_HOST is set, with the signed-in user's verified identity.

The page includes a loader of ours (`static/js/livechat.js`, a same-origin file, so the CSP's `'self'` allows it as
every other script of the site: no inline script, no nonce). The loader asks `/api/livechat/identity` for the
identity when the user is signed in and verification is on, then loads the widget's script from LIVECHAT_HOST, which
the CSP lists in script-src, connect-src and frame-src (its websocket, LIVECHAT_WS_HOST, in connect-src). With no
LIVECHAT_HOST the pages carry nothing of it.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Any

from flask import current_app, url_for
from flask_login import current_user

from app.auth.guards import current_session


def identity(user_id: str) -> dict[str, Any]:
    """The widget's verified identity of `user_id`: the hex HMAC-SHA256 of the id; `enabled` False with no secret."""
    secret = current_app.config["LIVECHAT_IDENTITY_SECRET"]
    if not secret:
        return {"enabled": False, "userId": None, "hash": None}
    digest = hmac.new(secret.encode(), user_id.encode(), hashlib.sha256).hexdigest()
    return {"enabled": True, "userId": user_id, "hash": digest}


def page_widget() -> dict[str, Any]:
    """For every page: where the widget's script is and where the loader reads the identity (None: anonymous), or
    no widget at all."""
    host = current_app.config["LIVECHAT_HOST"]
    if not host:
        return {"livechat": None}
    return {
        "livechat": {"src": host.rstrip("/") + current_app.config["LIVECHAT_WIDGET_PATH"], "identity": _identity_url()}
    }


def _identity_url() -> str | None:
    """Only a user's own session is verified: a read-only impersonation must not chat in the dealer's name."""
    if not current_user.is_authenticated or not current_app.config["LIVECHAT_IDENTITY_SECRET"]:
        return None
    session = current_session()
    if session is not None and session.impersonated_by is not None:
        return None
    return url_for("site_support_api.livechat_identity")
