"""What changed in the product, written by the release automation and read by signed-in dealers ("what's new")."""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.orm import Mapped, mapped_column

from app.core.db import UTCDateTime, utcnow
from app.extensions import db

# The documented changeType values (README "What's new"): new feature, better feature, bug fix, security, catalog data.
CHANGE_TYPES = ("feature", "improvement", "fix", "security", "catalog")


class ChangelogEntry(db.Model):
    __tablename__ = "changelog_entry"

    id: Mapped[int] = mapped_column(primary_key=True)
    title: Mapped[str] = mapped_column(sa.String(200))
    body: Mapped[str] = mapped_column(sa.Text, default="")
    change_type: Mapped[str] = mapped_column(sa.String(20))
    version: Mapped[str | None] = mapped_column(sa.String(40))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, index=True)

    __table_args__ = (sa.CheckConstraint(sa.column("change_type").in_(CHANGE_TYPES), name="change_type"),)
