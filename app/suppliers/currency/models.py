"""A currency's TRY rate on one bulletin day, as the Central Bank published it."""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal

import sqlalchemy as sa
from sqlalchemy.orm import Mapped, mapped_column

from app.core.db import UTCDateTime, utcnow
from app.extensions import db


class CurrencyRate(db.Model):
    """TRY for one unit of `currency` on the bulletin of `rate_date` (the forex selling rate over the bulletin's
    unit); `fetched_at` is the last fetch that read it."""

    __tablename__ = "currency_rate"

    id: Mapped[int] = mapped_column(primary_key=True)
    currency: Mapped[str] = mapped_column(sa.String(3))
    rate_date: Mapped[date] = mapped_column(sa.Date)
    try_per_unit: Mapped[Decimal] = mapped_column(sa.Numeric(18, 6))
    fetched_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)

    __table_args__ = (sa.UniqueConstraint("currency", "rate_date"),)

    def __repr__(self) -> str:
        return f"<CurrencyRate {self.currency} {self.rate_date} {self.try_per_unit}>"
