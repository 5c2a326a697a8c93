"""The stock list as a source of equivalents: once a branch's list is in use, each row's numbers are linked for the
shop (the OEM number, or the own code on a row without one, is the same part as the row's own code and each of its
aftermarket numbers; the row's successor replaces it), and these links replace the ones the branch's previous list
made. The rows are read in id ranges, each with one query for its aftermarket numbers, so a 300,000-row list is a few
hundred statements, never one per row. A deleted branch takes its links with it, in the same transaction
(`init_branch_links`)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import sqlalchemy as sa
from sqlalchemy.orm import Session, UOWTransaction

from app.equivalents.feeds import feed
from app.equivalents.models import EquivalentLink
from app.equivalents.services import NumberLink
from app.extensions import db
from app.shelf.models import ShelfItem, ShelfNumber
from app.shops.models import Branch

CHUNK_ROWS = 5000


def shelf_detail(branch_id: int) -> str:
    """The links' detail: the branch whose list made them (its next list replaces them)."""
    return f"branch:{branch_id}"


def feed_equivalents(import_id: int, shop_id: uuid.UUID, branch_id: int) -> None:
    """Make the list's links the branch's (committed); a failure is logged and leaves the previous links."""
    feed(
        _links(import_id),
        shop_id=shop_id,
        source="shelf",
        detail=shelf_detail(branch_id),
        what=f"shelf import {import_id}",
    )


def _drop_deleted_branches_links(session: Session, _context: UOWTransaction) -> None:
    for row in session.deleted:
        if isinstance(row, Branch):
            made_by_branch = sa.delete(EquivalentLink).where(
                EquivalentLink.shop_id == row.shop_id,
                EquivalentLink.source == "shelf",
                EquivalentLink.detail == shelf_detail(row.id),
            )
            session.connection().execute(made_by_branch)


def init_branch_links() -> None:
    """A branch deleted (its lists go by cascade) deletes the links its lists made (idempotent)."""
    if not sa.event.contains(Session, "after_flush", _drop_deleted_branches_links):
        sa.event.listen(Session, "after_flush", _drop_deleted_branches_links)


def _links(import_id: int) -> Iterator[NumberLink]:
    after = 0
    while chunk := _rows(import_id, after):
        aftermarket = _aftermarket(import_id, chunk[0].id, chunk[-1].id)
        for row in chunk:
            yield from _row_links(row, aftermarket.get(row.id, ()))
        after = chunk[-1].id


def _rows(import_id: int, after: int) -> list:
    query = (
        sa.select(ShelfItem.id, ShelfItem.oem_code, ShelfItem.own_code, ShelfItem.replaced_by)
        .where(ShelfItem.import_id == import_id, ShelfItem.id > after)
        .order_by(ShelfItem.id)
        .limit(CHUNK_ROWS)
    )
    return list(db.session.execute(query))


def _aftermarket(import_id: int, first: int, last: int) -> dict[int, list[str]]:
    query = sa.select(ShelfNumber.item_id, ShelfNumber.key).where(
        ShelfNumber.import_id == import_id,
        ShelfNumber.kind == "aftermarket",
        ShelfNumber.item_id.between(first, last),
    )
    numbers: dict[int, list[str]] = {}
    for item_id, key in db.session.execute(query):
        numbers.setdefault(item_id, []).append(key)
    return numbers


def _row_links(row, aftermarket: list[str]) -> Iterator[NumberLink]:
    anchor = row.oem_code or row.own_code
    if row.oem_code and row.own_code:
        yield NumberLink(row.oem_code, row.own_code)
    for number in aftermarket:  # kept by their key only: the list's aftermarket cells are not stored as written
        yield NumberLink(anchor, number.upper())
    if row.replaced_by:
        yield NumberLink(row.replaced_by, anchor, "replaces")
