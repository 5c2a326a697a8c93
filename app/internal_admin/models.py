"""The audit trail of the founder panel: every internal admin call, who made it, why, and what it changed."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Mapped, mapped_column

from app.core.db import UTCDateTime, utcnow
from app.extensions import db


class AuditEntry(db.Model):
    """One internal call: the action, its target, the founder and reason, the state before and after, the outcome
    ("ok" or the refusal's error code)."""

    __tablename__ = "admin_audit"

    id: Mapped[int] = mapped_column(primary_key=True)
    action: Mapped[str] = mapped_column(sa.String(60))
    target_type: Mapped[str] = mapped_column(sa.String(30))
    target_id: Mapped[str] = mapped_column(sa.String(64))
    founder_id: Mapped[str] = mapped_column(sa.String(100))
    reason: Mapped[str | None] = mapped_column(sa.Text)
    outcome: Mapped[str] = mapped_column(sa.String(60), default="ok")
    before: Mapped[dict[str, Any] | None] = mapped_column(sa.JSON)
    after: Mapped[dict[str, Any] | None] = mapped_column(sa.JSON)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, index=True)

    __table_args__ = (sa.Index("ix_admin_audit_target", "target_type", "target_id"),)

    def __repr__(self) -> str:
        return f"<AuditEntry {self.action} {self.target_type}:{self.target_id} {self.outcome}>"
