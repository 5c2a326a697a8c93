"""A supplier's list as a source of equivalents: once the list is in use, each line's own code (with its brand) is
linked for the shop as the same part as each OEM number its OEM column or OE field holds exactly, and as its EAN; a
line without an own code links its numbers to its first OEM number. These links replace the ones the supplier's
previous list made (`detail` "supplier:<id>"). Only the numbers matching made automatic are linked: a looser reading of
an OE field is a suggestion, never a link. Lines are read in id ranges, one query for a range's numbers."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import sqlalchemy as sa

from app.equivalents.feeds import feed
from app.equivalents.services import NumberLink
from app.extensions import db
from app.suppliers.lines import numbers_of_lines
from app.suppliers.models import SupplierLine

CHUNK_LINES = 5000
LINKED_KINDS = ("oem", "oe", "ean")


def supplier_detail(supplier_id: int) -> str:
    """The links' detail: the supplier whose list made them (its next list replaces them)."""
    return f"supplier:{supplier_id}"


def feed_equivalents(import_id: int, shop_id: uuid.UUID, supplier_id: int) -> None:
    """Make the list's links the supplier's (committed); a failure is logged and leaves the previous links."""
    feed(
        _links(import_id),
        shop_id=shop_id,
        source="supplier",
        detail=supplier_detail(supplier_id),
        what=f"supplier import {import_id}",
    )


def _links(import_id: int) -> Iterator[NumberLink]:
    after = 0
    while chunk := _lines(import_id, after):
        numbers = numbers_of_lines(import_id, chunk[0].id, chunk[-1].id, LINKED_KINDS)
        for line in chunk:
            yield from _line_links(line, numbers.get(line.id, []))
        after = chunk[-1].id


def _lines(import_id: int, after: int) -> list:
    query = (
        sa.select(SupplierLine.id, SupplierLine.own_code, SupplierLine.brand)
        .where(SupplierLine.import_id == import_id, SupplierLine.id > after)
        .order_by(SupplierLine.id)
        .limit(CHUNK_LINES)
    )
    return list(db.session.execute(query))


def _line_links(line, numbers: list[str]) -> Iterator[NumberLink]:
    if line.own_code:
        for number in numbers:  # kept by their key only: written as the graph shows a key
            yield NumberLink(number.upper(), line.own_code, b_brand=line.brand)
        return
    for number in numbers[1:]:
        yield NumberLink(numbers[0].upper(), number.upper())
