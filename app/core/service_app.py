"""The Flask application class the factory builds: Flask with per-request work that need not be per request kept once.

Flask asks `ensure_sync` of every hook and view on every request (about fifteen times a signed-in request), and
each answer walks `inspect.iscoroutinefunction` through the function's wrappers. A function's answer never changes,
so it is kept per function; the app has no `async def` views or hooks, and one added later is still wrapped.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Flask

MAX_KEPT = 4096  # far more than the app registers; functions made per call are not kept past it


class ServiceFlask(Flask):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._sync: dict[Callable[..., Any], Callable[..., Any]] = {}

    def ensure_sync(self, func: Callable[..., Any]) -> Callable[..., Any]:
        try:
            return self._sync[func]
        except KeyError:
            made = super().ensure_sync(func)
            if len(self._sync) < MAX_KEPT:
                self._sync[func] = made
            return made
        except TypeError:  # an unhashable callable: answered as Flask does
            return super().ensure_sync(func)
