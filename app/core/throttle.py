"""What the route throttles share: limits read from settings, and the per-user key."""

from __future__ import annotations

from collections.abc import Callable

from flask import current_app
from flask_limiter.util import get_remote_address
from flask_login import current_user


def setting(name: str) -> Callable[[], str]:
    """A limit read from the app's settings when a request is checked (so tests and deployments can change it)."""
    return lambda: current_app.config[name]


# Who calls, when it is not told by the address or the session: the auth domain names a request made with a shop API
# key (`identify_callers_with`), so every limit counts per key. Core does not import the auth domain.
_identify: list[Callable[[], str | None]] = []


def identify_callers_with(identify: Callable[[], str | None]) -> None:
    """Let `identify` name the request's caller for the limits (None: not one it knows); the last given answers."""
    _identify[:] = [identify]


def _identified() -> str | None:
    return _identify[0]() if _identify else None


def caller() -> str:
    """The limits' default key: the API key a request is made with, else the address it comes from."""
    return _identified() or get_remote_address()


def user_or_address() -> str:
    """The API key a request is made with; else the signed-in user, whatever address they come from (a shop's
    counters share one); else the address."""
    identified = _identified()
    if identified:
        return identified
    return str(current_user.id) if current_user.is_authenticated else get_remote_address()
