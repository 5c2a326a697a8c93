"""A supplier's list imported as the stock list is (app.shelf): the file (uploaded by a manager, or pulled) kept
private in the database, its preview, the column mapping remembered per supplier, and the import job queued; one
import at a time per supplier, and its list in use until the new one is complete."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import sqlalchemy as sa
from flask_babel import gettext as _

from app.accounts.models import User
from app.core.after_commit import enqueue_after_commit
from app.core.db import utcnow
from app.core.errors import ApiError
from app.core.text import fold
from app.core.validation import ID_MAX
from app.extensions import db
from app.shelf import reading
from app.shelf.imports import (
    IMPORT_JOB_OPTIONS,
    IMPORT_QUEUE,
    checked_mapping,
    drop_waiting_uploads,
    import_running,
)
from app.suppliers.models import Supplier, SupplierActive, SupplierImport, SupplierMapping, SupplierUpload
from app.suppliers.rows import FIELDS

IMPORT_JOB = "app.suppliers.tasks.import_supplier_list"
LIST_LIMIT = 20
# Header words of a supplier's own columns, folded (the others are the stock list's, app.shelf.reading).
SUPPLIER_WORDS = {
    "ean": ("ean", "barkod", "barcode", "gtin", "ean kodu"),
    "oe": ("oe", "oe numaralari", "oe no", "oe numbers", "orijinal numaralar", "referans", "referanslar", "oe text"),
}


def import_job_id(import_id: int) -> str:
    return f"supplier-import-{import_id}"


def _of_supplier(supplier_id: int) -> sa.ColumnElement[bool]:
    return SupplierImport.supplier_id == supplier_id


def running_import(supplier_id: int) -> SupplierImport | None:
    query = sa.select(SupplierImport).where(_of_supplier(supplier_id), SupplierImport.status == "importing")
    return db.session.scalar(query.limit(1))


def refuse_while_importing(supplier_id: int) -> None:
    """A supplier imports one list at a time (409 while one runs)."""
    running = running_import(supplier_id)
    if running is not None:
        raise import_running(running)


def store_file(
    supplier: Supplier, filename: str, data: bytes, member: User | None, origin: str = "upload"
) -> tuple[SupplierImport, reading.Preview]:
    """Keep the file as an import of the supplier's list (refused first when it cannot be read); its preview."""
    refuse_while_importing(supplier.id)
    kind = reading.file_kind(filename, data, xml=True)
    shown = reading.preview(data, kind)
    _drop_waiting_uploads(supplier.id)
    record = SupplierImport(
        shop_id=supplier.shop_id,
        supplier_id=supplier.id,
        user_id=member.id if member else None,
        origin=origin,
        filename=filename,
        file_kind=kind,
        size_bytes=len(data),
        rows_total=shown.rows_estimate,
    )
    db.session.add(record)
    db.session.flush()
    db.session.add(SupplierUpload(import_id=record.id, data=data))
    db.session.flush()
    return record, shown


def _drop_waiting_uploads(supplier_id: int) -> None:
    """A supplier keeps one file waiting for its mapping: a newer one replaces it."""
    drop_waiting_uploads(SupplierImport, SupplierUpload, _of_supplier(supplier_id))


def get_import(supplier: Supplier, import_id: int) -> SupplierImport:
    """An import of the supplier's list, or 404."""
    record = db.session.get(SupplierImport, import_id) if 0 < import_id <= ID_MAX else None
    if record is None or record.supplier_id != supplier.id:
        raise ApiError("import_not_found", _("This list import was not found."), 404)
    return record


def imports_of(supplier: Supplier) -> list[SupplierImport]:
    query = sa.select(SupplierImport).where(_of_supplier(supplier.id)).order_by(SupplierImport.id.desc())
    return list(db.session.scalars(query.limit(LIST_LIMIT)))


def active_import_id(supplier_id: int) -> int | None:
    active = db.session.get(SupplierActive, supplier_id)
    return active.import_id if active else None


def preview_of(record: SupplierImport) -> reading.Preview:
    """The preview of an import waiting for its mapping, read again from its stored file."""
    upload = db.session.get(SupplierUpload, record.id) if record.status == "uploaded" else None
    if upload is None:
        raise ApiError("import_started", _("This list has already been imported or is being imported."), 409)
    return reading.preview(upload.data, record.file_kind)


def guessed_mapping(shown: reading.Preview) -> dict[str, Any]:
    """Each field's column by its header: a supplier's own words first (EAN, OE), then the stock list's."""
    mapping: dict[str, Any] = dict.fromkeys(FIELDS)
    if shown.header_row is None:
        return mapping
    stock_list = shown.guessed
    for field in ("own_code", "oem", "brand", "name", "price", "currency", "stock"):
        mapping[field] = stock_list.get(field)
    for index, cell in enumerate(shown.header):
        folded = " ".join(fold(cell).replace("_", " ").split())
        for field, words in SUPPLIER_WORDS.items():
            if mapping[field] is None and folded in words and index not in mapping.values():
                mapping[field] = index
    return mapping


def suggested_mapping(supplier: Supplier, shown: reading.Preview) -> dict[str, Any]:
    """The supplier's remembered mapping when every column it names exists in this file, else the guessed one."""
    remembered = db.session.get(SupplierMapping, supplier.id)
    if remembered is not None:
        try:
            return checked_mapping(remembered.mapping, shown.columns, FIELDS)
        except ApiError:
            pass
    return guessed_mapping(shown)


def start(member: User, supplier: Supplier, record: SupplierImport, raw: Mapping[str, Any]) -> SupplierImport:
    """Check the mapping against the file, remember it for the supplier's next file and queue the import job;
    refused (409) while another import of the supplier runs."""
    begin(member, supplier, record, raw)
    enqueue_after_commit(IMPORT_QUEUE, IMPORT_JOB, record.id, job_id=import_job_id(record.id), **IMPORT_JOB_OPTIONS)
    return record


def begin(member: User | None, supplier: Supplier, record: SupplierImport, raw: Mapping[str, Any]) -> None:
    """Mark the import importing with its checked mapping, remembered for the supplier (the job runs it)."""
    mapping = checked_mapping(raw, preview_of(record).columns, FIELDS)
    refuse_while_importing(supplier.id)
    try:
        with db.session.begin_nested():  # the unique index settles a race of two starts
            record.mapping = mapping
            record.status = "importing"
            record.started_at = utcnow()
    except sa.exc.IntegrityError:
        raise import_running(running_import(supplier.id) or record) from None
    remembered = db.session.get(SupplierMapping, supplier.id)
    if remembered is None:
        remembered = SupplierMapping(supplier_id=supplier.id, mapping=mapping)
        db.session.add(remembered)
    remembered.mapping, remembered.user_id = mapping, member.id if member else remembered.user_id
    db.session.flush()
