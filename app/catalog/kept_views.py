"""A drawing's part views kept in the process by everything they are made from, so a drawing shown again (to the
same dealer or another, as JSON or as the page, whose fragment key is the views' digest) skips making a hundred views.

The key is what app.catalog.services.part_view reads: each row's values up to the dealer's switch (serialised: a
parsed JSON document or list is not hashable), the reference rows' targets, the language, and which facts colleagues
answered. The same input gives the same views, so a kept page is never stale and nothing is invalidated;
a row whose values cannot be keyed is made afresh. The kept views are shared: their readers copy before changing
(app.catalog.on_shelf, app.catalog.fit.presenters). Bounded by the rows kept (PART_VIEW_CACHE_ROWS), the least
recently used page going first.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any

import orjson
import sqlalchemy as sa

DEFAULT_MAX_ROWS = 20_000  # about 1.5 kB a row: some 30 MB a process
View = dict[str, Any]


class KeptViews:
    def __init__(self, max_rows: int = DEFAULT_MAX_ROWS) -> None:
        self.max_rows = max_rows
        self.rows = 0
        self._pages: OrderedDict[Hashable, list[View]] = OrderedDict()
        self._lock = threading.Lock()

    def views(self, key: Hashable | None, make: Callable[[], list[View]]) -> list[View]:
        """The kept views under `key`, else `make`'s, kept (a None key: made, not kept)."""
        if key is None or self.max_rows <= 0:
            return make()
        try:
            with self._lock:
                found = self._pages.get(key)
                if found is not None:
                    self._pages.move_to_end(key)
                    return found
        except TypeError:  # a value in the key is not hashable
            return make()
        made = make()
        if len(made) <= self.max_rows:
            self._keep(key, made)
        return made

    def _keep(self, key: Hashable, views: list[View]) -> None:
        with self._lock:
            if key in self._pages:
                return
            self._pages[key] = views
            self.rows += len(views)
            while self.rows > self.max_rows:
                _key, gone = self._pages.popitem(last=False)
                self.rows -= len(gone)

    def clear(self) -> None:
        with self._lock:
            self._pages.clear()
            self.rows = 0


def page_key(
    parts: Sequence[sa.Row], width: int, context: tuple[Hashable, ...], targets: Mapping[str, int]
) -> Hashable | None:
    """The key of a page of rows: each row's first `width` values serialised (JSON documents and lists among them),
    the targets and the `context` (language, colleagues' facts); None when a value cannot be serialised exactly."""
    try:
        rows = orjson.dumps([tuple(part[:width]) for part in parts], option=orjson.OPT_SORT_KEYS)
    except orjson.JSONEncodeError:
        return None
    return (context, tuple(sorted(targets.items())), rows)
