"""Rendered template fragments kept by what they were rendered from.

A fragment's key is a digest of its template, the request's locale and script root, and every value of its context,
serialised in full: the same input gives the same HTML, so a kept fragment is never stale and nothing has to be
invalidated. A context holding a value that cannot be serialised exactly (an ORM object, say) is rendered afresh.
The cache lives in the process (a gunicorn worker each), bounded by FRAGMENT_CACHE_MB megabytes of HTML (0 turns it
off).

Used for the catalog's tree and main area, each on its own (templates/catalog/_layout.html): the same drawing is
opened by many dealers, and rendering a parts table of a hundred rows costs more than reading it from the database.
The main area of a drawing is then one entry whether it came in a whole page or as the HTMX swap of a click in the
tree.

A form in a kept fragment cannot carry its CSRF token: the token is the session's, and re-signed on every request, so
it would make every key new and hand one dealer's token to another. Such a form writes `form_token_field` (a hidden
input holding FORM_TOKEN_SLOT); the fragment is kept with the slot, and each render puts the request's token in it.
A form that returns to the page it is on (the language switch in the site's header) writes `page_path_field(name)`
the same way: the page's path and query go in after the cache, so one header serves every page.
"""

from __future__ import annotations

import dataclasses
import hashlib
import sys
import threading
from collections import OrderedDict
from datetime import date, datetime
from decimal import Decimal
from typing import Any
from uuid import UUID

import orjson
from flask import Flask, current_app, render_template, request
from flask_babel import get_locale
from flask_wtf.csrf import generate_csrf
from markupsafe import Markup, escape

EXTENSION_KEY = "fragment_cache"
FORM_TOKEN_SLOT = "form-token-slot-7c1e5a"  # noqa: S105 - a placeholder; no markup, so escaping keeps it as written
FORM_TOKEN_FIELD = Markup(f'<input type="hidden" name="csrf_token" value="{FORM_TOKEN_SLOT}">')  # noqa: S704 - constant
PAGE_PATH_SLOT = "page-path-slot-3f9b2d"


class _InexactError(TypeError):
    """A context value whose serialisation would not capture everything a template may read from it."""


class FragmentCache:
    """At most `max_bytes` bytes of rendered HTML as Python keeps it in memory (sys.getsizeof: a string holding one
    Turkish letter beyond Latin-1, ı, ş or ğ, takes two bytes for each of its characters), the least recently used
    going first; a fragment larger than that whole budget is rendered and not kept."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.size = 0
        self._entries: OrderedDict[str, Markup] = OrderedDict()
        self._lock = threading.Lock()

    def render(self, template: str, **context: Any) -> Markup:
        key = _key(template, context) if self.max_bytes > 0 else None
        if key is None:
            return Markup(render_template(template, **context))  # noqa: S704 - Jinja's autoescaped output
        with self._lock:
            html = self._entries.get(key)
            if html is not None:
                self._entries.move_to_end(key)
                return html
        html = Markup(render_template(template, **context))  # noqa: S704 - Jinja's autoescaped output
        if sys.getsizeof(html) <= self.max_bytes:
            self._keep(key, html)
        return html

    def _keep(self, key: str, html: Markup) -> None:
        with self._lock:
            if key in self._entries:  # another thread rendered the same fragment meanwhile
                return
            self._entries[key] = html
            self.size += sys.getsizeof(html)
            while self.size > self.max_bytes:
                _oldest, dropped = self._entries.popitem(last=False)
                self.size -= sys.getsizeof(dropped)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self.size = 0


# Insertion order is kept in the key (not sorted): a template that loops over a dict shows it in that order.
KEY_OPTIONS = (
    orjson.OPT_NON_STR_KEYS
    | orjson.OPT_PASSTHROUGH_DATETIME
    | orjson.OPT_PASSTHROUGH_DATACLASS
    | orjson.OPT_PASSTHROUGH_SUBCLASS
)


def _key(template: str, context: dict[str, Any]) -> str | None:
    try:
        payload = orjson.dumps(
            [template, str(get_locale()), request.script_root, context], default=_exact, option=KEY_OPTIONS
        )
    except orjson.JSONEncodeError:  # an inexact value, a circular structure, nesting or an integer orjson refuses
        return None
    return hashlib.sha256(payload).hexdigest()  # with the CPU's SHA instructions, faster than blake2b on 60 kB


def _exact(value: Any) -> Any:
    if isinstance(value, datetime | date | Decimal | UUID):
        return repr(value)
    if type(value) is Markup:
        return ["Markup", str(value)]  # not the same fragment as the plain text, which the template escapes
    if isinstance(value, set | frozenset | tuple):
        return sorted(value, key=repr) if isinstance(value, set | frozenset) else list(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {field.name: getattr(value, field.name) for field in dataclasses.fields(value) if field.compare}
        return [type(value).__qualname__, fields]
    raise _InexactError(type(value).__name__)


def init_fragment_cache(app: Flask) -> None:
    cache = FragmentCache(int(app.config.get("FRAGMENT_CACHE_MB", 0) * 1_000_000))
    app.extensions[EXTENSION_KEY] = cache
    app.jinja_env.globals["cached_fragment"] = render_fragment
    app.jinja_env.globals["form_token_field"] = FORM_TOKEN_FIELD
    app.jinja_env.globals["page_path_field"] = page_path_field


def page_path_field(name: str) -> Markup:
    """A hidden input `name` that will hold the page's path and query (filled in by render_fragment)."""
    return Markup(f'<input type="hidden" name="{escape(name)}" value="{PAGE_PATH_SLOT}">')  # noqa: S704 - name escaped


def render_fragment(template: str, **context: Any) -> Markup:
    """The fragment, kept or rendered, with the request's CSRF token and page path in the slots of its forms."""
    html = fragments().render(template, **context)
    if FORM_TOKEN_SLOT not in html and PAGE_PATH_SLOT not in html:
        return html
    # str.replace on the kept Markup gives plain text (Markup.replace would wrap each step's copy in a Markup again)
    text = str.replace(html, FORM_TOKEN_SLOT, escape(generate_csrf())) if FORM_TOKEN_SLOT in html else str(html)
    if PAGE_PATH_SLOT in text:
        text = text.replace(PAGE_PATH_SLOT, escape(request.full_path if request.query_string else request.path))
    return Markup(text)  # noqa: S704 - our markup, the values put in escaped


def fragments() -> FragmentCache:
    return current_app.extensions[EXTENSION_KEY]
