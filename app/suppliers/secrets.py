"""A supplier's password or token, kept encrypted at rest: Fernet (AES-128-CBC with an HMAC) under a key derived from
the app's SECRET_KEY by HKDF, so a database dump alone does not give the supplier's portal away. The secret is sent
only to the supplier's own URL by the pull job; no page, answer or log line ever carries it. Rotating SECRET_KEY makes
the stored secrets unreadable: the pull then fails saying so, and a manager types them again."""

from __future__ import annotations

import base64

from cryptography.fernet import Fernet, InvalidToken
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from flask import current_app

KEY_PURPOSE = b"parca-bul supplier list secrets"


def _fernet() -> Fernet:
    secret_key = str(current_app.config["SECRET_KEY"]).encode()
    derived = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=KEY_PURPOSE).derive(secret_key)
    return Fernet(base64.urlsafe_b64encode(derived))


def seal(secret: str) -> str:
    """The secret encrypted, as stored."""
    return _fernet().encrypt(secret.encode()).decode("ascii")


def unseal(sealed: str) -> str | None:
    """The stored secret in clear, or None when it cannot be read (SECRET_KEY changed)."""
    try:
        return _fernet().decrypt(sealed.encode("ascii")).decode()
    except (InvalidToken, ValueError):
        return None
