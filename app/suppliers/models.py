"""A shop's suppliers (distributors): their terms, their price lists and the numbers each line of a list answers to.

A supplier's list is imported as the shop's stock list is (app.shelf): each file (uploaded, or pulled from the
supplier's URL) is an import whose lines are written under its own id, and the supplier's active list
(`SupplierActive`) points at it in one statement once it is complete, so the last good list stays in use until then,
and when a pull or an import fails. The secret of a pulled list (a password or a token) is kept encrypted
(app.suppliers.secrets) and never shown back.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from decimal import Decimal
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Mapped, mapped_column

from app.core.db import JsonDocument, UTCDateTime, utcnow
from app.extensions import db

SOURCES = ("upload", "url")
AUTH_KINDS = ("none", "basic", "token")
IMPORT_STATUSES = ("uploaded", "importing", "done", "failed")
IMPORT_ORIGINS = ("upload", "pull")
# What a number is to its line: the supplier's own code, its OEM column, a number found in its OE text, its EAN.
NUMBER_KINDS = ("own", "oem", "oe", "ean")


def _member() -> Mapped[uuid.UUID | None]:
    """Who made the row; kept by the shop when that member deletes their account (then null)."""
    return mapped_column(sa.ForeignKey("user.id", ondelete="SET NULL"), index=True)


def _shop() -> Mapped[uuid.UUID]:
    """The shop the row belongs to: closing the shop deletes it."""
    return mapped_column(sa.ForeignKey("shop.id", ondelete="CASCADE"), index=True)


class Supplier(db.Model):
    """A distributor a shop buys from, its terms and where its price list comes from."""

    __tablename__ = "supplier"

    id: Mapped[int] = mapped_column(primary_key=True)
    shop_id: Mapped[uuid.UUID] = _shop()
    user_id: Mapped[uuid.UUID | None] = _member()
    name: Mapped[str] = mapped_column(sa.String(120))
    currency: Mapped[str] = mapped_column(sa.String(3), default="TRY")
    discount_percent: Mapped[Decimal] = mapped_column(sa.Numeric(5, 2), default=Decimal(0))
    delivery_promise: Mapped[str | None] = mapped_column(sa.String(200))
    order_cutoff: Mapped[str | None] = mapped_column(sa.String(5))  # "14:00", Istanbul time
    order_email: Mapped[str | None] = mapped_column(sa.String(254))
    source: Mapped[str] = mapped_column(sa.String(6), default="upload")
    url: Mapped[str | None] = mapped_column(sa.String(2000))
    auth_kind: Mapped[str] = mapped_column(sa.String(5), default="none")
    auth_user: Mapped[str | None] = mapped_column(sa.String(200))  # basic auth's user name
    auth_header: Mapped[str | None] = mapped_column(sa.String(100))  # the token's header name
    auth_secret: Mapped[str | None] = mapped_column(sa.Text)  # the password or token, Fernet-encrypted
    pull_interval_minutes: Mapped[int | None]
    last_refreshed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    last_pull_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    last_pull_error: Mapped[str | None] = mapped_column(sa.String(300))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, onupdate=utcnow)

    __table_args__ = (
        sa.UniqueConstraint("shop_id", "name", name="uq_supplier_shop_id_name"),
        sa.CheckConstraint(f"source IN {SOURCES}", name="source"),
        sa.CheckConstraint(f"auth_kind IN {AUTH_KINDS}", name="auth_kind"),
    )

    def __repr__(self) -> str:
        return f"<Supplier {self.id} {self.name!r}>"


class SupplierBrandDiscount(db.Model):
    """A supplier's discount on one brand, in place of its general discount."""

    __tablename__ = "supplier_brand_discount"

    supplier_id: Mapped[int] = mapped_column(sa.ForeignKey("supplier.id", ondelete="CASCADE"), primary_key=True)
    brand_key: Mapped[str] = mapped_column(sa.String(80), primary_key=True)  # folded (app.core.text.fold)
    brand: Mapped[str] = mapped_column(sa.String(80))  # as the manager wrote it
    discount_percent: Mapped[Decimal] = mapped_column(sa.Numeric(5, 2))
    user_id: Mapped[uuid.UUID | None] = _member()
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)

    def __repr__(self) -> str:
        return f"<SupplierBrandDiscount {self.supplier_id} {self.brand!r} {self.discount_percent}>"


MARKUP_KINDS = ("percent", "fixed")


class OfferSettings(db.Model):
    """How a shop's offers show prices: net of KDV (a dealer's purchase prices) or with it, at `kdv_rate`."""

    __tablename__ = "offer_settings"

    shop_id: Mapped[uuid.UUID] = mapped_column(sa.ForeignKey("shop.id", ondelete="CASCADE"), primary_key=True)
    with_kdv: Mapped[bool] = mapped_column(default=False)
    kdv_rate: Mapped[Decimal] = mapped_column(sa.Numeric(5, 2), default=Decimal(20))

    def __repr__(self) -> str:
        return f"<OfferSettings {self.shop_id} with_kdv={self.with_kdv} {self.kdv_rate}>"


class OfferEpoch(db.Model):
    """One row: a number raised in the same transaction as every change to what the shop's offers are made of (see
    app.suppliers.offer_cache), so a process may keep offers it computed for as long as the number stands."""

    __tablename__ = "offer_epoch"

    id: Mapped[int] = mapped_column(primary_key=True)
    version: Mapped[int] = mapped_column(sa.BigInteger, default=1)

    def __repr__(self) -> str:
        return f"<OfferEpoch {self.version}>"


class MarkupRule(db.Model):
    """The shop's markup from an offer's cost to its sale price: for one supplier, one brand, both, or neither (the
    shop's default); the most specific rule wins. `scope_key` ("<supplier id or *>|<brand key or *>") keeps one rule
    per scope, NULLs being distinct in a unique index."""

    __tablename__ = "markup_rule"

    id: Mapped[int] = mapped_column(primary_key=True)
    shop_id: Mapped[uuid.UUID] = _shop()
    supplier_id: Mapped[int | None] = mapped_column(sa.ForeignKey("supplier.id", ondelete="CASCADE"), index=True)
    brand_key: Mapped[str | None] = mapped_column(sa.String(80))  # folded (app.core.text.fold)
    brand: Mapped[str | None] = mapped_column(sa.String(80))  # as the manager wrote it
    scope_key: Mapped[str] = mapped_column(sa.String(100))
    kind: Mapped[str] = mapped_column(sa.String(7), default="percent")
    value: Mapped[Decimal] = mapped_column(sa.Numeric(12, 2))
    user_id: Mapped[uuid.UUID | None] = _member()
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)

    __table_args__ = (
        sa.UniqueConstraint("shop_id", "scope_key", name="uq_markup_rule_shop_id_scope_key"),
        sa.CheckConstraint(f"kind IN {MARKUP_KINDS}", name="kind"),
    )

    def __repr__(self) -> str:
        return f"<MarkupRule {self.id} {self.scope_key} {self.kind} {self.value}>"


class SupplierImport(db.Model):
    """One file of a supplier's list, uploaded or pulled; `errors` keeps the first row errors as [line, reason]."""

    __tablename__ = "supplier_import"

    id: Mapped[int] = mapped_column(primary_key=True)
    shop_id: Mapped[uuid.UUID] = _shop()
    supplier_id: Mapped[int] = mapped_column(sa.ForeignKey("supplier.id", ondelete="CASCADE"), index=True)
    user_id: Mapped[uuid.UUID | None] = _member()
    origin: Mapped[str] = mapped_column(sa.String(6), default="upload")
    filename: Mapped[str] = mapped_column(sa.String(255))
    file_kind: Mapped[str] = mapped_column(sa.String(5))  # csv, xlsx or xml
    size_bytes: Mapped[int] = mapped_column(default=0)
    status: Mapped[str] = mapped_column(sa.String(12), default="uploaded")
    mapping: Mapped[dict[str, Any] | None] = mapped_column(JsonDocument)
    rows_total: Mapped[int] = mapped_column(default=0)
    rows_done: Mapped[int] = mapped_column(default=0)
    rows_imported: Mapped[int] = mapped_column(default=0)
    rows_failed: Mapped[int] = mapped_column(default=0)
    errors: Mapped[list[Any]] = mapped_column(JsonDocument, default=list)
    message: Mapped[str | None] = mapped_column(sa.String(300))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    started_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime)

    __table_args__ = (
        sa.CheckConstraint(f"status IN {IMPORT_STATUSES}", name="status"),
        sa.CheckConstraint(f"origin IN {IMPORT_ORIGINS}", name="origin"),
        # One import running per supplier, whatever the races of two starts (app.suppliers.imports.start).
        sa.Index(
            "uq_supplier_import_one_importing_per_supplier",
            "supplier_id",
            unique=True,
            sqlite_where=sa.text("status = 'importing'"),
            postgresql_where=sa.text("status = 'importing'"),
        ),
    )

    def __repr__(self) -> str:
        return f"<SupplierImport {self.id} {self.status}>"


class SupplierUpload(db.Model):
    """The file's bytes, private to the shop (never in the public object storage), kept until its import ends."""

    __tablename__ = "supplier_upload"

    import_id: Mapped[int] = mapped_column(sa.ForeignKey("supplier_import.id", ondelete="CASCADE"), primary_key=True)
    data: Mapped[bytes] = mapped_column(sa.LargeBinary)

    def __repr__(self) -> str:
        return f"<SupplierUpload {self.import_id}>"


class SupplierActive(db.Model):
    """Which import is a supplier's list in use."""

    __tablename__ = "supplier_active"

    supplier_id: Mapped[int] = mapped_column(sa.ForeignKey("supplier.id", ondelete="CASCADE"), primary_key=True)
    shop_id: Mapped[uuid.UUID] = _shop()
    import_id: Mapped[int] = mapped_column(sa.ForeignKey("supplier_import.id", ondelete="CASCADE"))
    activated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)

    def __repr__(self) -> str:
        return f"<SupplierActive {self.supplier_id} {self.import_id}>"


class SupplierMapping(db.Model):
    """The column mapping chosen last for a supplier's list, offered for its next file and used by its pulls."""

    __tablename__ = "supplier_mapping"

    supplier_id: Mapped[int] = mapped_column(sa.ForeignKey("supplier.id", ondelete="CASCADE"), primary_key=True)
    mapping: Mapped[dict[str, Any]] = mapped_column(JsonDocument)
    user_id: Mapped[uuid.UUID | None] = _member()
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, onupdate=utcnow)

    def __repr__(self) -> str:
        return f"<SupplierMapping {self.supplier_id}>"


class SupplierLine(db.Model):
    """One line of a supplier's list as imported (numbers as the supplier wrote them; `line` is the file's line)."""

    __tablename__ = "supplier_line"

    id: Mapped[int] = mapped_column(primary_key=True)
    import_id: Mapped[int] = mapped_column(sa.ForeignKey("supplier_import.id", ondelete="CASCADE"), index=True)
    line: Mapped[int]
    own_code: Mapped[str | None] = mapped_column(sa.String(60))
    brand: Mapped[str | None] = mapped_column(sa.String(80))
    name: Mapped[str | None] = mapped_column(sa.String(300))
    price: Mapped[Decimal | None] = mapped_column(sa.Numeric(14, 2))
    currency: Mapped[str] = mapped_column(sa.String(3), default="TRY")
    stock: Mapped[int | None]  # a count; null when the list says none or only words
    stock_text: Mapped[str | None] = mapped_column(sa.String(40))  # "Var", "Yok", "10+" as written
    ean: Mapped[str | None] = mapped_column(sa.String(20))  # a valid GTIN, normalised
    oem_code: Mapped[str | None] = mapped_column(sa.String(60))
    oe_text: Mapped[str | None] = mapped_column(sa.String(1000))

    def __repr__(self) -> str:
        return f"<SupplierLine {self.id} {self.own_code!r}>"


class SupplierNumber(db.Model):
    """A number a line answers to, by its folded key (app.core.text.fold_code)."""

    __tablename__ = "supplier_number"

    line_id: Mapped[int] = mapped_column(sa.ForeignKey("supplier_line.id", ondelete="CASCADE"), primary_key=True)
    kind: Mapped[str] = mapped_column(sa.String(5), primary_key=True)
    key: Mapped[str] = mapped_column(sa.String(60), primary_key=True)
    import_id: Mapped[int] = mapped_column(sa.ForeignKey("supplier_import.id", ondelete="CASCADE"))

    __table_args__ = (
        sa.Index("ix_supplier_number_import_id_key", "import_id", "key"),
        sa.CheckConstraint(f"kind IN {NUMBER_KINDS}", name="kind"),
    )

    def __repr__(self) -> str:
        return f"<SupplierNumber {self.line_id} {self.kind} {self.key}>"


SUGGESTION_REASONS = ("similar_number", "brand_hint")
SUGGESTION_STATUSES = ("pending", "confirmed", "rejected")


class SupplierSuggestion(db.Model):
    """A known catalog number close to one a supplier's line states (never equal): a manager confirms it (the line
    then answers to it, list after list) or rejects it (never asked again). The line is known by its own code
    (`line_key`, folded), which outlives the list's refreshes; `number_key` is the line's number as read."""

    __tablename__ = "supplier_suggestion"

    id: Mapped[int] = mapped_column(primary_key=True)
    shop_id: Mapped[uuid.UUID] = _shop()
    supplier_id: Mapped[int] = mapped_column(sa.ForeignKey("supplier.id", ondelete="CASCADE"), index=True)
    own_code: Mapped[str] = mapped_column(sa.String(60))
    line_key: Mapped[str] = mapped_column(sa.String(60))
    number_key: Mapped[str] = mapped_column(sa.String(60))
    candidate_key: Mapped[str] = mapped_column(sa.String(60))
    reason: Mapped[str] = mapped_column(sa.String(14))
    score: Mapped[float] = mapped_column(sa.Float)
    status: Mapped[str] = mapped_column(sa.String(9), default="pending")
    decided_by: Mapped[uuid.UUID | None] = _member()
    decided_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)

    __table_args__ = (
        sa.UniqueConstraint(
            "supplier_id", "line_key", "candidate_key", name="uq_supplier_suggestion_supplier_id_line_key_candidate_key"
        ),
        sa.CheckConstraint(f"status IN {SUGGESTION_STATUSES}", name="status"),
        sa.CheckConstraint(f"reason IN {SUGGESTION_REASONS}", name="reason"),
    )

    def __repr__(self) -> str:
        return f"<SupplierSuggestion {self.id} {self.line_key} {self.candidate_key} {self.status}>"
