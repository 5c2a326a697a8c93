"""Users and their linked social accounts."""

from __future__ import annotations

import uuid
from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.orm import Mapped, mapped_column, relationship

from app.core.db import UTCDateTime, utcnow
from app.extensions import db

ROLES = ("user", "admin")
# A member's role in their shop, lowest first: each may do what the roles below it may.
SHOP_ROLES = ("clerk", "manager", "owner")
SHOP_RANK = {role: rank for rank, role in enumerate(SHOP_ROLES)}
STATUSES = ("active", "suspended", "banned")


class User(db.Model):
    __tablename__ = "user"

    id: Mapped[uuid.UUID] = mapped_column(sa.Uuid, primary_key=True, default=uuid.uuid4)
    email: Mapped[str] = mapped_column(sa.String(254), unique=True)
    name: Mapped[str] = mapped_column(sa.String(100))
    password_hash: Mapped[str | None] = mapped_column(sa.String(255))
    email_verified: Mapped[bool] = mapped_column(default=False)
    role: Mapped[str] = mapped_column(sa.String(20), default="user")
    status: Mapped[str] = mapped_column(sa.String(20), default="active")
    status_reason: Mapped[str | None] = mapped_column(sa.Text)
    status_changed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    status_changed_by: Mapped[uuid.UUID | None] = mapped_column(sa.Uuid)
    referral_credit_days: Mapped[int] = mapped_column(default=0)
    referral_code: Mapped[str] = mapped_column(sa.String(16), unique=True)
    # The interface language the user chose (the header switch); None: never chose, Turkish.
    locale: Mapped[str | None] = mapped_column(sa.String(5))
    # The one shop the person belongs to, their role in it and the branch they work in (chosen, remembered). Set in
    # the transaction that adds the user (`accounts.signals.user_created`); a removed member gets a shop of their own.
    shop_id: Mapped[uuid.UUID | None] = mapped_column(sa.ForeignKey("shop.id", ondelete="RESTRICT"), index=True)
    shop_role: Mapped[str] = mapped_column(sa.String(10), default="owner")
    branch_id: Mapped[int | None] = mapped_column(sa.ForeignKey("branch.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, onupdate=utcnow)

    accounts: Mapped[list[Account]] = relationship(back_populates="user", cascade="all, delete-orphan")

    __table_args__ = (
        sa.CheckConstraint("role IN ('user', 'admin')", name="role"),
        sa.CheckConstraint("status IN ('active', 'suspended', 'banned')", name="status"),
        sa.CheckConstraint("shop_role IN ('clerk', 'manager', 'owner')", name="shop_role"),
    )

    @property
    def is_active_account(self) -> bool:
        return self.status == "active"

    @property
    def is_admin(self) -> bool:
        return self.role == "admin"

    def has_shop_role(self, needed: str) -> bool:
        """Whether the member's role in their shop is `needed` or above it."""
        return SHOP_RANK[self.shop_role] >= SHOP_RANK[needed]

    # Flask-Login's user protocol.
    is_authenticated = True
    is_anonymous = False

    @property
    def is_active(self) -> bool:
        return self.is_active_account

    def get_id(self) -> str:
        return str(self.id)

    def __repr__(self) -> str:
        return f"<User {self.id} {self.role} {self.status}>"


class Account(db.Model):
    """A social identity linked to a user: one row per provider subject."""

    __tablename__ = "account"

    id: Mapped[str] = mapped_column(sa.String(64), primary_key=True)
    user_id: Mapped[uuid.UUID] = mapped_column(sa.ForeignKey("user.id", ondelete="CASCADE"), index=True)
    provider: Mapped[str] = mapped_column(sa.String(32))
    provider_account_id: Mapped[str] = mapped_column(sa.String(255))
    email: Mapped[str | None] = mapped_column(sa.String(254))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)

    user: Mapped[User] = relationship(back_populates="accounts")

    __table_args__ = (sa.UniqueConstraint("provider", "provider_account_id"),)

    def __repr__(self) -> str:
        return f"<Account {self.provider} user={self.user_id}>"
