"""Reading and checking request input before anything is written."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from typing import Any

from flask import Flask, request
from flask_babel import gettext as _
from werkzeug.routing import IntegerConverter, ValidationError

from app.core.errors import ApiError
from app.core.uploads import UploadRequest

# Every id column is sa.Integer: int4 on PostgreSQL, so no stored row has a larger id.
ID_MAX = 2**31 - 1
# Our bodies are flat and a provider event is about ten levels deep; deeper input is refused before anything walks it.
JSON_MAX_DEPTH = 32
# PostgreSQL text refuses NUL, and a lone surrogate cannot be encoded to UTF-8 for any database.
UNSTORABLE = re.compile("[\x00\ud800-\udfff]")
FORM_MIMETYPES = frozenset({"application/x-www-form-urlencoded", "multipart/form-data"})


def _invalid_json() -> ApiError:
    return ApiError("invalid_json", _("The request body is not a valid JSON object."), 400)


def _unstorable() -> ApiError:
    return ApiError(
        "invalid_characters",
        _("The request contains characters that are not allowed (a NUL byte or broken Unicode)."),
        400,
    )


def parse_json(raw: bytes | str, *, any_text: bool = False) -> Any:
    """Decode JSON text, refusing invalid, too deeply nested and (unless `any_text`) unstorable input with a 400."""
    try:
        value = json.loads(raw)
    except (ValueError, RecursionError):  # RecursionError: nested deeper than the parser's stack
        raise _invalid_json() from None
    _check_json(value, any_text)
    return value


def _check_json(value: Any, any_text: bool) -> None:
    """Walk the decoded value without recursion: bounded depth, no NUL or lone surrogate in any key or string."""
    pending = [(value, 1)]
    while pending:
        item, depth = pending.pop()
        if isinstance(item, str):
            if not any_text and UNSTORABLE.search(item):
                raise _unstorable()
        elif isinstance(item, dict | list):
            if depth > JSON_MAX_DEPTH:
                raise ApiError(
                    "json_too_deep",
                    _("The request body is nested too deeply (at most %(depth)d levels).", depth=JSON_MAX_DEPTH),
                    400,
                )
            children = [*item.keys(), *item.values()] if isinstance(item, dict) else item
            pending.extend((child, depth + 1) for child in children)


def request_json() -> Any:
    """The request body decoded and checked once per request (routes, limiter keys and guards share it)."""
    return request.checked_json()


def _json_content_type() -> ApiError:
    return ApiError("invalid_json", _("Send the request body as JSON (Content-Type: application/json)."), 415)


class CheckedJSONRequest(UploadRequest):
    """The app's request: every reader of its JSON body, `request.get_json(silent=True)` in a cache-key function
    included, gets it through `parse_json`, decoded once, too deep input refused before anything walks it. Werkzeug's
    own get_json lets the parser's RecursionError through (`silent` catches ValueError only): a 500."""

    _checked: tuple[Any, ApiError | None] | None = None

    def checked_json(self) -> Any:
        if self._checked is None:
            try:
                self._checked = (parse_json(self.get_data(cache=True)), None)
            except ApiError as error:
                self._checked = (None, error)
        value, error = self._checked
        if error is not None:
            raise error
        return value

    def get_json(self, force: bool = False, silent: bool = False, cache: bool = True) -> Any:
        if not (force or self.is_json):
            if silent:
                return None
            raise _json_content_type()
        try:
            return self.checked_json()
        except ApiError:
            if silent:
                return None
            raise


def json_body() -> dict[str, Any]:
    """The request's JSON object, or a clear refusal when the body is not one."""
    if request.mimetype != "application/json":
        raise _json_content_type()
    data = request_json()
    if not isinstance(data, dict):
        raise _invalid_json()
    return data


def optional_json_body() -> dict[str, Any]:
    """For a route that needs no body: nothing, or a JSON object checked like any other (a broken one is refused)."""
    if not request.get_data(cache=True):
        return {}
    return json_body()


def text_field(data: dict[str, Any], name: str, label: str, *, max_length: int, required: bool = True) -> str:
    """A text field of `data`, stripped; refuse missing, non-text and over-long values naming the field."""
    value = data.get(name)
    if value is None or (isinstance(value, str) and not value.strip()):
        if required:
            raise ApiError("missing_field", _("%(field)s is required.", field=label), 400)
        return ""
    if not isinstance(value, str):
        raise ApiError("invalid_field", _("%(field)s must be text.", field=label), 400)
    if len(value) > max_length:
        raise ApiError(
            "field_too_long", _("%(field)s can be at most %(max)d characters.", field=label, max=max_length), 400
        )
    return value.strip()


def bool_field(data: dict[str, Any], name: str, default: bool) -> bool:
    value = data.get(name, default)
    return value if isinstance(value, bool) else default


def int_arg(values: Mapping[str, str], name: str, default: int, *, maximum: int = ID_MAX) -> int:
    """A whole-number query or form value from 1 to `maximum`; absent or empty gives `default`, anything else a 400."""
    raw = (values.get(name) or "").strip()
    if not raw:
        return default
    if not (raw.isascii() and raw.isdigit() and len(raw) <= len(str(maximum)) and 1 <= int(raw) <= maximum):
        raise ApiError(
            "invalid_parameter",
            _("%(field)s must be a whole number from %(min)d to %(max)d.", field=name, min=1, max=maximum),
            400,
        )
    return int(raw)


def is_id(value: Any) -> bool:
    """Whether a decoded JSON value can be a row id: an integer (not a bool) from 1 to ID_MAX."""
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= ID_MAX


def form_brand_ids(form: Mapping[str, Any], name: str = "brand_ids") -> list[int | str]:
    """A form's repeated id field as ids; anything else passed on as it came, for the service to refuse."""
    values = form.getlist(name)  # type: ignore[attr-defined]
    digits = len(str(ID_MAX))  # a longer number is no id, refused as text without a slow int()
    return [int(value) if value.isdecimal() and len(value) <= digits else value for value in values]


class IdConverter(IntegerConverter):
    """`<int:...>` in every route: 1..ID_MAX, so an id no row can have is a 404 before the database is asked."""

    def __init__(self, url_map: Any, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("min", 1)
        kwargs.setdefault("max", ID_MAX)
        super().__init__(url_map, *args, **kwargs)

    def to_python(self, value: str) -> int:
        if len(value) > len(str(self.max)):  # int() of thousands of digits is slow, and refused past 4300
            raise ValidationError()
        return super().to_python(value)


def _strings(values: Iterable[tuple[str, Any]]) -> Iterable[str]:
    for key, value in values:
        yield key
        if isinstance(value, str):
            yield value


def refuse_unstorable_input() -> None:
    """Refuse a NUL or lone surrogate in the path, the query string or a posted form before any route reads it."""
    asked = request._get_current_object()  # type: ignore[attr-defined] - one pass through the context proxy
    sources = [asked.args.items(multi=True), (asked.view_args or {}).items()]
    if asked.mimetype in FORM_MIMETYPES:
        sources.append(asked.form.items(multi=True))
    if any(UNSTORABLE.search(text) for source in sources for text in _strings(source)):
        raise _unstorable()


def init_input_checks(app: Flask) -> None:
    """Bound `<int:...>` route ids and check every request's text; call before the blueprints are registered. Uploads
    to the routes that take one stay in memory within the route's limit (app.core.uploads)."""
    app.request_class = CheckedJSONRequest
    app.url_map.converters["int"] = IdConverter
    app.before_request(refuse_unstorable_input)
