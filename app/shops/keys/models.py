"""A shop's API key: its hash and visible prefix, the role it acts with, who made it, expiry, revocation, last use."""

from __future__ import annotations

import uuid
from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.orm import Mapped, mapped_column

from app.core.db import UTCDateTime, utcnow
from app.extensions import db

KEY_ROLES = ("clerk", "manager")


class ShopApiKey(db.Model):
    """The key itself is never stored: its SHA-256 (hex) is, and the first characters (`prefix`) that find it and that
    the owner recognises it by in the list."""

    __tablename__ = "shop_api_key"

    id: Mapped[int] = mapped_column(primary_key=True)
    shop_id: Mapped[uuid.UUID] = mapped_column(sa.ForeignKey("shop.id", ondelete="CASCADE"), index=True)
    # The owner who made it: the key acts through them, so what it writes records them.
    created_by: Mapped[uuid.UUID] = mapped_column(sa.ForeignKey("user.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(sa.String(80))
    role: Mapped[str] = mapped_column(sa.String(10))
    prefix: Mapped[str] = mapped_column(sa.String(16), index=True)
    key_hash: Mapped[str] = mapped_column(sa.String(64), unique=True)
    expires_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    last_used_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)

    __table_args__ = (sa.CheckConstraint("role IN ('clerk', 'manager')", name="role"),)

    def is_live(self, now: datetime) -> bool:
        return self.revoked_at is None and (self.expires_at is None or self.expires_at > now)

    def __repr__(self) -> str:
        return f"<ShopApiKey {self.id} {self.prefix} {self.role} of {self.shop_id}>"
