"""Admin reads of the OEM copy log under /api/admin/copy-logs (role admin): the filtered log and the top codes."""

from __future__ import annotations

import uuid
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from flask import Blueprint, current_app, jsonify, request
from flask_babel import gettext as _

from app.admin.schemas import CopyLogPage, CopyLogQuery, TopCodes, TopCodesQuery
from app.catalog.copies.services import CopyFilter, copy_log_page, top_codes
from app.core.errors import ApiError
from app.core.openapi import documented
from app.core.security import requires_role
from app.core.validation import ID_MAX

bp = Blueprint("admin_copy_logs_api", __name__, url_prefix="/api/admin/copy-logs")

MAX_PAGE_SIZE = 100
DEFAULT_PAGE_SIZE = 50


@bp.get("")
@documented(CopyLogPage, query=CopyLogQuery)
@requires_role("admin")
def copy_logs():
    """The log, newest first; filters: user (id or part of the e-mail), vehicleId, code, from and to (days)."""
    user = (request.args.get("user") or "").strip()
    user_id = _uuid(user)
    zone = ZoneInfo(current_app.config["BABEL_DEFAULT_TIMEZONE"])
    since, until = _day("from"), _day("to")
    where = CopyFilter(
        user_id=user_id,
        email="" if user_id else user[:254],
        vehicle_id=_integer("vehicleId", None, minimum=1, maximum=ID_MAX),
        code=(request.args.get("code") or "").strip()[:60],
        # Days are Istanbul days; `to` includes its whole day.
        since=datetime.combine(since, time(), zone) if since else None,
        until=datetime.combine(until + timedelta(days=1), time(), zone) if until else None,
    )
    page = _integer("page", 1, minimum=1, maximum=ID_MAX)
    page_size = _integer("pageSize", DEFAULT_PAGE_SIZE, minimum=1, maximum=MAX_PAGE_SIZE)
    return jsonify(copy_log_page(where, page, page_size))


@bp.get("/top-codes")
@documented(TopCodes, query=TopCodesQuery)
@requires_role("admin")
def most_copied():
    """The most copied codes of the last `days` days (1 to 365, default 30), `limit` of them (1 to 100, default 20)."""
    days = _integer("days", 30, minimum=1, maximum=365)
    limit = _integer("limit", 20, minimum=1, maximum=100)
    return jsonify(top_codes(days, limit))


def _uuid(value: str) -> uuid.UUID | None:
    try:
        return uuid.UUID(value) if value else None
    except ValueError:
        return None


def _integer(name: str, default: int | None, *, minimum: int, maximum: int | None = None) -> int | None:
    raw = request.args.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        value = None
    if value is None or value < minimum or (maximum is not None and value > maximum):
        if maximum is None:
            message = _("%(field)s must be a whole number of at least %(min)d.", field=name, min=minimum)
        else:
            message = _(
                "%(field)s must be a whole number from %(min)d to %(max)d.", field=name, min=minimum, max=maximum
            )
        raise ApiError("invalid_parameter", message, 400)
    return value


def _day(name: str) -> date | None:
    raw = request.args.get(name, "").strip()
    if not raw:
        return None
    try:
        day = date.fromisoformat(raw)
        if day == date.max:
            raise ValueError(raw)  # `to` is read as the start of the next day, which does not exist
        return day
    except ValueError:
        raise ApiError(
            "invalid_parameter", _("%(field)s must be a date such as 2026-11-22.", field=name), 400
        ) from None
