"""Quotes: a dealer's offer to a customer for one vehicle, its lines, and the dealer's quote settings.

A quote is shared by a random token whose SHA-256 is stored (`share_token_hash`): the link works without an account
until `expires_at`, unless revoked; its first opening by a person (the page's beacon, not a link preview's fetch) is
recorded (`first_opened_at`, state "opened"). A shared quote is frozen: what the link shows stays what was sent (the
shop's name and phone as they were then, `sent_shop_name` and `sent_phone`, and its branch's name, address and
phone, `sent_branch_*`). A change is made on a new version, a
draft copy (`version_of`: the first quote of the series, `version` counting from 1).
"""

from __future__ import annotations

import uuid
from datetime import datetime
from decimal import Decimal

import sqlalchemy as sa
from sqlalchemy.orm import Mapped, mapped_column

from app.core.db import UTCDateTime, utcnow
from app.extensions import db

QUOTE_STATUSES = ("draft", "sent", "opened")
LINE_KINDS = ("part", "free")
DEFAULT_KDV_RATE = Decimal("20.00")


class QuoteProfile(db.Model):
    """What a shop's quotes say of it (name, phone). The KDV rate they apply is the shop's one rate, kept with its
    offer settings (app.suppliers.models.OfferSettings)."""

    __tablename__ = "quote_profile"

    shop_id: Mapped[uuid.UUID] = mapped_column(sa.ForeignKey("shop.id", ondelete="CASCADE"), primary_key=True)
    shop_name: Mapped[str | None] = mapped_column(sa.String(120))
    phone: Mapped[str | None] = mapped_column(sa.String(40))


class Quote(db.Model):
    __tablename__ = "quote"

    id: Mapped[int] = mapped_column(primary_key=True)
    shop_id: Mapped[uuid.UUID] = mapped_column(sa.ForeignKey("shop.id", ondelete="CASCADE"), index=True)
    branch_id: Mapped[int | None] = mapped_column(sa.ForeignKey("branch.id", ondelete="SET NULL"), index=True)
    # who made it; kept by the shop when that member deletes their account (then null)
    user_id: Mapped[uuid.UUID | None] = mapped_column(sa.ForeignKey("user.id", ondelete="SET NULL"), index=True)
    vehicle_id: Mapped[int | None] = mapped_column(sa.ForeignKey("vehicle.id", ondelete="SET NULL"))
    vin: Mapped[str | None] = mapped_column(sa.String(17))
    vehicle_title: Mapped[str] = mapped_column(sa.String(200), default="")
    customer: Mapped[str | None] = mapped_column(sa.String(120))
    status: Mapped[str] = mapped_column(sa.String(8), default="draft")
    kdv_rate: Mapped[Decimal] = mapped_column(sa.Numeric(5, 2), default=DEFAULT_KDV_RATE)
    share_token_hash: Mapped[str | None] = mapped_column(sa.String(64), unique=True)
    shared_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    expires_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    first_opened_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    version_of: Mapped[int | None] = mapped_column(sa.ForeignKey("quote.id", ondelete="SET NULL"), index=True)
    version: Mapped[int] = mapped_column(default=1, server_default="1")
    sent_shop_name: Mapped[str | None] = mapped_column(sa.String(120))
    sent_phone: Mapped[str | None] = mapped_column(sa.String(40))
    sent_branch_name: Mapped[str | None] = mapped_column(sa.String(80))
    sent_branch_address: Mapped[str | None] = mapped_column(sa.String(300))
    sent_branch_phone: Mapped[str | None] = mapped_column(sa.String(40))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, onupdate=utcnow)

    __table_args__ = (sa.CheckConstraint(f"status IN {QUOTE_STATUSES}", name="status"),)


class QuoteLine(db.Model):
    """A part from the catalog (`part_id`, kept as text when the part goes) or a free line (labour, other items)."""

    __tablename__ = "quote_line"

    id: Mapped[int] = mapped_column(primary_key=True)
    quote_id: Mapped[int] = mapped_column(sa.ForeignKey("quote.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(sa.String(5), default="part")
    part_id: Mapped[int | None] = mapped_column(sa.ForeignKey("part.id", ondelete="SET NULL"))
    category_id: Mapped[int | None]  # the drawing the part was added from (its thumbnail on the shared page)
    oem_code: Mapped[str | None] = mapped_column(sa.String(60))
    name: Mapped[str] = mapped_column(sa.String(300))
    quantity: Mapped[Decimal] = mapped_column(sa.Numeric(10, 2), default=Decimal(1))
    unit_price: Mapped[Decimal | None] = mapped_column(sa.Numeric(14, 2))
    sort_order: Mapped[int] = mapped_column(default=0)
    # a supplier's offer chosen for the line (app.suppliers.offers), as it was then: never on the customer's link
    supplier_id: Mapped[int | None] = mapped_column(sa.ForeignKey("supplier.id", ondelete="SET NULL"), index=True)
    supplier_line_id: Mapped[int | None]  # the list's line; gone when a newer list replaces it
    supplier_name: Mapped[str | None] = mapped_column(sa.String(120))
    offer_brand: Mapped[str | None] = mapped_column(sa.String(80))
    offer_code: Mapped[str | None] = mapped_column(sa.String(80))  # the supplier's own code
    unit_cost: Mapped[Decimal | None] = mapped_column(sa.Numeric(14, 2))  # net TRY, after discount, without KDV
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)

    __table_args__ = (sa.CheckConstraint(f"kind IN {LINE_KINDS}", name="kind"),)
