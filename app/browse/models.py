"""A catalog vehicle: a car reached by browsing (no VIN), stored once for every dealer.

Its catalog tree is stored like a decoded vehicle's, keyed by a VIN-less vehicle row (`vehicle_id`: the vehicle page,
the prefetch jobs and the search work on it unchanged), and each of its categories carries `catalog_vehicle_id`.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Mapped, mapped_column

from app.core.db import JsonDocument, UTCDateTime, utcnow
from app.extensions import db


class CatalogVehicle(db.Model):
    __tablename__ = "catalog_vehicle"

    id: Mapped[int] = mapped_column(primary_key=True)
    source: Mapped[str] = mapped_column(sa.String(20))  # catapi or scrape
    catalog: Mapped[str] = mapped_column(sa.String(100))  # the catapi catalog, or the web catalog's make
    external_id: Mapped[str] = mapped_column(sa.String(100))  # the catapi car id, or the web catalog's code
    brand_name: Mapped[str] = mapped_column(sa.String(80))
    model: Mapped[str] = mapped_column(sa.String(200))
    name: Mapped[str] = mapped_column(sa.String(300))
    year: Mapped[int | None]
    engine: Mapped[str | None] = mapped_column(sa.String(120))
    parameters: Mapped[dict[str, Any]] = mapped_column(JsonDocument, default=dict)
    vehicle_id: Mapped[int] = mapped_column(sa.ForeignKey("vehicle.id", ondelete="CASCADE"), unique=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)

    __table_args__ = (sa.UniqueConstraint("source", "catalog", "external_id"),)

    def __repr__(self) -> str:
        return f"<CatalogVehicle {self.id} {self.source}:{self.catalog}:{self.external_id}>"
