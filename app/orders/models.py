"""A shop's orders to its suppliers and their lines.

One open order per supplier and shop collects lines (the partial unique index `uq_supplier_order_open`); sending it
freezes it, and the next line starts a new open order. A quote line is on at most one order (`quote_line_id` is
unique), so a double click adds nothing twice; the order line keeps what it orders as it was then (codes, name,
quantity, cost), so a quote line changed or deleted later leaves the order as it was sent.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from decimal import Decimal

import sqlalchemy as sa
from sqlalchemy.orm import Mapped, mapped_column

from app.core.db import UTCDateTime, utcnow
from app.extensions import db

# open -> sent (mailed) -> ordered -> arrived; open -> ordered when the list was downloaded and ordered another way.
ORDER_STATUSES = ("open", "sent", "ordered", "arrived")
OPEN_ONLY = "status = 'open'"


class SupplierOrder(db.Model):
    __tablename__ = "supplier_order"

    id: Mapped[int] = mapped_column(primary_key=True)
    shop_id: Mapped[uuid.UUID] = mapped_column(sa.ForeignKey("shop.id", ondelete="CASCADE"), index=True)
    supplier_id: Mapped[int] = mapped_column(sa.ForeignKey("supplier.id", ondelete="CASCADE"), index=True)
    status: Mapped[str] = mapped_column(sa.String(8), default="open")
    # who started it; kept by the shop when that member deletes their account (then null)
    created_by: Mapped[uuid.UUID | None] = mapped_column(sa.ForeignKey("user.id", ondelete="SET NULL"), index=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    sent_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    sent_to: Mapped[str | None] = mapped_column(sa.String(254))  # the supplier's order address then
    ordered_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    arrived_at: Mapped[datetime | None] = mapped_column(UTCDateTime)

    __table_args__ = (
        sa.CheckConstraint(f"status IN {ORDER_STATUSES}", name="status"),
        sa.Index(
            "uq_supplier_order_open",
            "shop_id",
            "supplier_id",
            unique=True,
            sqlite_where=sa.text(OPEN_ONLY),
            postgresql_where=sa.text(OPEN_ONLY),
        ),
    )

    def __repr__(self) -> str:
        return f"<SupplierOrder {self.id} supplier {self.supplier_id} {self.status}>"


class SupplierOrderLine(db.Model):
    __tablename__ = "supplier_order_line"

    id: Mapped[int] = mapped_column(primary_key=True)
    order_id: Mapped[int] = mapped_column(sa.ForeignKey("supplier_order.id", ondelete="CASCADE"), index=True)
    quote_line_id: Mapped[int | None] = mapped_column(sa.ForeignKey("quote_line.id", ondelete="SET NULL"), unique=True)
    quote_id: Mapped[int | None] = mapped_column(sa.ForeignKey("quote.id", ondelete="SET NULL"), index=True)
    oem_code: Mapped[str | None] = mapped_column(sa.String(60))
    offer_code: Mapped[str | None] = mapped_column(sa.String(80))  # the supplier's own code
    brand: Mapped[str | None] = mapped_column(sa.String(80))
    name: Mapped[str] = mapped_column(sa.String(300))
    quantity: Mapped[Decimal] = mapped_column(sa.Numeric(10, 2))
    unit_cost: Mapped[Decimal | None] = mapped_column(sa.Numeric(14, 2))  # net TRY, as the quote line chose it
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)

    def __repr__(self) -> str:
        return f"<SupplierOrderLine {self.id} order {self.order_id} {self.offer_code or self.oem_code}>"
