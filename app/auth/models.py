"""Server-side sessions and single-use verification tokens."""

from __future__ import annotations

import uuid
from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.orm import Mapped, mapped_column, relationship

from app.accounts.models import User
from app.core.db import UTCDateTime, utcnow
from app.extensions import db

PURPOSES = ("email_verification", "password_reset")


class AuthSession(db.Model):
    __tablename__ = "session"

    id: Mapped[str] = mapped_column(sa.String(64), primary_key=True)
    user_id: Mapped[uuid.UUID] = mapped_column(sa.ForeignKey("user.id", ondelete="CASCADE"), index=True)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)
    persistent: Mapped[bool] = mapped_column(default=True)
    impersonated_by: Mapped[uuid.UUID | None] = mapped_column(sa.Uuid)
    impersonation_readonly: Mapped[bool] = mapped_column(default=False)
    # When the one-shot link of an impersonation session was used (it opens the session once).
    link_consumed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    ip_address: Mapped[str | None] = mapped_column(sa.String(45))
    user_agent: Mapped[str | None] = mapped_column(sa.String(255))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)

    user: Mapped[User] = relationship()

    def __repr__(self) -> str:
        return f"<AuthSession {self.id[:8]}… user={self.user_id}>"


class Verification(db.Model):
    """A token sent by e-mail; only its SHA-256 is stored, and it works once before it expires."""

    __tablename__ = "verification"

    id: Mapped[str] = mapped_column(sa.String(64), primary_key=True)
    user_id: Mapped[uuid.UUID] = mapped_column(sa.ForeignKey("user.id", ondelete="CASCADE"), index=True)
    purpose: Mapped[str] = mapped_column(sa.String(32))
    token_hash: Mapped[str] = mapped_column(sa.String(64), unique=True)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)
    used_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)

    __table_args__ = (sa.CheckConstraint("purpose IN ('email_verification', 'password_reset')", name="purpose"),)

    def __repr__(self) -> str:
        return f"<Verification {self.purpose} user={self.user_id}>"
