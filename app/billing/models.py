"""Brands, plans, subscriptions with their brand sets, payments, and the legacy bank accounts."""

from __future__ import annotations

import uuid
from datetime import datetime

import sqlalchemy as sa
from flask_babel import lazy_gettext as _l
from sqlalchemy.orm import Mapped, mapped_column, relationship

from app.core.db import UTCDateTime, utcnow
from app.extensions import db

BILLING_PERIODS = ("monthly", "yearly")
SUBSCRIPTION_STATUSES = ("pending", "active", "trial", "cancelled", "expired")
LIVE_STATUSES = ("active", "trial")
PAYMENT_STATUSES = ("pending", "completed", "failed", "expired", "refunded", "partially_refunded", "disputed")
# The names of the seeded plans in the page's language; a plan added by hand shows its stored name.
PLAN_LABELS = {"single": _l("Single brand"), "trio": _l("Three brands"), "full": _l("Full access")}
REFUND_SOURCES = ("super_panel", "provider", "automatic")
PAYMENT_METHODS = ("card", "eft")


class Brand(db.Model):
    __tablename__ = "brand"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(sa.String(60), unique=True)
    slug: Mapped[str] = mapped_column(sa.String(60), unique=True)
    active: Mapped[bool] = mapped_column(default=True)

    wmis: Mapped[list[BrandWmi]] = relationship(back_populates="brand", cascade="all, delete-orphan")

    def __repr__(self) -> str:
        return f"<Brand {self.slug}>"


class BrandWmi(db.Model):
    """A World Manufacturer Identifier (first 3 VIN characters) that belongs to a brand."""

    __tablename__ = "brand_wmi"

    wmi: Mapped[str] = mapped_column(sa.String(3), primary_key=True)
    brand_id: Mapped[int] = mapped_column(sa.ForeignKey("brand.id", ondelete="CASCADE"), index=True)

    brand: Mapped[Brand] = relationship(back_populates="wmis")

    def __repr__(self) -> str:
        return f"<BrandWmi {self.wmi} brand={self.brand_id}>"


class Plan(db.Model):
    __tablename__ = "plan"

    id: Mapped[int] = mapped_column(primary_key=True)
    key: Mapped[str] = mapped_column(sa.String(32), unique=True)
    name: Mapped[str] = mapped_column(sa.String(60))
    # 0 means the Full plan: every active brand, granted automatically.
    brand_count: Mapped[int] = mapped_column()
    monthly_price: Mapped[int] = mapped_column()  # kuruş
    yearly_price: Mapped[int] = mapped_column()  # kuruş
    active: Mapped[bool] = mapped_column(default=True)
    sort_order: Mapped[int] = mapped_column(default=0)

    __table_args__ = (
        sa.CheckConstraint("brand_count >= 0", name="brand_count"),
        sa.CheckConstraint("monthly_price >= 0 AND yearly_price >= 0", name="prices"),
    )

    @property
    def is_full(self) -> bool:
        return self.brand_count == 0

    @property
    def label(self) -> str:
        """The plan's name in the current language."""
        return str(PLAN_LABELS.get(self.key, self.name))

    def price(self, billing_period: str) -> int:
        return self.yearly_price if billing_period == "yearly" else self.monthly_price

    def __repr__(self) -> str:
        return f"<Plan {self.key}>"


user_brands = sa.Table(
    "user_brands",
    db.metadata,
    sa.Column("subscription_id", sa.Uuid, sa.ForeignKey("subscription.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("brand_id", sa.ForeignKey("brand.id", ondelete="CASCADE"), primary_key=True),
)


class Subscription(db.Model):
    __tablename__ = "subscription"

    id: Mapped[uuid.UUID] = mapped_column(sa.Uuid, primary_key=True, default=uuid.uuid4)
    # Kept (anonymised) when the user deletes the account, so payment history still names the plan.
    user_id: Mapped[uuid.UUID | None] = mapped_column(sa.ForeignKey("user.id", ondelete="SET NULL"), index=True)
    plan_id: Mapped[int] = mapped_column(sa.ForeignKey("plan.id"))
    status: Mapped[str] = mapped_column(sa.String(20))
    billing_period: Mapped[str] = mapped_column(sa.String(10))
    start_date: Mapped[datetime | None] = mapped_column(UTCDateTime)
    end_date: Mapped[datetime | None] = mapped_column(UTCDateTime)
    cancelled_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    # A downgrade chosen for the end of the period: the plan and brand ids to continue with.
    scheduled_plan_id: Mapped[int | None] = mapped_column(sa.ForeignKey("plan.id"))
    scheduled_brand_ids: Mapped[list[int] | None] = mapped_column(sa.JSON)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, onupdate=utcnow)

    plan: Mapped[Plan] = relationship(foreign_keys=[plan_id])
    scheduled_plan: Mapped[Plan | None] = relationship(foreign_keys=[scheduled_plan_id])
    brands: Mapped[list[Brand]] = relationship(secondary=user_brands, order_by=Brand.name)

    __table_args__ = (
        sa.CheckConstraint("status IN ('pending', 'active', 'trial', 'cancelled', 'expired')", name="status"),
        sa.CheckConstraint("billing_period IN ('monthly', 'yearly')", name="billing_period"),
        # At most one live pending subscription per user.
        sa.Index(
            "uq_subscription_one_pending_per_user",
            "user_id",
            unique=True,
            sqlite_where=sa.text("status = 'pending'"),
            postgresql_where=sa.text("status = 'pending'"),
        ),
        # Never two live (trial or active) subscriptions for one user, whatever the code paths do.
        sa.Index(
            "uq_subscription_one_live_per_user",
            "user_id",
            unique=True,
            sqlite_where=sa.text("status IN ('active', 'trial')"),
            postgresql_where=sa.text("status IN ('active', 'trial')"),
        ),
    )

    @property
    def is_live(self) -> bool:
        return self.status in LIVE_STATUSES

    def __repr__(self) -> str:
        return f"<Subscription {self.id} {self.status}>"


class BankAccount(db.Model):
    """Legacy: bank-transfer (EFT) payments referred to these accounts; kept so old payments still display."""

    __tablename__ = "bank_account"

    id: Mapped[int] = mapped_column(primary_key=True)
    bank_name: Mapped[str] = mapped_column(sa.String(100))
    account_holder: Mapped[str] = mapped_column(sa.String(150))
    iban: Mapped[str] = mapped_column(sa.String(34))
    active: Mapped[bool] = mapped_column(default=False)

    def __repr__(self) -> str:
        return f"<BankAccount {self.bank_name}>"


class Payment(db.Model):
    __tablename__ = "payment"

    id: Mapped[uuid.UUID] = mapped_column(sa.Uuid, primary_key=True, default=uuid.uuid4)
    user_id: Mapped[uuid.UUID | None] = mapped_column(sa.ForeignKey("user.id", ondelete="SET NULL"), index=True)
    subscription_id: Mapped[uuid.UUID | None] = mapped_column(
        sa.ForeignKey("subscription.id", ondelete="SET NULL"), index=True
    )
    amount: Mapped[int] = mapped_column()  # kuruş
    currency: Mapped[str] = mapped_column(sa.String(3), default="TRY")
    status: Mapped[str] = mapped_column(sa.String(20), default="pending")
    method: Mapped[str] = mapped_column(sa.String(10), default="card")
    billing_period: Mapped[str | None] = mapped_column(sa.String(10))
    # Card provider ids: internal only, never in a user-facing projection.
    checkout_session_id: Mapped[str | None] = mapped_column(sa.String(255), unique=True)
    payment_intent_id: Mapped[str | None] = mapped_column(sa.String(255), index=True)
    refunded_amount: Mapped[int] = mapped_column(default=0)
    # Legacy bank transfers.
    bank_account_id: Mapped[int | None] = mapped_column(sa.ForeignKey("bank_account.id"))
    receipt_url: Mapped[str | None] = mapped_column(sa.String(500))
    admin_note: Mapped[str | None] = mapped_column(sa.Text)
    paid_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, onupdate=utcnow)

    subscription: Mapped[Subscription | None] = relationship()

    __table_args__ = (
        sa.CheckConstraint(
            "status IN ('pending', 'completed', 'failed', 'expired', 'refunded', 'partially_refunded', 'disputed')",
            name="status",
        ),
        sa.CheckConstraint("method IN ('card', 'eft')", name="method"),
        sa.CheckConstraint("amount >= 0 AND refunded_amount >= 0", name="amounts"),
    )

    def __repr__(self) -> str:
        return f"<Payment {self.id} {self.status} {self.amount}>"


class PaymentRefund(db.Model):
    """One refund of a payment (ours from the founder panel or automatic, or one made in the provider's dashboard).

    The idempotency key makes a retried refund call return this row instead of refunding again.
    """

    __tablename__ = "payment_refund"

    id: Mapped[uuid.UUID] = mapped_column(sa.Uuid, primary_key=True, default=uuid.uuid4)
    payment_id: Mapped[uuid.UUID] = mapped_column(sa.ForeignKey("payment.id", ondelete="CASCADE"), index=True)
    amount: Mapped[int] = mapped_column()  # kuruş
    source: Mapped[str] = mapped_column(sa.String(20))
    reason: Mapped[str | None] = mapped_column(sa.Text)
    founder_id: Mapped[str | None] = mapped_column(sa.String(100))
    provider_refund_id: Mapped[str | None] = mapped_column(sa.String(255), unique=True)
    idempotency_key: Mapped[str | None] = mapped_column(sa.String(255), unique=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)

    __table_args__ = (
        sa.CheckConstraint("amount > 0", name="amount"),
        sa.CheckConstraint("source IN ('super_panel', 'provider', 'automatic')", name="source"),
    )

    def __repr__(self) -> str:
        return f"<PaymentRefund {self.payment_id} {self.amount}>"


class ProviderEvent(db.Model):
    """A card-provider webhook event already handled: a second delivery of the same id changes nothing."""

    __tablename__ = "provider_event"

    id: Mapped[str] = mapped_column(sa.String(255), primary_key=True)
    type: Mapped[str] = mapped_column(sa.String(100))
    processed_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)

    def __repr__(self) -> str:
        return f"<ProviderEvent {self.type} {self.id}>"
