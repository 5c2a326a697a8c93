"""The lines of a shop's suppliers' lists in use that answer to given numbers, in one query for many numbers (a
drawing's rows, a search's hits): each key (folded, app.core.text.fold_code) with the lines answering to it, and by
what (the supplier's own code, its OEM column, a number in its OE text, its EAN). Only lists in use are read
(`SupplierActive`), so a list being imported or a failed pull never shows."""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal

import sqlalchemy as sa

from app.core.text import fold_code
from app.extensions import db
from app.suppliers.models import Supplier, SupplierActive, SupplierLine, SupplierNumber

MAX_KEYS = 2000  # a page's numbers; more are read in several queries


@dataclass(frozen=True)
class LineView:
    """A supplier's line as an offer is made from it (the supplier's terms are read beside it, once per supplier)."""

    supplier_id: int
    supplier_name: str
    line_id: int
    kind: str  # what the key matched: own, oem, oe or ean
    own_code: str | None
    brand: str | None
    name: str | None
    price: Decimal | None
    currency: str
    stock: int | None
    stock_text: str | None


def lines_for_keys(shop_id: uuid.UUID, keys: Iterable[str]) -> dict[str, list[LineView]]:
    """Each key (folded here too) with the lines of the shop's suppliers' lists in use that answer to it, cheapest
    first; a key no line answers to is left out."""
    wanted = sorted({fold_code(key) for key in keys} - {""})
    found: dict[str, list[LineView]] = {}
    for start in range(0, len(wanted), MAX_KEYS):
        for key, view in _lines(shop_id, wanted[start : start + MAX_KEYS]):
            found.setdefault(key, []).append(view)
    return found


def line_in_use(shop_id: uuid.UUID, line_id: int) -> LineView | None:
    """One line of a shop's supplier's list in use (an offer chosen by its line); None when another shop's, or when
    a newer list replaced it."""
    query = _query(shop_id).where(SupplierLine.id == line_id).limit(1)
    row = db.session.execute(query).first()
    return _view(row)[1] if row is not None else None


def numbers_of_lines(import_id: int, first: int, last: int, kinds: Iterable[str]) -> dict[int, list[str]]:
    """Each line of the import between ids `first` and `last` with the keys of its numbers of `kinds`, as the import
    stored them (the OEM column's first), in one query for the range."""
    query = (
        sa.select(SupplierNumber.line_id, SupplierNumber.key)
        .where(
            SupplierNumber.import_id == import_id,
            SupplierNumber.kind.in_(tuple(kinds)),
            SupplierNumber.line_id.between(first, last),
        )
        .order_by(SupplierNumber.line_id, SupplierNumber.kind != "oem", SupplierNumber.key)
    )
    numbers: dict[int, list[str]] = {}
    for line_id, key in db.session.execute(query):
        numbers.setdefault(line_id, []).append(key)
    return numbers


def _lines(shop_id: uuid.UUID, keys: list[str]) -> Iterable[tuple[str, LineView]]:
    query = _query(shop_id).where(SupplierNumber.key.in_(keys))
    query = query.order_by(SupplierNumber.key, SupplierLine.price.is_(None), SupplierLine.price, SupplierLine.id)
    for row in db.session.execute(query):
        yield _view(row)


def _query(shop_id: uuid.UUID) -> sa.Select:
    return (
        sa.select(
            SupplierNumber.key,
            SupplierNumber.kind,
            Supplier.id,
            Supplier.name,
            SupplierLine.id,
            SupplierLine.own_code,
            SupplierLine.brand,
            SupplierLine.name,
            SupplierLine.price,
            SupplierLine.currency,
            SupplierLine.stock,
            SupplierLine.stock_text,
        )
        .select_from(SupplierActive)
        .join(Supplier, Supplier.id == SupplierActive.supplier_id)
        .join(SupplierNumber, SupplierNumber.import_id == SupplierActive.import_id)  # (import_id, key) index
        .join(SupplierLine, SupplierLine.id == SupplierNumber.line_id)
        .where(SupplierActive.shop_id == shop_id)
    )


def _view(row: sa.Row) -> tuple[str, LineView]:
    key, kind, supplier_id, supplier_name, line_id, *line = row
    return key, LineView(supplier_id, supplier_name, line_id, kind, *line)
