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


class ShopInvitation(db.Model):
    """An e-mail invitation into a shop with a role (and the branch to start in): the link's token is only stored as
    its hash; a pending one has neither `accepted_at` nor `revoked_at` and has not expired."""

    __tablename__ = "shop_invitation"

    id: Mapped[int] = mapped_column(primary_key=True)
    shop_id: Mapped[uuid.UUID] = mapped_column(sa.ForeignKey("shop.id", ondelete="CASCADE"), index=True)
    email: Mapped[str] = mapped_column(sa.String(254))
    role: Mapped[str] = mapped_column(sa.String(10))
    branch_id: Mapped[int | None] = mapped_column(sa.ForeignKey("branch.id", ondelete="SET NULL"))
    token_hash: Mapped[str] = mapped_column(sa.String(64), unique=True)
    invited_by: Mapped[uuid.UUID | None] = mapped_column(sa.ForeignKey("user.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)
    accepted_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime)

    __table_args__ = (sa.CheckConstraint("role IN ('clerk', 'manager', 'owner')", name="role"),)

    def __repr__(self) -> str:
        return f"<ShopInvitation {self.id} {self.role} of {self.shop_id}>"


class ShopActivity(db.Model):
    """Who did what in a shop: the member, when, in which branch, what kind of thing and a short detail. Kept 12
    months (`shops.tasks.purge_activity`)."""

    __tablename__ = "shop_activity"

    id: Mapped[int] = mapped_column(primary_key=True)
    shop_id: Mapped[uuid.UUID] = mapped_column(sa.ForeignKey("shop.id", ondelete="CASCADE"))
    user_id: Mapped[uuid.UUID | None] = mapped_column(sa.ForeignKey("user.id", ondelete="SET NULL"))
    branch_id: Mapped[int | None] = mapped_column(sa.ForeignKey("branch.id", ondelete="SET NULL"))
    kind: Mapped[str] = mapped_column(sa.String(40))
    detail: Mapped[str] = mapped_column(sa.String(300), default="")
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, index=True)

    __table_args__ = (sa.Index("ix_shop_activity_shop_id_created_at", "shop_id", "created_at"),)

    def __repr__(self) -> str:
        return f"<ShopActivity {self.id} {self.kind} of {self.shop_id}>"
