"""Brands, plans, subscriptions with their brand sets, payments, and the legacy bank accounts."""

from __future__ import annotations

import uuid
from datetime import datetime

import sqlalchemy as sa
from flask_babel import lazy_gettext as _l
from sqlalchemy.orm import Mapped, mapped_column, relationship

from app.accounts.models import User
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
    # Seats: the members the price includes, and the price of each seat past them (kuruş, per period).
    included_seats: Mapped[int] = mapped_column(default=1, server_default="1")
    monthly_seat_price: Mapped[int] = mapped_column(default=0, server_default="0")
    yearly_seat_price: Mapped[int] = mapped_column(default=0, server_default="0")
    active: Mapped[bool] = mapped_column(default=True)
    sort_order: Mapped[int] = mapped_column(default=0)

    __table_args__ = (
        sa.CheckConstraint("brand_count >= 0", name="brand_count"),
        sa.CheckConstraint("monthly_price >= 0 AND yearly_price >= 0", name="prices"),
        sa.CheckConstraint("included_seats >= 1", name="included_seats"),
        sa.CheckConstraint("monthly_seat_price >= 0 AND yearly_seat_price >= 0", name="seat_prices"),
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

    def seat_price(self, billing_period: str) -> int:
        """The price of one seat past the included ones for a period."""
        return self.yearly_seat_price if billing_period == "yearly" else self.monthly_seat_price

    def price_with_seats(self, billing_period: str, seats: int) -> int:
        return self.price(billing_period) + max(seats - self.included_seats, 0) * self.seat_price(billing_period)

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
    # The shop it belongs to (a row made naming only its member gets that member's shop, see _fill_shop); kept
    # (anonymised) when the shop is deleted, as the payments that name it are (docs/decisions.md).
    shop_id: Mapped[uuid.UUID | None] = mapped_column(sa.ForeignKey("shop.id", ondelete="SET NULL"), index=True)
    # The member who bought it; kept (anonymised) when that user deletes the account.
    user_id: Mapped[uuid.UUID | None] = mapped_column(sa.ForeignKey("user.id", ondelete="SET NULL"), index=True)
    # How many members may work under it: the plan's included seats when not chosen (see _fill_shop).
    seats: Mapped[int] = mapped_column(server_default="1")
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
        sa.CheckConstraint("seats >= 1", name="seats"),
        # At most one live pending subscription per shop.
        sa.Index(
            "uq_subscription_one_pending_per_shop",
            "shop_id",
            unique=True,
            sqlite_where=sa.text("status = 'pending'"),
            postgresql_where=sa.text("status = 'pending'"),
        ),
        # Never two live (trial or active) subscriptions for one shop, whatever the code paths do.
        sa.Index(
            "uq_subscription_one_live_per_shop",
            "shop_id",
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


@sa.event.listens_for(Subscription, "before_insert")
def _fill_shop(_mapper: sa.orm.Mapper, connection: sa.Connection, subscription: Subscription) -> None:
    """A subscription made naming only its member (tests, the founder's tools) belongs to that member's shop, and
    one made without a seat count has the plan's included seats."""
    if subscription.shop_id is None and subscription.user_id is not None:
        subscription.shop_id = connection.scalar(sa.select(User.shop_id).where(User.id == subscription.user_id))
    if subscription.seats is None:
        plan_id = subscription.plan.id if subscription.plan is not None else subscription.plan_id
        included = connection.scalar(sa.select(Plan.included_seats).where(Plan.id == plan_id))
        subscription.seats = included or 1


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
    # The shop that paid (kept, anonymised, when the shop is deleted: an accounting record) and the member who did.
    shop_id: Mapped[uuid.UUID | None] = mapped_column(sa.ForeignKey("shop.id", ondelete="SET NULL"), index=True)
    user_id: Mapped[uuid.UUID | None] = mapped_column(sa.ForeignKey("user.id", ondelete="SET NULL"), index=True)
    # What it buys: a plan's period ("plan") or extra seats on a live subscription ("seats", prorated).
    purpose: Mapped[str] = mapped_column(sa.String(10), default="plan", server_default="plan")
    # The subscription's seat count once this payment is made.
    seats: Mapped[int | None] = mapped_column()
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
        sa.CheckConstraint("purpose IN ('plan', 'seats')", name="purpose"),
        sa.CheckConstraint("amount >= 0 AND refunded_amount >= 0", name="amounts"),
    )

    def __repr__(self) -> str:
        return f"<Payment {self.id} {self.status} {self.amount}>"


@sa.event.listens_for(Payment, "before_insert")
def _fill_payment_shop(_mapper: sa.orm.Mapper, connection: sa.Connection, payment: Payment) -> None:
    """A payment made naming only its member belongs to that member's shop."""
    if payment.shop_id is None and payment.user_id is not None:
        payment.shop_id = connection.scalar(sa.select(User.shop_id).where(User.id == payment.user_id))


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
