"""Importing a dealer's list: the upload (kept private in the database), its preview, the mapping that starts the
import job, and what the pages and the API show of an import."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any

import sqlalchemy as sa
from flask import Request
from flask_babel import format_datetime, get_locale
from flask_babel import gettext as _
from rq import Retry

from app.accounts.models import User
from app.core.after_commit import enqueue_after_commit
from app.core.db import utcnow
from app.core.errors import ApiError
from app.core.validation import ID_MAX
from app.extensions import db
from app.shelf import reading
from app.shelf.models import ShelfActive, ShelfImport, ShelfMapping, ShelfUpload
from app.shelf.rows import row_reason
from app.shops import activity
from app.shops.models import Branch

MAX_UPLOAD_BYTES = 50 * 1024 * 1024
MAX_FILENAME = 255
MAX_AFTERMARKET_COLUMNS = 20
IMPORT_JOB_TIMEOUT = 30 * 60  # a million rows of XLSX on a busy worker
# The job fails an import itself on any error; RQ retries it only when its worker died under it (an abandoned job),
# and the next run starts over.
CRASH_RETRY = Retry(max=2, interval=[30, 120])
IMPORT_QUEUE = "default"
IMPORT_JOB = "app.shelf.tasks.import_list"
IMPORT_JOB_OPTIONS = {"job_timeout": IMPORT_JOB_TIMEOUT, "retry": CRASH_RETRY}
LIST_LIMIT = 50


def import_job_id(import_id: int) -> str:
    return f"shelf-import-{import_id}"


def too_large() -> ApiError:
    return ApiError("file_too_large", _("The file is too large (at most 50 MB)."), 413)


def uploaded_file(request: Request) -> tuple[str, bytes]:
    """The list in a multipart request's `file` field: its name and bytes, or a refusal."""
    if request.mimetype != "multipart/form-data":
        raise ApiError("unsupported_media_type", _("Send the list as multipart/form-data, in the 'file' field."), 415)
    upload = request.files.get("file")
    data = upload.read(MAX_UPLOAD_BYTES + 1) if upload is not None else b""
    if len(data) > MAX_UPLOAD_BYTES:
        raise too_large()
    if not data:
        raise ApiError("missing_file", _("Choose a CSV or Excel (.xlsx) file."), 400)
    name = (upload.filename or "liste").replace("\x00", "").strip()[-MAX_FILENAME:] or "liste"
    return name, data


def branch_for_import(member: User, raw: Any = None) -> int:
    """The branch whose list an upload is: the one chosen (a branch of the member's shop, else 404), or the
    member's own."""
    if raw in (None, ""):
        if member.branch_id is None:
            raise ApiError("branch_not_found", _("This branch was not found."), 404)
        return member.branch_id
    try:
        branch_id = int(raw)
    except (TypeError, ValueError):
        branch_id = 0
    branch = db.session.get(Branch, branch_id) if 0 < branch_id <= ID_MAX else None
    if branch is None or branch.shop_id != member.shop_id:
        raise ApiError("branch_not_found", _("This branch was not found."), 404)
    return branch.id


def upload(member: User, filename: str, data: bytes, branch_id: int) -> tuple[ShelfImport, reading.Preview]:
    """Store the file as an import of the branch's list (refused first when it cannot be read) and answer its
    preview; the member is who imported it."""
    refuse_while_importing(member.shop_id, branch_id)
    kind = reading.file_kind(filename, data)
    shown = reading.preview(data, kind)
    _drop_waiting_uploads(member.shop_id, branch_id)
    record = ShelfImport(
        shop_id=member.shop_id,
        branch_id=branch_id,
        user_id=member.id,
        filename=filename,
        file_kind=kind,
        size_bytes=len(data),
        rows_total=shown.rows_estimate,
    )
    db.session.add(record)
    db.session.flush()
    db.session.add(ShelfUpload(import_id=record.id, data=data))
    db.session.flush()
    return record, _keep_preview(record, shown)


def _of_branch(shop_id: uuid.UUID, branch_id: int) -> sa.ColumnElement[bool]:
    return sa.and_(ShelfImport.shop_id == shop_id, ShelfImport.branch_id == branch_id)


def running_import(shop_id: uuid.UUID, branch_id: int) -> ShelfImport | None:
    """The branch's import being imported now (one at most)."""
    query = sa.select(ShelfImport).where(_of_branch(shop_id, branch_id), ShelfImport.status == "importing")
    return db.session.scalar(query.order_by(ShelfImport.id.desc()).limit(1))


def refuse_while_importing(shop_id: uuid.UUID, branch_id: int) -> None:
    """A branch imports one list at a time: a new file waits until the running import has finished (409)."""
    running = running_import(shop_id, branch_id)
    if running is not None:
        raise import_running(running)


def import_running(running: ShelfImport) -> ApiError:
    started = format_datetime(running.started_at or running.created_at, "short")
    return ApiError(
        "import_running",
        _(
            "The list %(name)s is being imported (started %(started)s): upload the new file once it has finished.",
            name=running.filename,
            started=started,
        ),
        409,
    )


def _drop_waiting_uploads(shop_id: uuid.UUID, branch_id: int) -> None:
    """A branch keeps one file waiting for its mapping: a newer upload replaces it (each may hold 50 MB)."""
    drop_waiting_uploads(ShelfImport, ShelfUpload, _of_branch(shop_id, branch_id))


def drop_waiting_uploads(imports: Any, uploads: Any, of_owner: sa.ColumnElement[bool]) -> None:
    """A list's owner (a branch, a supplier) keeps one file waiting for its mapping: the waiting ones' bytes go, and
    their imports fail, said replaced by a newer file."""
    waiting = sa.select(imports.id).where(of_owner, imports.status == "uploaded")
    db.session.execute(sa.delete(uploads).where(uploads.import_id.in_(waiting)))
    db.session.execute(
        sa.update(imports)
        .where(of_owner, imports.status == "uploaded")
        .values(status="failed", message=_("A newer file was uploaded instead."), finished_at=utcnow())
        .execution_options(synchronize_session=False)
    )


def get_import(member: User, import_id: int) -> ShelfImport:
    """An import of the member's shop, or 404 (another shop's id is not found, as an unknown one)."""
    record = db.session.get(ShelfImport, import_id) if 0 < import_id <= ID_MAX else None
    if record is None or record.shop_id != member.shop_id:
        raise ApiError("import_not_found", _("This list import was not found."), 404)
    return record


def imports_of(member: User) -> list[ShelfImport]:
    """The latest imports of the member's branch."""
    query = sa.select(ShelfImport).where(_of_branch(member.shop_id, member.branch_id)).order_by(ShelfImport.id.desc())
    return list(db.session.scalars(query.limit(LIST_LIMIT)))


def active_import(member: User) -> ShelfImport | None:
    """The import whose rows are the list in use of the member's branch."""
    query = sa.select(ShelfImport).join(ShelfActive, ShelfActive.import_id == ShelfImport.id)
    return db.session.scalar(
        query.where(ShelfActive.shop_id == member.shop_id, ShelfActive.branch_id == member.branch_id)
    )


def preview_of(record: ShelfImport) -> reading.Preview:
    """The preview of an import waiting for its mapping, read again from its stored file (or kept from its upload by
    this process: a file never changes under its import's id, and an XLSX's is read in seconds)."""
    stored = sa.select(ShelfUpload.import_id).where(ShelfUpload.import_id == record.id)  # not its bytes
    if record.status != "uploaded" or db.session.scalar(stored) is None:
        raise ApiError("import_started", _("This list has already been imported or is being imported."), 409)
    kept = _kept_previews.get(_preview_key(record))
    if kept is None:
        kept = _keep_preview(record, reading.preview(db.session.get(ShelfUpload, record.id).data, record.file_kind))
    return kept


# The id with what was stored with it (SQLite may give a deleted import's id to the next one), and the language the
# preview's placeholders ("Sütun 2") were written in.
PreviewKey = tuple[int, str, int, str, str]
_kept_previews: dict[PreviewKey, reading.Preview] = {}
KEPT_PREVIEWS = 64  # small: the header and 20 rows each


def _preview_key(record: ShelfImport) -> PreviewKey:
    return (record.id, record.filename, record.size_bytes, record.created_at.isoformat(), str(get_locale()))


def _keep_preview(record: ShelfImport, shown: reading.Preview) -> reading.Preview:
    while len(_kept_previews) >= KEPT_PREVIEWS:
        _kept_previews.pop(next(iter(_kept_previews)))
    _kept_previews[_preview_key(record)] = shown
    return shown


def suggested_mapping(shop_id: uuid.UUID, shown: reading.Preview) -> dict[str, Any]:
    """The shop's remembered mapping when every column it names exists in this file, else the guessed one."""
    remembered = db.session.get(ShelfMapping, shop_id)
    if remembered is not None:
        try:
            return checked_mapping(remembered.mapping, shown.columns)
        except ApiError:
            pass
    return shown.guessed


def _column(value: Any, columns: int) -> int | None:
    if value is None or value == "":
        return None
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < columns:
        raise ApiError("invalid_mapping", _("The mapping names a column the file does not have."), 400)
    return value


def checked_mapping(raw: Mapping[str, Any], columns: int, fields: tuple[str, ...] = reading.FIELDS) -> dict[str, Any]:
    """A mapping of fields to column indexes (0-based) checked against the file: known fields (the shelf's, or the
    ones given: a supplier's list has its own), existing columns, and an OEM number or own code column."""
    unknown = set(raw) - set(fields)
    if unknown:
        raise ApiError(
            "invalid_mapping", _("The mapping has unknown fields: %(names)s.", names=", ".join(sorted(unknown)))
        )
    mapping: dict[str, Any] = {field: _column(raw.get(field), columns) for field in fields if field != "aftermarket"}
    if "aftermarket" in fields:
        mapping["aftermarket"] = _aftermarket_columns(raw.get("aftermarket") or [], columns)
    if mapping["oem"] is None and mapping["own_code"] is None:
        raise ApiError("mapping_needs_number", _("Choose the column of the OEM number or of your own code."), 400)
    return mapping


def _aftermarket_columns(aftermarket: Any, columns: int) -> list[int]:
    if not isinstance(aftermarket, list):
        aftermarket = [aftermarket]
    if len(aftermarket) > MAX_AFTERMARKET_COLUMNS:
        raise ApiError("invalid_mapping", _("At most 20 aftermarket number columns."), 400)
    return sorted({column for column in (_column(v, columns) for v in aftermarket) if column is not None})


def start(member: User, record: ShelfImport, raw_mapping: Mapping[str, Any]) -> ShelfImport:
    """Check the mapping against the file, remember it for the shop's next file and queue the import job, noted in the
    shop's activity as the member's; refused (409) while another import of the branch runs."""
    mapping = checked_mapping(raw_mapping, preview_of(record).columns)
    refuse_while_importing(record.shop_id, record.branch_id)
    try:
        with db.session.begin_nested():  # the unique index settles a race of two starts
            record.mapping = mapping
            record.status = "importing"
            record.started_at = utcnow()
    except sa.exc.IntegrityError:  # the other start has committed: it is found
        raise import_running(running_import(record.shop_id, record.branch_id) or record) from None
    remembered = db.session.get(ShelfMapping, record.shop_id)
    if remembered is None:
        db.session.add(ShelfMapping(shop_id=record.shop_id, mapping=mapping))
    else:
        remembered.mapping = mapping
    db.session.flush()
    activity.record(member, "list_import", record.filename)
    enqueue_after_commit(IMPORT_QUEUE, IMPORT_JOB, record.id, job_id=import_job_id(record.id), **IMPORT_JOB_OPTIONS)
    return record


def percent(record: ShelfImport) -> int:
    if record.status == "done":
        return 100
    if not record.rows_total:
        return 0
    return min(99, record.rows_done * 100 // record.rows_total)


def errors_shown(record: ShelfImport) -> list[dict[str, Any]]:
    return [{"line": line, "code": code, "reason": row_reason(code)} for line, code in record.errors or []]


def status_of(record: ShelfImport) -> dict[str, Any]:
    """An import as the API and the pages show it (camelCase keys)."""
    return {
        "id": record.id,
        "filename": record.filename,
        "fileKind": record.file_kind,
        "sizeBytes": record.size_bytes,
        "status": record.status,
        "percent": percent(record),
        "rowsTotal": record.rows_total,
        "rowsDone": record.rows_done,
        "rowsImported": record.rows_imported,
        "rowsFailed": record.rows_failed,
        "errors": errors_shown(record),
        "message": record.message,
        "mapping": public_mapping(record.mapping) if record.mapping else None,
        "createdAt": record.created_at.isoformat(),
        "startedAt": record.started_at.isoformat() if record.started_at else None,
        "finishedAt": record.finished_at.isoformat() if record.finished_at else None,
    }


CAMEL = {"own_code": "ownCode", "replaced_by": "replacedBy"}
SNAKE = {camel: snake for snake, camel in CAMEL.items()}


def public_mapping(mapping: Mapping[str, Any]) -> dict[str, Any]:
    return {CAMEL.get(field, field): value for field, value in mapping.items()}


def internal_mapping(body: Mapping[str, Any]) -> dict[str, Any]:
    return {SNAKE.get(field, field): value for field, value in body.items()}


def preview_shown(record: ShelfImport, shown: reading.Preview) -> dict[str, Any]:
    """The upload's answer: the import, the file's header and first rows, and the mapping to confirm."""
    return {
        **status_of(record),
        "header": shown.header,
        "headerRow": shown.header_row + 1 if shown.header_row is not None else None,
        "rows": shown.rows,
        "guessedMapping": public_mapping(shown.guessed),
        "suggestedMapping": public_mapping(suggested_mapping(record.shop_id, shown)),
    }
