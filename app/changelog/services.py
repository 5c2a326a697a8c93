"""Changelog entries: created by the release automation (its token, compared in constant time), listed newest first."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from flask import current_app
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from app.changelog.models import CHANGE_TYPES, ChangelogEntry
from app.core.db import utcnow
from app.core.errors import ApiError
from app.core.security import token_is_valid
from app.core.validation import text_field
from app.extensions import db

PAGE_SIZE = 20
TITLE, BODY, CHANGE_TYPE, VERSION = _l("Title"), _l("Text"), _l("Change type"), _l("Version")


def check_automation_token(given: str | None) -> None:
    """The same constant-time rule as the internal token: an unset token matches nothing."""
    if not token_is_valid(given, current_app.config["CHANGELOG_AUTOMATION_TOKEN"]):
        raise ApiError("invalid_automation_token", _("A valid automation token is required for this call."), 401)


def create_entry(data: dict[str, Any]) -> ChangelogEntry:
    title = text_field(data, "title", TITLE, max_length=200)
    body = text_field(data, "body", BODY, max_length=5000, required=False)
    change_type = text_field(data, "changeType", CHANGE_TYPE, max_length=20)
    version = text_field(data, "version", VERSION, max_length=40, required=False) or None
    if change_type not in CHANGE_TYPES:
        raise ApiError(
            "invalid_change_type",
            _("changeType must be one of: %(types)s.", types=", ".join(CHANGE_TYPES)),
            400,
        )
    entry = ChangelogEntry(title=title, body=body, change_type=change_type, version=version, created_at=utcnow())
    db.session.add(entry)
    db.session.flush()
    return entry


def entries(page: int = 1) -> tuple[list[ChangelogEntry], bool]:
    rows = list(
        db.session.scalars(
            sa.select(ChangelogEntry)
            .order_by(ChangelogEntry.created_at.desc(), ChangelogEntry.id.desc())
            .offset((page - 1) * PAGE_SIZE)
            .limit(PAGE_SIZE + 1)
        )
    )
    return rows[:PAGE_SIZE], len(rows) > PAGE_SIZE


def entry_view(entry: ChangelogEntry) -> dict[str, Any]:
    return {
        "id": entry.id,
        "title": entry.title,
        "body": entry.body,
        "changeType": entry.change_type,
        "version": entry.version,
        "createdAt": entry.created_at.isoformat(),
    }
