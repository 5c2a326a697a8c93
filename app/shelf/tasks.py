"""The import job: a mapped upload becomes the dealer's list.

Rows are written under the import's own id in batches, each committed with the progress, so the page shows it; the
dealer's active list (`ShelfActive`) points at the new import only once every row is in, in one transaction with its
status, so readers see the old list until then and never half of the new one; the switch is conditional, so an
older import finishing late never replaces a newer list (a dealer runs one import at a time: `imports.start`, and a
partial unique index). The replaced list's rows go after the switch. A second run of a finished import does
nothing; a run after a crash deletes what the crashed one wrote and starts over; an unexpected error fails the import
and leaves the old list in use.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import partial
from typing import Any

import sqlalchemy as sa
from flask_babel import format_decimal
from flask_babel import gettext as _

from app.core.db import utcnow
from app.core.errors import ApiError
from app.extensions import db
from app.shelf import reading
from app.shelf.bulk import SHELF_TABLES, ListTables, insert_items
from app.shelf.equivalents_feed import feed_equivalents
from app.shelf.models import ShelfActive, ShelfImport, ShelfItem, ShelfNumber, ShelfUpload
from app.shelf.rows import Item, RowError, item_from_row

log = logging.getLogger(__name__)

BATCH_ROWS = 5000
MAX_ROWS = 1_000_000
MAX_ERRORS_KEPT = 1000
MESSAGE_LENGTH = 300


class TooManyRowsError(Exception):
    """The file has more rows than a list may have: none of it is used."""


@dataclass(frozen=True)
class ListStore:
    """A kind of list's tables: its imports, their private files, its rows and their numbers, and which import is its
    owner's list in use (a branch's shelf here; a supplier's list in app.suppliers, imported by the same run)."""

    name: str
    imports: Any
    uploads: Any
    items: Any
    numbers: Any
    tables: ListTables
    active: Any  # which import is the owner's list in use
    owner: str  # the column naming whose list an import is


SHELF = ListStore("shelf", ShelfImport, ShelfUpload, ShelfItem, ShelfNumber, SHELF_TABLES, ShelfActive, "branch_id")
RowParser = Callable[[list[str], int], Item | None]


def import_list(import_id: int) -> str:
    """Import a mapped upload and make it the dealer's list; returns what became of it."""
    return run_import(SHELF, import_id, lambda mapping: partial(_shelf_item, mapping), _activate)


def _shelf_item(mapping: dict, row: list[str], line: int) -> Item | None:
    return item_from_row(row, mapping, line)


def run_import(
    store: ListStore, import_id: int, parser_for: Callable[[dict], RowParser], activate: Callable[[int], str]
) -> str:
    """Import a mapped file's rows under its import's id, then `activate` it; on any error fail it, leaving the list
    in use as it was. A run after a crash starts over; a second run of a finished import does nothing."""
    record = db.session.get(store.imports, import_id)
    if record is None or record.status != "importing":
        return "skipped"  # unknown, not yet mapped, or finished by an earlier run
    upload = db.session.get(store.uploads, import_id)
    if upload is None:
        return fail_import(import_id, _("The uploaded file is no longer there. Please upload it again."), store)
    data, kind, mapping = upload.data, record.file_kind, dict(record.mapping or {})
    db.session.expunge(upload)  # the bytes stay in hand, not in the session's identity map at each commit
    delete_rows([import_id], store)  # a crashed run's rows: start over
    record.rows_done = record.rows_imported = record.rows_failed = 0
    record.errors = []
    record.message = None
    db.session.commit()
    try:
        write_rows(store, import_id, reading.data_rows(data, kind), parser_for(mapping))
    except TooManyRowsError:
        message = _("The list has more than %(rows)s rows: nothing was imported.", rows=format_decimal(MAX_ROWS))
        return fail_import(import_id, message, store)
    except ApiError as refusal:
        return fail_import(import_id, refusal.message, store)
    except Exception:
        log.exception("%s import %s failed", store.name, import_id)
        message = _("The list could not be imported because of an error on our side. Please try again.")
        return fail_import(import_id, message, store)
    return activate(import_id)


def write_rows(store: ListStore, import_id: int, rows: Iterable[tuple[int, list[str]]], parse: RowParser) -> None:
    """Write the rows parse makes of the file in batches, each committed with the progress; a row it refuses is
    counted and its first errors kept by line."""
    batch: list[Item] = []
    errors: list[list] = []
    done = failed = imported = 0
    for line, row in rows:
        try:
            item = parse(row, line)
        except RowError as error:
            item = None
            failed += 1
            if len(errors) < MAX_ERRORS_KEPT:
                errors.append([line, error.code])
        else:
            if item is None:
                continue  # a blank row is no row
            batch.append(item)
        done += 1
        if done > MAX_ROWS:
            raise TooManyRowsError
        if len(batch) >= BATCH_ROWS:
            imported += _insert(import_id, batch, store=store)
            batch = []
            _record_progress(import_id, done, imported, failed, errors, store=store)
    imported += _insert(import_id, batch, store=store)
    _record_progress(import_id, done, imported, failed, errors, finished=True, store=store)


def _insert(import_id: int, batch: list[Item], *, store: ListStore) -> int:
    insert_items(db.session.connection(), import_id, batch, store.tables)
    return len(batch)


def _record_progress(
    import_id: int,
    done: int,
    imported: int,
    failed: int,
    errors: list[list],
    *,
    finished: bool = False,
    store: ListStore,
) -> None:
    """Commit the batch with the counts, so a poll of the page sees them."""
    record = db.session.get(store.imports, import_id)
    record.rows_done, record.rows_imported, record.rows_failed = done, imported, failed
    record.errors = list(errors)
    if finished or done > record.rows_total:
        record.rows_total = done
    db.session.commit()


def _activate(import_id: int) -> str:
    """The branch's list in use, then its numbers' links the shop's equivalents (the previous list's replaced)."""
    outcome = activate(SHELF, import_id)
    if outcome == "done":
        record = db.session.get(ShelfImport, import_id)
        feed_equivalents(import_id, record.shop_id, record.branch_id)
    return outcome


def activate(store: ListStore, import_id: int, also: Callable[[int], None] | None = None) -> str:
    """Make a finished import its owner's list in use (a branch's; a supplier's), then delete the rows of the list it
    replaced. `also(owner_id)` writes in the same transaction (a supplier's refresh time)."""
    record = db.session.get(store.imports, import_id)
    owner_id = getattr(record, store.owner)
    outcome = _switch(store, import_id, record.shop_id, owner_id, also)
    _delete_replaced(store, owner_id)
    return outcome


def _switch(
    store: ListStore, import_id: int, shop_id: uuid.UUID, owner_id: int, also: Callable[[int], None] | None
) -> str:
    """The switch, in one transaction: the owner's list is this import, done, its file deleted. Both writes are
    conditional, so a late run never wins: an import no longer importing (failed by the sweep, finished by another
    run) stays as it is, and one older than the list in use never replaces it (newer means uploaded later)."""
    now, imports, active = utcnow(), store.imports, store.active
    finished = db.session.execute(
        sa.update(imports)
        .where(imports.id == import_id, imports.status == "importing")
        .values(status="done", finished_at=now)
        .execution_options(synchronize_session=False)
    )
    if not finished.rowcount:
        db.session.rollback()
        return "skipped"
    moved = db.session.execute(
        sa.update(active)
        .where(getattr(active, store.owner) == owner_id, active.import_id <= import_id)
        .values(import_id=import_id, activated_at=now)
        .execution_options(synchronize_session=False)
    )
    if not moved.rowcount:
        if db.session.get(active, owner_id) is not None:
            db.session.rollback()
            message = _("A newer list became the list in use meanwhile: this one was not used.")
            return fail_import(import_id, message, store)
        db.session.add(active(**{store.owner: owner_id}, shop_id=shop_id, import_id=import_id, activated_at=now))
    db.session.execute(sa.delete(store.uploads).where(store.uploads.import_id == import_id))
    if also is not None:
        also(owner_id)
    db.session.commit()
    return "done"


def fail_import(import_id: int, message: str, store: ListStore = SHELF) -> str:
    """The import failed: nothing of it stays (rows, file); the list in use is untouched. An import no longer
    importing (another run finished it meanwhile) is left as it is."""
    db.session.rollback()
    imports = store.imports
    failed = db.session.execute(
        sa.update(imports)
        .where(imports.id == import_id, imports.status == "importing")
        .values(status="failed", message=message[:MESSAGE_LENGTH], finished_at=utcnow())
        .execution_options(synchronize_session=False)
    )
    if failed.rowcount:
        delete_rows([import_id], store)
        db.session.execute(sa.delete(store.uploads).where(store.uploads.import_id == import_id))
    db.session.commit()
    return "failed"


def _delete_replaced(store: ListStore, owner_id: int) -> None:
    """Delete the rows of the owner's finished imports other than its list in use (the one just replaced, and any
    that lost a race to become it)."""
    active = store.active
    in_use = sa.select(active.import_id).where(getattr(active, store.owner) == owner_id).scalar_subquery()
    imports = store.imports
    stale = sa.select(imports.id).where(
        getattr(imports, store.owner) == owner_id, imports.status.in_(("done", "failed")), imports.id != in_use
    )
    delete_rows(stale, store)
    db.session.commit()


def delete_rows(import_ids: list[int] | sa.Select, store: ListStore = SHELF) -> None:
    """Numbers first: SQLite does not cascade the items' deletion to them."""
    db.session.execute(sa.delete(store.numbers).where(store.numbers.import_id.in_(import_ids)))
    db.session.execute(sa.delete(store.items).where(store.items.import_id.in_(import_ids)))
