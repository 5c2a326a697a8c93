"""Decoded vehicles (shared by every user), each dealer's candidate picks and decode history, the query log and saved
VIN requests."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Mapped, mapped_column

from app.core.db import JsonDocument, UTCDateTime, utcnow
from app.extensions import db

VIN_REQUEST_KINDS = ("no_catalog", "report", "unavailable")


class Vehicle(db.Model):
    """One decoded car, stored once for every user; `raw_data` keeps what the source said about it.

    A VIN has at most one confirmed vehicle (`candidate_key` empty: a source answered with exactly this car) and one
    row per candidate any dealer chose from its candidate list (`candidate_key` names the candidate). Which candidate
    stands for the VIN is each dealer's own choice (VehiclePick).
    """

    __tablename__ = "vehicle"

    id: Mapped[int] = mapped_column(primary_key=True)
    vin: Mapped[str] = mapped_column(sa.String(17))
    candidate_key: Mapped[str] = mapped_column(sa.String(300), default="", server_default="")
    brand_id: Mapped[int | None] = mapped_column(sa.ForeignKey("brand.id", ondelete="SET NULL"))
    brand_name: Mapped[str] = mapped_column(sa.String(80))
    model: Mapped[str] = mapped_column(sa.String(200))
    year: Mapped[int | None]
    engine: Mapped[str | None] = mapped_column(sa.String(120))
    source: Mapped[str] = mapped_column(sa.String(20))
    raw_data: Mapped[dict[str, Any]] = mapped_column(JsonDocument, default=dict)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)

    __table_args__ = (sa.UniqueConstraint("vin", "candidate_key"),)

    @property
    def title(self) -> str:
        return f"{self.brand_name} {self.model}".strip()

    @property
    def confirmed(self) -> bool:
        """Whether a source identified this car for the VIN on its own (not one candidate a dealer chose)."""
        return not self.candidate_key

    def __repr__(self) -> str:
        return f"<Vehicle {self.id} {self.vin}>"


class UserVehicle(db.Model):
    """A shop's decode history (issue 41): one row per vehicle, moved to the top each time a member decodes it again;
    `user_id` is the member who decoded it last."""

    __tablename__ = "user_vehicle"

    shop_id: Mapped[uuid.UUID] = mapped_column(sa.ForeignKey("shop.id", ondelete="CASCADE"), primary_key=True)
    vehicle_id: Mapped[int] = mapped_column(sa.ForeignKey("vehicle.id", ondelete="CASCADE"), primary_key=True)
    user_id: Mapped[uuid.UUID | None] = mapped_column(sa.ForeignKey("user.id", ondelete="SET NULL"), index=True)
    last_decoded_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)

    __table_args__ = (sa.Index("ix_user_vehicle_shop_id_last_decoded_at", "shop_id", "last_decoded_at"),)


class VehiclePick(db.Model):
    """A shop's own choice among a VIN's candidates: other shops never see it; choosing again replaces it;
    `user_id` is the member who chose."""

    __tablename__ = "vehicle_pick"

    shop_id: Mapped[uuid.UUID] = mapped_column(sa.ForeignKey("shop.id", ondelete="CASCADE"), primary_key=True)
    vin: Mapped[str] = mapped_column(sa.String(17), primary_key=True)
    user_id: Mapped[uuid.UUID | None] = mapped_column(sa.ForeignKey("user.id", ondelete="SET NULL"), index=True)
    vehicle_id: Mapped[int] = mapped_column(sa.ForeignKey("vehicle.id", ondelete="CASCADE"), index=True)
    picked_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)

    def __repr__(self) -> str:
        return f"<VehiclePick {self.shop_id} {self.vin} -> {self.vehicle_id}>"


class QueryLog(db.Model):
    """One row per decode, kept when the vehicle or the user goes; `timings` holds the keys the spec lists. `shop_id`
    is the member's shop (null for a refusal with nobody signed in, or once the shop is gone), `branch_id` the
    branch they worked in; the shop's activity lists its decodes from here (app.vehicles.activity)."""

    __tablename__ = "query_log"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[uuid.UUID | None] = mapped_column(sa.ForeignKey("user.id", ondelete="SET NULL"), index=True)
    shop_id: Mapped[uuid.UUID | None] = mapped_column(sa.ForeignKey("shop.id", ondelete="SET NULL"), index=True)
    # No index of its own: every decode would maintain it, for a branch's deletion (rare) and the activity's branch
    # filter (read within the shop's rows, which ix_query_log_shop_id finds).
    branch_id: Mapped[int | None] = mapped_column(sa.ForeignKey("branch.id", ondelete="SET NULL"))
    vin: Mapped[str] = mapped_column(sa.String(17), index=True)
    brand_id: Mapped[int | None] = mapped_column(sa.ForeignKey("brand.id", ondelete="SET NULL"))
    source: Mapped[str | None] = mapped_column(sa.String(20))
    success: Mapped[bool]
    error_message: Mapped[str | None] = mapped_column(sa.Text)
    response_time_ms: Mapped[int]
    timings: Mapped[dict[str, Any]] = mapped_column(JsonDocument, default=dict)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, index=True)


class VinRequest(db.Model):
    """A VIN we could not serve: identified without a catalog (saved for us to add one), asked for while every
    catalog source failed (unavailable; `description` is the make the WMI table names) or reported by a user.

    A member's message to us (the admin reads them), not the shop's business data: it stays per person (issue 41,
    docs/decisions.md)."""

    __tablename__ = "vin_request"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[uuid.UUID | None] = mapped_column(sa.ForeignKey("user.id", ondelete="SET NULL"))
    vin: Mapped[str] = mapped_column(sa.String(17), index=True)
    kind: Mapped[str] = mapped_column(sa.String(20))
    description: Mapped[str | None] = mapped_column(sa.String(200))
    note: Mapped[str | None] = mapped_column(sa.Text)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)

    __table_args__ = (
        sa.CheckConstraint(f"kind IN {VIN_REQUEST_KINDS}", name="kind"),
        sa.UniqueConstraint("user_id", "vin", "kind"),
    )


class ScrapeVinCache(db.Model):
    """What the web catalog answered for a VIN (its car, or its candidates): a repeat VIN skips that upstream call,
    also when the VIN's vehicle is not stored (candidates not picked yet, a deleted vehicle, an emptied Redis)."""

    __tablename__ = "scrape_vin_cache"

    vin: Mapped[str] = mapped_column(sa.String(17), primary_key=True)
    cars: Mapped[list[dict[str, Any]]] = mapped_column(JsonDocument, default=list)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class CatalogVehicle(db.Model):
    """A car reached by browsing (no VIN), stored once for every dealer.

    Its catalog tree is stored like a decoded vehicle's, keyed by a VIN-less vehicle row (`vehicle_id`: the vehicle
    page, the prefetch jobs and the search work on it unchanged), and each of its categories carries
    `catalog_vehicle_id`.
    """

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
