"""Where a supplier's list may be pulled from: an HTTP(S) URL, never one of our own network's addresses (SSRF: a
private, loopback, link-local or reserved address) unless SUPPLIER_PULL_ALLOW_PRIVATE says so. The host's name is
checked when it is saved (an address written out, `localhost`) and each of its resolved addresses when it is pulled;
the pull then connects to the very address it checked (`checked_addresses`, app.suppliers.pulls), so a name that
resolves to a public address for the check and to a private one a moment later (DNS rebinding) gains nothing."""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit

from flask import current_app
from flask_babel import gettext as _

from app.core.errors import ApiError

URL_LENGTH = 2000
SCHEMES = ("http", "https")
LOCAL_NAMES = ("localhost", "localhost.localdomain")


def _bad_url() -> ApiError:
    return ApiError(
        "invalid_url", _("Enter the list's address as http:// or https://, without a user name in it."), 400
    )


def private_refused() -> ApiError:
    return ApiError("private_address", _("The list's address points into a private network: it cannot be pulled."), 400)


def private_allowed() -> bool:
    return bool(current_app.config.get("SUPPLIER_PULL_ALLOW_PRIVATE"))


def is_private(address: str) -> bool:
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    return not ip.is_global or ip.is_multicast


def checked_url(url: str) -> str:
    """The URL as given when it is HTTP(S), has a host, carries no credentials and names no private address."""
    url = url.strip()
    try:
        parts = urlsplit(url)
        port = parts.port  # a bad port raises ValueError
    except ValueError:
        raise _bad_url() from None
    if len(url) > URL_LENGTH or parts.scheme not in SCHEMES or not parts.hostname or parts.username is not None:
        raise _bad_url()
    if port == 0 or any(char.isspace() for char in url):
        raise _bad_url()
    if not private_allowed() and _names_private(parts.hostname):
        raise private_refused()
    return url


def _names_private(host: str) -> bool:
    if host.lower().rstrip(".") in LOCAL_NAMES:
        return True
    try:
        return is_private(host)
    except ValueError:
        return False  # a name: its addresses are checked when it is pulled


class PrivateAddressError(Exception):
    """A host that resolved to a private address when the pull connected (not an OSError: nothing retries it)."""


def checked_addresses(host: str, port: int) -> list[str]:
    """The addresses a pull may connect to for `host`, in the resolver's order: resolved once, every one checked
    (unless private ones are allowed)."""
    found = list(dict.fromkeys(str(info[4][0]) for info in socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)))
    if not private_allowed() and any(is_private(address) for address in found):
        raise PrivateAddressError(host)
    return found


def check_resolved(url: str) -> None:
    """Before a pull: every address the URL's host resolves to is public (unless private ones are allowed)."""
    if private_allowed():
        return
    parts = urlsplit(url)
    try:
        found = socket.getaddrinfo(parts.hostname, parts.port or 443, type=socket.SOCK_STREAM)
    except OSError:
        return  # the request fails on it and says so
    if any(is_private(str(info[4][0])) for info in found):
        raise private_refused()
