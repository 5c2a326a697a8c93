"""The equivalents graph: links between part numbers and the links a shop rejected for itself.

A link joins two numbers by their folded keys (app.core.text.fold_code), each also kept as written and with its brand
when known. Its type reads from `a` to `b`: `same` (the same part, two-way), `replaces` (a replaces b; read from b,
b is replaced by a), `part_of` (a is part of b; read from b, b contains a). A link from a shop's own data (its stock
list, its suppliers, its members) carries the shop and is never seen by another shop; a catalog fact has no shop and
is everyone's. The same link from the same source (and detail: which list, which supplier) is stored once: two
partial unique indexes, one per side of the nullable shop, since nulls never compare equal in a plain one.
"""

from __future__ import annotations

import uuid
from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.orm import Mapped, mapped_column

from app.core.db import UTCDateTime, utcnow
from app.extensions import db

LINK_KINDS = ("same", "replaces", "part_of")
LINK_SOURCES = ("catalog", "supplier", "shelf", "member")
KEY_LENGTH = 60
BRAND_LENGTH = 80
DETAIL_LENGTH = 80
_UNIQUE = ("source", "detail", "a_key", "b_key", "kind")


class EquivalentLink(db.Model):
    """A link between two numbers, its type and where it came from (`detail`: e.g. the stock list's branch)."""

    __tablename__ = "equivalent_link"

    id: Mapped[int] = mapped_column(primary_key=True)
    shop_id: Mapped[uuid.UUID | None] = mapped_column(sa.ForeignKey("shop.id", ondelete="CASCADE"))
    a_key: Mapped[str] = mapped_column(sa.String(KEY_LENGTH))
    a_code: Mapped[str] = mapped_column(sa.String(KEY_LENGTH))
    a_brand: Mapped[str | None] = mapped_column(sa.String(BRAND_LENGTH))
    b_key: Mapped[str] = mapped_column(sa.String(KEY_LENGTH))
    b_code: Mapped[str] = mapped_column(sa.String(KEY_LENGTH))
    b_brand: Mapped[str | None] = mapped_column(sa.String(BRAND_LENGTH))
    kind: Mapped[str] = mapped_column(sa.String(10))
    source: Mapped[str] = mapped_column(sa.String(10))
    detail: Mapped[str] = mapped_column(sa.String(DETAIL_LENGTH), default="")
    # the member who confirmed it (source `member`); kept by the shop when that member deletes their account
    user_id: Mapped[uuid.UUID | None] = mapped_column(sa.ForeignKey("user.id", ondelete="SET NULL"), index=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)

    __table_args__ = (
        sa.CheckConstraint(f"kind IN {LINK_KINDS}", name="kind"),
        sa.CheckConstraint(f"source IN {LINK_SOURCES}", name="source"),
        sa.Index("ix_equivalent_link_a_key", "a_key"),
        sa.Index("ix_equivalent_link_b_key", "b_key"),
        sa.Index(
            "uq_equivalent_link_shop",
            "shop_id",
            *_UNIQUE,
            unique=True,
            sqlite_where=sa.text("shop_id IS NOT NULL"),
            postgresql_where=sa.text("shop_id IS NOT NULL"),
        ),
        sa.Index(
            "uq_equivalent_link_global",
            *_UNIQUE,
            unique=True,
            sqlite_where=sa.text("shop_id IS NULL"),
            postgresql_where=sa.text("shop_id IS NULL"),
        ),
    )

    def __repr__(self) -> str:
        return f"<EquivalentLink {self.id} {self.a_key} {self.kind} {self.b_key} ({self.source})>"


class EquivalentRejection(db.Model):
    """A link a shop rejected for itself, by its two numbers and type (so it stays rejected whichever source brings
    it again, a new stock list included); `same` is matched either way round."""

    __tablename__ = "equivalent_rejection"

    shop_id: Mapped[uuid.UUID] = mapped_column(sa.ForeignKey("shop.id", ondelete="CASCADE"), primary_key=True)
    a_key: Mapped[str] = mapped_column(sa.String(KEY_LENGTH), primary_key=True)
    b_key: Mapped[str] = mapped_column(sa.String(KEY_LENGTH), primary_key=True)
    kind: Mapped[str] = mapped_column(sa.String(10), primary_key=True)
    user_id: Mapped[uuid.UUID | None] = mapped_column(sa.ForeignKey("user.id", ondelete="SET NULL"), index=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)

    def __repr__(self) -> str:
        return f"<EquivalentRejection {self.shop_id} {self.a_key} {self.kind} {self.b_key}>"
