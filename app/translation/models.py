"""Dictionary terms added by admins: they join the builtin dictionary (and win over its entry for the same English)."""

from __future__ import annotations

import uuid
from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.orm import Mapped, mapped_column

from app.core.db import UTCDateTime, utcnow
from app.extensions import db

TERM_KINDS = ("noun", "modifier")


class TranslationTerm(db.Model):
    __tablename__ = "translation_term"

    id: Mapped[int] = mapped_column(primary_key=True)
    english: Mapped[str] = mapped_column(sa.String(120), unique=True)  # lower case, one or more words
    turkish: Mapped[str] = mapped_column(sa.String(120))
    kind: Mapped[str] = mapped_column(sa.String(10), default="noun")
    possessive: Mapped[str | None] = mapped_column(sa.String(120))  # the izafet form, when not the regular one
    created_by: Mapped[uuid.UUID | None] = mapped_column(sa.ForeignKey("user.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, onupdate=utcnow)

    __table_args__ = (sa.CheckConstraint("kind IN ('noun', 'modifier')", name="kind"),)

    def __repr__(self) -> str:
        return f"<TranslationTerm {self.english!r} -> {self.turkish!r}>"
