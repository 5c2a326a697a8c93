"""The activity filter read from a query string (the page and the API read the same one)."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from datetime import date

from flask_babel import gettext as _

from app.core.errors import ApiError
from app.core.validation import int_arg
from app.shops.activity import ActivityFilter


def _day(values: Mapping[str, str], name: str) -> date | None:
    raw = (values.get(name) or "").strip()
    if not raw:
        return None
    try:
        return date.fromisoformat(raw)
    except ValueError:
        raise ApiError("invalid_parameter", _("Dates are written as YYYY-MM-DD."), 400) from None


def _member(values: Mapping[str, str]) -> uuid.UUID | None:
    raw = (values.get("member") or "").strip()
    if not raw:
        return None
    try:
        return uuid.UUID(raw)
    except ValueError:
        raise ApiError("invalid_parameter", _("Unknown member."), 400) from None


def activity_filter(values: Mapping[str, str]) -> ActivityFilter:
    branch = (values.get("branch") or "").strip()
    return ActivityFilter(
        member_id=_member(values),
        kind=(values.get("kind") or "").strip()[:40] or None,
        branch_id=int_arg(values, "branch", 1) if branch else None,
        since=_day(values, "since"),
        until=_day(values, "until"),
    )
