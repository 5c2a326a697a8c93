"""A vehicle's catalog as we store it: the category tree, part rows, schema pictures with hotspots, and the log of
copied OEM codes.

Everything hangs off the shared vehicle and is deleted with it. Part rows are unique over (vehicle, category, OEM
code, name, position) with nulls comparing equal, so re-fetching a category never duplicates them.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Mapped, mapped_column

from app.catalog.folding import SEARCH_NAME_LENGTH, fold_names, folded_code, folded_name
from app.core.db import JsonDocument, UTCDateTime, utcnow
from app.core.text import fold_code
from app.extensions import db


def _search_index(name: str, column: str) -> sa.Index:
    """A trigram GIN index on PostgreSQL, so `LIKE '%word%'` stays fast on big tables; a plain index elsewhere."""
    return sa.Index(name, column, postgresql_using="gin", postgresql_ops={column: "gin_trgm_ops"})


class Category(db.Model):
    __tablename__ = "category"

    id: Mapped[int] = mapped_column(primary_key=True)
    # The vehicle row whose tree this is; for a car reached by browsing (no VIN) also its catalog vehicle.
    vehicle_id: Mapped[int] = mapped_column(sa.ForeignKey("vehicle.id", ondelete="CASCADE"))
    # No foreign key (SQLite adds none in place): the catalog vehicle and its categories go with their vehicle row.
    catalog_vehicle_id: Mapped[int | None] = mapped_column(index=True)
    parent_id: Mapped[int | None] = mapped_column(sa.ForeignKey("category.id", ondelete="CASCADE"), index=True)
    source: Mapped[str] = mapped_column(sa.String(20))
    external_id: Mapped[str] = mapped_column(sa.String(120))
    name: Mapped[str] = mapped_column(sa.String(300))
    link_path: Mapped[str | None] = mapped_column(sa.String(1000))
    unavailable: Mapped[bool] = mapped_column(default=False)
    remark: Mapped[str | None] = mapped_column(sa.Text)
    model_codes: Mapped[list[str]] = mapped_column(JsonDocument, default=list)
    presel: Mapped[bool] = mapped_column(default=False)
    is_leaf: Mapped[bool] = mapped_column(default=False)
    # The {NNN-NNN} code a picture-level category carries in its name: what reference rows point to.
    illustration_code: Mapped[str | None] = mapped_column(sa.String(20))
    sort_order: Mapped[int] = mapped_column(default=0)
    children_fetched_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    parts_fetched_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    # The name's search key over both languages (app.catalog.folding), filled on insert; a trigram index on PostgreSQL.
    search_name: Mapped[str] = mapped_column(sa.String(SEARCH_NAME_LENGTH), default=folded_name)
    # The name's language as the upstream wrote it, its Turkish text (app.translation) and which dictionary made it.
    name_lang: Mapped[str] = mapped_column(sa.String(2), default="en", server_default="en")
    name_tr: Mapped[str | None] = mapped_column(sa.String(400))  # Turkish runs longer than English
    name_tr_complete: Mapped[bool] = mapped_column(default=False, server_default=sa.false())
    translation_version: Mapped[str | None] = mapped_column(sa.String(40))
    # When the Turkish of this category's name or of its part rows last changed (rendered copies key on it).
    translated_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    # How many of a leaf's part rows fit the vehicle by its sources' facts alone (app.catalog.fit), set when its parts
    # are stored; null before that. A dealer's answers to questions move some maybes (PartFit).
    fit_yes: Mapped[int | None]
    fit_no: Mapped[int | None]
    fit_maybe: Mapped[int | None]

    __table_args__ = (
        # One row per upstream node under one parent (a root's parent is null: coalesced so it compares equal).
        sa.Index(
            "uq_category_node",
            "vehicle_id",
            sa.func.coalesce(sa.column("parent_id"), 0),
            "external_id",
            unique=True,
        ),
        sa.Index("ix_category_vehicle_id_illustration_code", "vehicle_id", "illustration_code"),
        _search_index("ix_category_search_name", "search_name"),
    )


# A part row whose fit answer is not the rules' in force: none computed (stored before them, or marked by a migration),
# or the earlier rule's yes for a row whose catalog states no applicability (no reasons: a JSON null). Written out
# once, the same text in the queries and the partial index, so that both backends use the index.
FIT_STALE = "fit_status IS NULL OR (fit_status = 'yes' AND (fit IS NULL OR CAST(fit AS TEXT) = 'null'))"


class Part(db.Model):
    __tablename__ = "part"

    id: Mapped[int] = mapped_column(primary_key=True)
    vehicle_id: Mapped[int | None] = mapped_column(sa.ForeignKey("vehicle.id", ondelete="CASCADE"), index=True)
    category_id: Mapped[int] = mapped_column(sa.ForeignKey("category.id", ondelete="CASCADE"), index=True)
    oem_code: Mapped[str] = mapped_column(sa.String(60))
    name: Mapped[str] = mapped_column(sa.String(300))
    position: Mapped[str | None] = mapped_column(sa.String(20))
    unavailable: Mapped[bool] = mapped_column(default=False)
    remark: Mapped[str | None] = mapped_column(sa.Text)
    model_codes: Mapped[list[str]] = mapped_column(JsonDocument, default=list)
    # Reference rows: the illustration code they point to, and the name with the 'see table' phrasing stripped.
    reference_code: Mapped[str | None] = mapped_column(sa.String(20))
    label: Mapped[str] = mapped_column(sa.String(300))
    # How many the drawing takes (a positive count, app.sources.quantity); null when the upstream gives none.
    quantity: Mapped[int | None]
    sort_order: Mapped[int] = mapped_column(default=0)
    # Search keys of the name and of the OEM code (app.catalog.folding), filled on insert.
    search_name: Mapped[str] = mapped_column(sa.String(SEARCH_NAME_LENGTH), default=folded_name)
    search_code: Mapped[str] = mapped_column(sa.String(60), default=folded_code)
    # As on Category; for a reference row the Turkish is of the whole name, its 'see table' phrasing kept.
    name_lang: Mapped[str] = mapped_column(sa.String(2), default="en", server_default="en")
    name_tr: Mapped[str | None] = mapped_column(sa.String(400))  # Turkish runs longer than English
    name_tr_complete: Mapped[bool] = mapped_column(default=False, server_default=sa.false())
    translation_version: Mapped[str | None] = mapped_column(sa.String(40))
    # Whether the part fits the vehicle (app.catalog.fit): its applicability as the sources state it (the condition
    # tree, app.catalog.fit.codec), and the answer by the vehicle's facts alone, set when the row is stored: the
    # status (yes, no or maybe) and the whole answer (reasons, question, unknown facts). Null on rows stored before
    # the rules in force: they wait for app.catalog.fit.recompute and read as a maybe meanwhile.
    applicability: Mapped[dict[str, Any] | None] = mapped_column(JsonDocument)
    fit_status: Mapped[str | None] = mapped_column(sa.String(5))
    fit: Mapped[dict[str, Any] | None] = mapped_column(JsonDocument)

    __table_args__ = (
        sa.Index(
            "uq_part_row",
            sa.func.coalesce(sa.column("vehicle_id"), 0),
            "category_id",
            "oem_code",
            "name",
            sa.func.coalesce(sa.column("position"), ""),
            unique=True,
        ),
        _search_index("ix_part_search_name", "search_name"),
        _search_index("ix_part_search_code", "search_code"),
        # Where-used (app.catalog.where_used) looks a folded code up exactly: a btree, which the trigram index
        # above is not on PostgreSQL; with the vehicle id, its counts per vehicle come from the index alone.
        sa.Index("ix_part_search_code_vehicle_id", "search_code", "vehicle_id"),
        # The rows waiting for their fit answer (FIT_STALE: app.catalog.fit.recompute), found without a scan.
        sa.Index("ix_part_fit_stale", "id", postgresql_where=sa.text(FIT_STALE), sqlite_where=sa.text(FIT_STALE)),
    )


class SchemaPicture(db.Model):
    """A leaf category's schema picture, copied into object storage once; hotspots are in its native pixels."""

    __tablename__ = "schema_picture"

    id: Mapped[int] = mapped_column(primary_key=True)
    category_id: Mapped[int] = mapped_column(sa.ForeignKey("category.id", ondelete="CASCADE"), unique=True)
    storage_key: Mapped[str] = mapped_column(sa.String(300))
    source_url: Mapped[str] = mapped_column(sa.String(1000))
    width: Mapped[int]
    height: Mapped[int]


class Hotspot(db.Model):
    __tablename__ = "hotspot"

    id: Mapped[int] = mapped_column(primary_key=True)
    schema_picture_id: Mapped[int] = mapped_column(sa.ForeignKey("schema_picture.id", ondelete="CASCADE"), index=True)
    position: Mapped[str] = mapped_column(sa.String(20))
    x1: Mapped[int]
    y1: Mapped[int]
    x2: Mapped[int]
    y2: Mapped[int]


class OemCopy(db.Model):
    """Each time a user copies a part's OEM code (kept when the vehicle or the part goes)."""

    __tablename__ = "oem_copy"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[uuid.UUID | None] = mapped_column(sa.ForeignKey("user.id", ondelete="SET NULL"), index=True)
    shop_id: Mapped[uuid.UUID | None] = mapped_column(sa.ForeignKey("shop.id", ondelete="SET NULL"), index=True)
    vehicle_id: Mapped[int | None] = mapped_column(sa.ForeignKey("vehicle.id", ondelete="SET NULL"))
    part_id: Mapped[int | None] = mapped_column(sa.ForeignKey("part.id", ondelete="SET NULL"))
    oem_code: Mapped[str] = mapped_column(sa.String(60), index=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, index=True)


class FitAnswer(db.Model):
    """A shop's answer to a fit question about one vehicle (gearbox, air conditioning, brake code...): it settles
    the maybes hanging on that fact for every member of the shop (`user_id`: who answered); other shops are offered
    only an anonymous count of the answers."""

    __tablename__ = "fit_answer"

    vehicle_id: Mapped[int] = mapped_column(sa.ForeignKey("vehicle.id", ondelete="CASCADE"), primary_key=True)
    shop_id: Mapped[uuid.UUID] = mapped_column(sa.ForeignKey("shop.id", ondelete="CASCADE"), primary_key=True)
    fact: Mapped[str] = mapped_column(sa.String(80), primary_key=True)
    user_id: Mapped[uuid.UUID | None] = mapped_column(sa.ForeignKey("user.id", ondelete="SET NULL"), index=True)
    value: Mapped[Any] = mapped_column(JsonDocument)
    answered_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class PartFit(db.Model):
    """A part's fit for one shop where the shop's answers changed it (only parts that are maybe by the sources'
    facts alone): written again whole for the vehicle each time a member answers or changes an answer."""

    __tablename__ = "part_fit"

    shop_id: Mapped[uuid.UUID] = mapped_column(sa.ForeignKey("shop.id", ondelete="CASCADE"), primary_key=True)
    part_id: Mapped[int] = mapped_column(sa.ForeignKey("part.id", ondelete="CASCADE"), primary_key=True)
    vehicle_id: Mapped[int] = mapped_column(sa.ForeignKey("vehicle.id", ondelete="CASCADE"))
    category_id: Mapped[int] = mapped_column(sa.ForeignKey("category.id", ondelete="CASCADE"))
    fit_status: Mapped[str] = mapped_column(sa.String(5))
    fit: Mapped[dict[str, Any]] = mapped_column(JsonDocument)

    __table_args__ = (sa.Index("ix_part_fit_shop_id_vehicle_id", "shop_id", "vehicle_id", "category_id"),)


class FitPreference(db.Model):
    """A member's "only what fits" switch (Sadece uyanlar), remembered across pages and devices: a way of reading
    the list, so it stays personal (issue 41, docs/decisions.md)."""

    __tablename__ = "fit_preference"

    user_id: Mapped[uuid.UUID] = mapped_column(sa.ForeignKey("user.id", ondelete="CASCADE"), primary_key=True)
    fitting_only: Mapped[bool] = mapped_column(default=False)


# ORM changes of a name or code keep the search keys in step (inserts are covered by the column defaults).
@sa.event.listens_for(Category.name, "set")
@sa.event.listens_for(Part.name, "set")
def _refold_name(target: Category | Part, value: str | None, _old: object, _initiator: object) -> None:
    target.search_name = fold_names(value or "", target.name_tr)


@sa.event.listens_for(Category.name_tr, "set")
@sa.event.listens_for(Part.name_tr, "set")
def _refold_name_tr(target: Category | Part, value: str | None, _old: object, _initiator: object) -> None:
    target.search_name = fold_names(target.name or "", value)


@sa.event.listens_for(Part.oem_code, "set")
def _refold_code(target: Part, value: str | None, _old: object, _initiator: object) -> None:
    target.search_code = fold_code(value or "")
