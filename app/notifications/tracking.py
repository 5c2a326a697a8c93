"""Signed tracking links for a message's calls to action: /t/<token> counts the click and redirects to a path of this
site. Only when TRACKING_SECRET is set; verification and reset links are never wrapped (their templates use `link`,
not `cta`).

The token is the template and the path, base64url, a dot, and their HMAC-SHA256 (first 16 bytes), so a forged or
altered token is refused, and only a site path (one leading slash) is ever a target: no open redirect.
"""

from __future__ import annotations

import re

from flask import current_app

from app.core.signing import sign, unsign

SAFE_PATH = re.compile(r"/(?![/\\])[^\s]{0,500}")
TOKEN = re.compile(r"[A-Za-z0-9_-]{1,1000}\.[A-Za-z0-9_-]{22}")
TEMPLATE_NAME = re.compile(r"[a-z_]{1,64}")
MAC_SIZE = 16  # bytes of the HMAC kept: a link in a mail stays short


def _secret() -> bytes:
    return (current_app.config.get("TRACKING_SECRET") or "").encode()


def cta_url(template: str, path: str) -> str:
    """The address a message's call to action links to: tracked when a secret is set, else the plain site address."""
    base = current_app.config["BASE_URL"]
    if not _secret() or not SAFE_PATH.fullmatch(path):
        return f"{base}{path}"
    return f"{base}/t/{sign(f'{template}|{path}'.encode(), _secret(), MAC_SIZE)}"


def target_of(token: str) -> tuple[str, str] | None:
    """(template, path) of a genuine token; None for a forged, altered or malformed one, or with no secret set."""
    if not _secret() or not TOKEN.fullmatch(token):
        return None
    payload = unsign(token, _secret(), MAC_SIZE)
    if payload is None:
        return None
    template, _bar, path = payload.decode(errors="replace").partition("|")
    if not TEMPLATE_NAME.fullmatch(template) or not SAFE_PATH.fullmatch(path):
        return None
    return template, path
