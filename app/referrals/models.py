"""Referrals: who brought whom (one referrer per referee), and the milestone rewards a referrer earned."""

from __future__ import annotations

import uuid
from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.orm import Mapped, mapped_column

from app.core.db import UTCDateTime, utcnow
from app.extensions import db

REFERRAL_STATUSES = ("pending", "qualified")


class Referral(db.Model):
    """pending when the code is applied; qualified when the referee's e-mail is verified (at once if it already is)."""

    __tablename__ = "referral"

    id: Mapped[int] = mapped_column(primary_key=True)
    referrer_id: Mapped[uuid.UUID] = mapped_column(sa.ForeignKey("user.id", ondelete="CASCADE"), index=True)
    referee_id: Mapped[uuid.UUID] = mapped_column(sa.ForeignKey("user.id", ondelete="CASCADE"), unique=True)
    status: Mapped[str] = mapped_column(sa.String(16), default="pending")
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    qualified_at: Mapped[datetime | None] = mapped_column(UTCDateTime)

    __table_args__ = (sa.CheckConstraint(sa.column("status").in_(REFERRAL_STATUSES), name="status"),)


class ReferralReward(db.Model):
    """One milestone reached: `every` qualified referrals (3 or 5) for the `count`-th time gives `days`. Unique per
    referrer, milestone and count, so a milestone rewards once however often it is computed."""

    __tablename__ = "referral_reward"

    id: Mapped[int] = mapped_column(primary_key=True)
    referrer_id: Mapped[uuid.UUID] = mapped_column(sa.ForeignKey("user.id", ondelete="CASCADE"))
    every: Mapped[int]
    reached_at_count: Mapped[int]
    days: Mapped[int]
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)

    __table_args__ = (sa.UniqueConstraint("referrer_id", "every", "reached_at_count"),)
