"""The e-mail outbox: every message is stored before any transport sends it."""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.orm import Mapped, mapped_column

from app.core.db import UTCDateTime, utcnow
from app.extensions import db

OUTBOX_STATUSES = ("pending", "sending", "sent", "failed")


class OutboxEmail(db.Model):
    """One message: written in the transaction of the change that caused it, then sent by an `email` job.

    pending -> sending (a worker claimed it) -> sent, or back to pending with `next_attempt_at` after a temporary
    failure, or failed (a permanent refusal, or the last attempt). A claim older than the send timeout is taken again.
    """

    __tablename__ = "email_outbox"

    id: Mapped[int] = mapped_column(primary_key=True)
    to_address: Mapped[str] = mapped_column(sa.String(254), index=True)
    reply_to: Mapped[str | None] = mapped_column(sa.String(254))
    template: Mapped[str] = mapped_column(sa.String(64))
    locale: Mapped[str] = mapped_column(sa.String(8), default="tr", server_default="tr")
    subject: Mapped[str] = mapped_column(sa.String(255))
    body_text: Mapped[str] = mapped_column(sa.Text)
    body_html: Mapped[str | None] = mapped_column(sa.Text)
    status: Mapped[str] = mapped_column(sa.String(16), default="pending", server_default="pending")
    attempts: Mapped[int] = mapped_column(default=0, server_default="0")
    last_error: Mapped[str | None] = mapped_column(sa.String(500))
    next_attempt_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    claimed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    sent_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    failed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    # A message that must go out once per cause (a trial's ending, an invitation to an address) names it here.
    dedupe_key: Mapped[str | None] = mapped_column(sa.String(120), unique=True)

    __table_args__ = (
        sa.CheckConstraint(sa.column("status").in_(OUTBOX_STATUSES), name="status"),
        sa.Index("ix_email_outbox_status_next_attempt_at", "status", "next_attempt_at"),
    )

    def __repr__(self) -> str:
        return f"<OutboxEmail {self.id} {self.template} {self.status}>"


class EmailAttachment(db.Model):
    """A file sent with an outbox message (a supplier's order list), kept with it until the message is deleted."""

    __tablename__ = "email_attachment"

    id: Mapped[int] = mapped_column(primary_key=True)
    outbox_id: Mapped[int] = mapped_column(sa.ForeignKey("email_outbox.id", ondelete="CASCADE"), index=True)
    filename: Mapped[str] = mapped_column(sa.String(200))
    content_type: Mapped[str] = mapped_column(sa.String(100))
    data: Mapped[bytes] = mapped_column(sa.LargeBinary)

    def __repr__(self) -> str:
        return f"<EmailAttachment {self.id} {self.filename!r} of {self.outbox_id}>"


class EmailClick(db.Model):
    """One click on a message's tracked call to action (app.notifications.tracking): which message kind, where to."""

    __tablename__ = "email_click"

    id: Mapped[int] = mapped_column(primary_key=True)
    template: Mapped[str] = mapped_column(sa.String(64), index=True)
    path: Mapped[str] = mapped_column(sa.String(500))
    clicked_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
