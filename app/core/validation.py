"""Reading and checking request input before anything is written."""

from __future__ import annotations

from typing import Any

from flask import request
from flask_babel import gettext as _

from app.core.errors import ApiError


def json_body() -> dict[str, Any]:
    """The request's JSON object, or a clear refusal when the body is not one."""
    if request.mimetype != "application/json":
        raise ApiError("invalid_json", _("Send the request body as JSON (Content-Type: application/json)."), 415)
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise ApiError("invalid_json", _("The request body is not a valid JSON object."), 400)
    return data


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
