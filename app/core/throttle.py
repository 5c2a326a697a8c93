"""What the route throttles share: limits read from settings, and the per-user key."""

from __future__ import annotations

from collections.abc import Callable

from flask import current_app
from flask_limiter.util import get_remote_address
from flask_login import current_user


def setting(name: str) -> Callable[[], str]:
    """A limit read from the app's settings when a request is checked (so tests and deployments can change it)."""
    return lambda: current_app.config[name]


def user_or_address() -> str:
    """The signed-in user, whatever address they come from (a shop's counters share one); else the address."""
    return str(current_user.id) if current_user.is_authenticated else get_remote_address()
