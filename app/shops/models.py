"""A shop and its branches; who belongs to it, and as what, is on the user row (`accounts.models.User`)."""

from __future__ import annotations

import uuid
from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.orm import Mapped, mapped_column

from app.core.db import UTCDateTime, utcnow
from app.extensions import db


class Shop(db.Model):
    __tablename__ = "shop"

    id: Mapped[uuid.UUID] = mapped_column(sa.Uuid, primary_key=True, default=uuid.uuid4)
    name: Mapped[str] = mapped_column(sa.String(120))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)

    def __repr__(self) -> str:
        return f"<Shop {self.id} {self.name!r}>"


class Branch(db.Model):
    """A branch (şube) of a shop: where a member works, with its own stock list and the details its quotes carry."""

    __tablename__ = "branch"

    id: Mapped[int] = mapped_column(primary_key=True)
    shop_id: Mapped[uuid.UUID] = mapped_column(sa.ForeignKey("shop.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(sa.String(80))
    address: Mapped[str | None] = mapped_column(sa.String(300))
    phone: Mapped[str | None] = mapped_column(sa.String(40))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)

    def __repr__(self) -> str:
        return f"<Branch {self.id} {self.name!r} of {self.shop_id}>"
