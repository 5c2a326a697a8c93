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
from collections.abc import Iterator
from itertools import chain, islice

import sqlalchemy as sa
from flask_babel import format_decimal
from flask_babel import gettext as _

from app.core.db import utcnow
from app.core.errors import ApiError
from app.extensions import db
from app.shelf import reading
from app.shelf.bulk import insert_items
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


def import_list(import_id: int) -> str:
    """Import a mapped upload and make it the dealer's list; returns what became of it."""
    record = db.session.get(ShelfImport, import_id)
    if record is None or record.status != "importing":
        return "skipped"  # unknown, not yet mapped, or finished by an earlier run
    upload = db.session.get(ShelfUpload, import_id)
    if upload is None:
        return fail_import(import_id, _("The uploaded file is no longer there. Please upload it again."))
    shop_id, branch_id, data, kind, mapping = (
        record.shop_id,
        record.branch_id,
        upload.data,
        record.file_kind,
        dict(record.mapping or {}),
    )
    db.session.expunge(upload)  # the bytes stay in hand, not in the session's identity map at each commit
    _delete_rows([import_id])  # a crashed run's rows: start over
    record.rows_done = record.rows_imported = record.rows_failed = 0
    record.errors = []
    record.message = None
    db.session.commit()
    try:
        _write_rows(import_id, data, kind, mapping)
    except TooManyRowsError:
        return fail_import(
            import_id, _("The list has more than %(rows)s rows: nothing was imported.", rows=format_decimal(MAX_ROWS))
        )
    except ApiError as refusal:
        return fail_import(import_id, refusal.message)
    except Exception:
        log.exception("shelf import %s failed", import_id)
        return fail_import(
            import_id, _("The list could not be imported because of an error on our side. Please try again.")
        )
    outcome = _activate(import_id, shop_id, branch_id)
    _delete_replaced(branch_id)
    if outcome == "done":
        feed_equivalents(import_id, shop_id, branch_id)
    return outcome


def _data_rows(data: bytes, kind: str) -> Iterator[tuple[int, list[str]]]:
    """The rows after the header (as the preview found it), with their line numbers in the file (1-based)."""
    rows = reading.read_rows(data, kind)
    head = list(islice(rows, reading.HEADER_SCAN_ROWS))
    header_row = reading.find_header(head)
    first = header_row + 1 if header_row is not None else 0
    return enumerate(chain(head[first:], rows), start=first + 1)


def _write_rows(import_id: int, data: bytes, kind: str, mapping: dict) -> None:
    batch: list[Item] = []
    errors: list[list] = []
    done = failed = imported = 0
    for line, row in _data_rows(data, kind):
        try:
            item = item_from_row(row, mapping, line)
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
            imported += _insert(import_id, batch)
            batch = []
            _record_progress(import_id, done, imported, failed, errors)
    imported += _insert(import_id, batch)
    _record_progress(import_id, done, imported, failed, errors, finished=True)


def _insert(import_id: int, batch: list[Item]) -> int:
    insert_items(db.session.connection(), import_id, batch)
    return len(batch)


def _record_progress(
    import_id: int, done: int, imported: int, failed: int, errors: list[list], *, finished: bool = False
) -> None:
    """Commit the batch with the counts, so a poll of the page sees them."""
    record = db.session.get(ShelfImport, import_id)
    record.rows_done, record.rows_imported, record.rows_failed = done, imported, failed
    record.errors = list(errors)
    if finished or done > record.rows_total:
        record.rows_total = done
    db.session.commit()


def _activate(import_id: int, shop_id: uuid.UUID, branch_id: int) -> str:
    """The switch, in one transaction: the branch's list is this import, done, its file deleted. Both writes are
    conditional, so a late run never wins: an import no longer importing (failed by the sweep, finished by another
    run) stays as it is, and one older than the list in use never replaces it (newer means uploaded later)."""
    now = utcnow()
    finished = db.session.execute(
        sa.update(ShelfImport)
        .where(ShelfImport.id == import_id, ShelfImport.status == "importing")
        .values(status="done", finished_at=now)
        .execution_options(synchronize_session=False)
    )
    if not finished.rowcount:
        db.session.rollback()
        return "skipped"
    moved = db.session.execute(
        sa.update(ShelfActive)
        .where(ShelfActive.branch_id == branch_id, ShelfActive.import_id <= import_id)
        .values(import_id=import_id, activated_at=now)
        .execution_options(synchronize_session=False)
    )
    if not moved.rowcount:
        if db.session.get(ShelfActive, branch_id) is not None:
            db.session.rollback()
            return fail_import(import_id, _("A newer list became the list in use meanwhile: this one was not used."))
        db.session.add(ShelfActive(branch_id=branch_id, shop_id=shop_id, import_id=import_id, activated_at=now))
    db.session.execute(sa.delete(ShelfUpload).where(ShelfUpload.import_id == import_id))
    db.session.commit()
    return "done"


def fail_import(import_id: int, message: str) -> str:
    """The import failed: nothing of it stays (rows, file); the dealer's list in use is untouched. An import no
    longer importing (another run finished it meanwhile) is left as it is."""
    db.session.rollback()
    failed = db.session.execute(
        sa.update(ShelfImport)
        .where(ShelfImport.id == import_id, ShelfImport.status == "importing")
        .values(status="failed", message=message[:MESSAGE_LENGTH], finished_at=utcnow())
        .execution_options(synchronize_session=False)
    )
    if failed.rowcount:
        _delete_rows([import_id])
        db.session.execute(sa.delete(ShelfUpload).where(ShelfUpload.import_id == import_id))
    db.session.commit()
    return "failed"


def _delete_replaced(branch_id: int) -> None:
    """Delete the rows of the branch's finished imports other than its list in use (the one just replaced, and any
    that lost a race to become it)."""
    active = sa.select(ShelfActive.import_id).where(ShelfActive.branch_id == branch_id).scalar_subquery()
    stale = sa.select(ShelfImport.id).where(
        ShelfImport.branch_id == branch_id, ShelfImport.status.in_(("done", "failed")), ShelfImport.id != active
    )
    _delete_rows(stale)
    db.session.commit()


def _delete_rows(import_ids: list[int] | sa.Select) -> None:
    """Numbers first: SQLite does not cascade the items' deletion to them."""
    db.session.execute(sa.delete(ShelfNumber).where(ShelfNumber.import_id.in_(import_ids)))
    db.session.execute(sa.delete(ShelfItem).where(ShelfItem.import_id.in_(import_ids)))
