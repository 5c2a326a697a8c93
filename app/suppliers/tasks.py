"""The supplier list's jobs: the import (the stock list's run, app.shelf.tasks.run_import, over the supplier's
tables), and the pull of a list from the supplier's URL (app.suppliers.pulls).

The supplier's list in use (`SupplierActive`) points at a new import only once all its lines are in, in one
transaction with its status, and only when no newer import is in use: readers see the old list until then, and a
failed import or pull leaves it in use."""

from __future__ import annotations

import logging
from functools import partial

import sqlalchemy as sa
from flask_babel import gettext as _

from app.core.db import utcnow
from app.core.errors import ApiError
from app.extensions import db
from app.shelf.bulk import ListTables
from app.shelf.tasks import MESSAGE_LENGTH, ListStore, activate, run_import
from app.suppliers import imports, pulls
from app.suppliers.equivalents_feed import feed_equivalents
from app.suppliers.models import (
    Supplier,
    SupplierActive,
    SupplierImport,
    SupplierLine,
    SupplierMapping,
    SupplierNumber,
    SupplierUpload,
)
from app.suppliers.rows import TABLE_COLUMNS, line_from_row
from app.suppliers.suggestions import apply_confirmed, suggest_for_list

log = logging.getLogger(__name__)

SUPPLIER_LISTS = ListStore(
    "supplier",
    SupplierImport,
    SupplierUpload,
    SupplierLine,
    SupplierNumber,
    ListTables(items=SupplierLine.__table__, item_columns=TABLE_COLUMNS, numbers=SupplierNumber.__table__),
    SupplierActive,
    "supplier_id",
)


def import_supplier_list(import_id: int) -> str:
    """Import a mapped file of a supplier's list and make it the supplier's list in use."""
    return run_import(SUPPLIER_LISTS, import_id, lambda mapping: partial(line_from_row, mapping), _activate)


def pull_supplier_list(supplier_id: int) -> str:
    """Pull the supplier's list and import it with its remembered mapping; a failure is recorded on the supplier and
    its list in use stays. A transient failure is raised again for RQ's retries."""
    supplier = db.session.get(Supplier, supplier_id)
    if supplier is None or supplier.source != "url":
        return "skipped"
    supplier.last_pull_at = utcnow()
    db.session.commit()
    try:
        filename, data = pulls.fetch(supplier)
    except pulls.PullError as error:
        _record_pull_error(supplier_id, error.message)
        if error.transient:
            raise
        return "failed"
    try:
        record, _shown = imports.store_file(supplier, filename, data, None, origin="pull")
        remembered = db.session.get(SupplierMapping, supplier_id)
        if remembered is None:
            db.session.commit()  # the file waits for a manager to choose its columns
            return _record_pull_error(supplier_id, _("Choose the list's columns once: open the pulled file's import."))
        imports.begin(None, supplier, record, remembered.mapping)
    except ApiError as refusal:  # unreadable, or an import already running
        db.session.rollback()
        return _record_pull_error(supplier_id, refusal.message)
    db.session.commit()
    outcome = import_supplier_list(record.id)
    if outcome != "done":
        failed = db.session.get(SupplierImport, record.id)
        return _record_pull_error(supplier_id, failed.message or _("The import failed."))
    db.session.execute(sa.update(Supplier).where(Supplier.id == supplier_id).values(last_pull_error=None))
    db.session.commit()
    return "done"


def _record_pull_error(supplier_id: int, message: str) -> str:
    """The supplier's page says the last pull failed and why; its list in use did not change."""
    db.session.rollback()
    log.info("supplier %s: pull failed", supplier_id)  # the reason may quote the URL: it stays in the database
    db.session.execute(
        sa.update(Supplier).where(Supplier.id == supplier_id).values(last_pull_error=message[:MESSAGE_LENGTH])
    )
    db.session.commit()
    return "failed"


def _activate(import_id: int) -> str:
    """The supplier's list in use with its confirmed suggestions, then its lines' numbers the shop's equivalents (the
    previous list's replaced), then its new suggestions."""
    record = db.session.get(SupplierImport, import_id)
    apply_confirmed(import_id, record.supplier_id)  # written with the switch: the list is in use with them
    outcome = activate(SUPPLIER_LISTS, import_id, also=_refreshed)
    if outcome == "done":
        record = db.session.get(SupplierImport, import_id)
        feed_equivalents(import_id, record.shop_id, record.supplier_id)
        suggest_for_list(import_id, record.shop_id, record.supplier_id)
    return outcome


def _refreshed(supplier_id: int) -> None:
    """The supplier's list was refreshed now (written with the switch)."""
    db.session.execute(sa.update(Supplier).where(Supplier.id == supplier_id).values(last_refreshed_at=utcnow()))
