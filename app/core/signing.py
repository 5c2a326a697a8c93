"""Tokens that carry their own payload: base64url of the payload, a dot, and base64url of its HMAC-SHA256 (cut to
`mac_size` bytes). What a token of this shape means is its user's business (app.notifications.tracking,
app.internal_admin.users); here only that it was made with the secret and not altered.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac


def sign(payload: bytes, secret: bytes, mac_size: int = 32) -> str:
    return f"{_b64(payload)}.{_b64(_mac(payload, secret, mac_size))}"


def unsign(token: str, secret: bytes, mac_size: int = 32) -> bytes | None:
    """The payload of a token `sign` made with `secret`; None for a forged, altered or malformed one (compared in
    constant time)."""
    encoded, dot, signature = token.partition(".")
    if not dot:
        return None
    try:
        payload, mac = _unb64(encoded), _unb64(signature)
    except (binascii.Error, ValueError):
        return None
    return payload if hmac.compare_digest(_mac(payload, secret, mac_size), mac) else None


def _mac(payload: bytes, secret: bytes, size: int) -> bytes:
    return hmac.new(secret, payload, hashlib.sha256).digest()[:size]


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
