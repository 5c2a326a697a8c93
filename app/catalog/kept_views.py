"""A drawing's part views kept in the process by everything they are made from, so a drawing shown again (to the
same dealer or another, as JSON or as the page, whose fragment key is the views' digest) skips making a hundred views.

The key is what app.catalog.services.part_view reads: each row's values up to the dealer's switch, the reference
rows' targets, the language, which facts colleagues answered, and the dealer's shelf list in use (put on the views
before they are kept: a list's rows never change once in use), all serialised (a parsed JSON document or list is
not hashable). The same input gives the same views, so a kept page is never stale and nothing is invalidated; a page
whose values cannot be serialised exactly is made afresh.

Keys and views are kept as orjson bytes, and each hit is parsed again: the request gets views of its own, and the
cache holds no container the garbage collector would walk on every full collection (a hundred thousand dicts of kept
views made each one slower). Bounded in bytes (DEFAULT_MAX_BYTES), the least recently used page going first.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from contextlib import suppress
from typing import Any

import orjson
import sqlalchemy as sa

DEFAULT_MAX_BYTES = 16 * 1024 * 1024
View = dict[str, Any]


class KeptViews:
    def __init__(self, max_bytes: int = DEFAULT_MAX_BYTES) -> None:
        self.max_bytes = max_bytes
        self.size = 0
        self._pages: OrderedDict[bytes, bytes] = OrderedDict()
        self._lock = threading.Lock()

    def views(self, key: bytes | None, make: Callable[[], list[View]]) -> list[View]:
        """The views kept under `key` (parsed afresh), else `make`'s, kept (a None key: made, not kept)."""
        if key is None or self.max_bytes <= 0:
            return make()
        with self._lock:
            found = self._pages.get(key)
            if found is not None:
                self._pages.move_to_end(key)
        if found is not None:
            return orjson.loads(found)
        made = make()
        with suppress(TypeError):  # a value JSON cannot hold exactly: not kept
            self._keep(key, orjson.dumps(made))
        return made

    def _keep(self, key: bytes, views: bytes) -> None:
        size = len(key) + len(views)
        if size > self.max_bytes:
            return
        with self._lock:
            if key in self._pages:
                return
            self._pages[key] = views
            self.size += size
            while self.size > self.max_bytes:
                gone_key, gone = self._pages.popitem(last=False)
                self.size -= len(gone_key) + len(gone)


def page_key(parts: Sequence[sa.Row], width: int, context: tuple[Any, ...], targets: Mapping[str, int]) -> bytes | None:
    """The key of a page of rows: each row's first `width` values, the targets and the `context` (language,
    colleagues' facts, the shelf list in use), serialised; None when a value cannot be serialised."""
    try:
        return orjson.dumps(
            [context, sorted(targets.items()), [tuple(part[:width]) for part in parts]], option=orjson.OPT_SORT_KEYS
        )
    except TypeError:  # orjson.JSONEncodeError
        return None
