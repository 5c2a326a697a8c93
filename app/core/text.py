"""Text helpers every layer may use: the masked e-mail address shown or logged in place of the real one."""

from __future__ import annotations


def masked_email(address: str) -> str:
    """ay***@example.com: enough to recognise an address, not to write to it."""
    local, _at, domain = address.partition("@")
    return f"{local[:2]}***@{domain}"
