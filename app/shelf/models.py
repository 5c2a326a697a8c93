"""A dealer's shelf list: each uploaded file and its import, the rows of the list and every number a row answers to.

A new import writes its rows under its own id; when it is complete the dealer's active list (`ShelfActive`) points
at it in one statement, so the old list stays in use until then and no reader sees half a list.
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

IMPORT_STATUSES = ("uploaded", "importing", "done", "failed")
# What a number on the list is to its row: the OEM number, the dealer's own code, an aftermarket number, or the
# number the row is replaced by (so a part carrying that number finds the row it replaces).
NUMBER_KINDS = ("oem", "own", "aftermarket", "successor")


class ShelfImport(db.Model):
    """One uploaded file: its preview is read at upload, its rows by the import job once the dealer has mapped the
    columns; `errors` keeps the first row errors as [line, reason]."""

    __tablename__ = "shelf_import"

    id: Mapped[int] = mapped_column(primary_key=True)
    shop_id: Mapped[uuid.UUID] = mapped_column(sa.ForeignKey("shop.id", ondelete="CASCADE"), index=True)
    branch_id: Mapped[int] = mapped_column(sa.ForeignKey("branch.id", ondelete="CASCADE"), index=True)
    # who made it; kept by the shop when that member deletes their account (then null)
    user_id: Mapped[uuid.UUID | None] = mapped_column(sa.ForeignKey("user.id", ondelete="SET NULL"), index=True)
    filename: Mapped[str] = mapped_column(sa.String(255))
    file_kind: Mapped[str] = mapped_column(sa.String(5))  # csv or xlsx
    size_bytes: Mapped[int] = mapped_column(default=0)
    status: Mapped[str] = mapped_column(sa.String(12), default="uploaded")
    mapping: Mapped[dict[str, Any] | None] = mapped_column(JsonDocument)
    rows_total: Mapped[int] = mapped_column(default=0)
    rows_done: Mapped[int] = mapped_column(default=0)
    rows_imported: Mapped[int] = mapped_column(default=0)
    rows_failed: Mapped[int] = mapped_column(default=0)
    errors: Mapped[list[Any]] = mapped_column(JsonDocument, default=list)
    message: Mapped[str | None] = mapped_column(sa.String(300))  # why the whole import failed
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    started_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime)

    __table_args__ = (
        sa.CheckConstraint(f"status IN {IMPORT_STATUSES}", name="status"),
        # One import running per branch list, whatever the code paths and their races do (app.shelf.imports.start).
        sa.Index(
            "uq_shelf_import_one_importing_per_branch",
            "shop_id",
            "branch_id",
            unique=True,
            sqlite_where=sa.text("status = 'importing'"),
            postgresql_where=sa.text("status = 'importing'"),
        ),
    )


class ShelfUpload(db.Model):
    """The uploaded file's bytes, private to the dealer (never in the public object storage), kept until its import
    has finished."""

    __tablename__ = "shelf_upload"

    import_id: Mapped[int] = mapped_column(sa.ForeignKey("shelf_import.id", ondelete="CASCADE"), primary_key=True)
    data: Mapped[bytes] = mapped_column(sa.LargeBinary)


class ShelfActive(db.Model):
    """Which import is a branch's list in use."""

    __tablename__ = "shelf_active"

    branch_id: Mapped[int] = mapped_column(sa.ForeignKey("branch.id", ondelete="CASCADE"), primary_key=True)
    shop_id: Mapped[uuid.UUID] = mapped_column(sa.ForeignKey("shop.id", ondelete="CASCADE"), index=True)
    import_id: Mapped[int] = mapped_column(sa.ForeignKey("shelf_import.id", ondelete="CASCADE"))
    activated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class ShelfMapping(db.Model):
    """The column mapping the shop chose last, offered for the next file of any of its branches."""

    __tablename__ = "shelf_mapping"

    shop_id: Mapped[uuid.UUID] = mapped_column(sa.ForeignKey("shop.id", ondelete="CASCADE"), primary_key=True)
    mapping: Mapped[dict[str, Any]] = mapped_column(JsonDocument)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, onupdate=utcnow)


class ShelfItem(db.Model):
    """One row of a dealer's list, as imported (numbers as the dealer wrote them; `line` is the file's line)."""

    __tablename__ = "shelf_item"

    id: Mapped[int] = mapped_column(primary_key=True)
    import_id: Mapped[int] = mapped_column(sa.ForeignKey("shelf_import.id", ondelete="CASCADE"), index=True)
    line: Mapped[int]
    oem_code: Mapped[str | None] = mapped_column(sa.String(60))
    own_code: Mapped[str | None] = mapped_column(sa.String(60))
    brand: Mapped[str | None] = mapped_column(sa.String(80))
    name: Mapped[str | None] = mapped_column(sa.String(300))
    price: Mapped[Decimal | None] = mapped_column(sa.Numeric(14, 2))
    currency: Mapped[str] = mapped_column(sa.String(3), default="TRY")
    stock: Mapped[int | None]
    replaced_by: Mapped[str | None] = mapped_column(sa.String(60))


class ShelfNumber(db.Model):
    """A number a list row answers to, by its folded key (the OEM codes' search key, app.core.text.fold_code)."""

    __tablename__ = "shelf_number"

    item_id: Mapped[int] = mapped_column(sa.ForeignKey("shelf_item.id", ondelete="CASCADE"), primary_key=True)
    kind: Mapped[str] = mapped_column(sa.String(12), primary_key=True)
    key: Mapped[str] = mapped_column(sa.String(60), primary_key=True)
    import_id: Mapped[int] = mapped_column(sa.ForeignKey("shelf_import.id", ondelete="CASCADE"))

    __table_args__ = (
        sa.Index("ix_shelf_number_import_id_key", "import_id", "key"),
        sa.CheckConstraint(f"kind IN {NUMBER_KINDS}", name="kind"),
    )
