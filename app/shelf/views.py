"""The shelf pages (/raf): the dealer's list in use and the upload form, an upload's preview with the mapping form,
the import's progress (HTMX polls a fragment; without JavaScript a refresh link) and its result with the row errors."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, make_response, redirect, render_template, request, url_for
from flask_babel import lazy_gettext as _l
from flask_login import current_user
from werkzeug.exceptions import RequestEntityTooLarge

from app.core.errors import ApiError
from app.core.htmx import vary_on_htmx, wants_fragment
from app.core.security import shop_role
from app.core.uploads import takes_upload
from app.shelf import imports, reading
from app.shelf.models import ShelfImport
from app.shelf.throttles import upload_throttle

bp = Blueprint("shelf_views", __name__, url_prefix="/raf")

POLL_SECONDS = 1
FIELD_LABELS = {
    "oem": _l("OEM number"),
    "own_code": _l("Your code"),
    "brand": _l("Brand"),
    "name": _l("Name"),
    "price": _l("Price"),
    "currency": _l("Currency"),
    "stock": _l("Stock"),
    "replaced_by": _l("Replaced by"),
}


@bp.errorhandler(RequestEntityTooLarge)
def _too_large(_error: RequestEntityTooLarge) -> Response:
    return _shelf_page(imports.too_large())


@bp.get("")
@shop_role("clerk")
def shelf():
    """The list in use, the upload form and the latest imports."""
    return _shelf_page()


@bp.post("/yukle")
@shop_role("manager")
@takes_upload(imports.MAX_UPLOAD_BYTES)
@upload_throttle
def upload():
    try:
        filename, data = imports.uploaded_file(request)
        branch_id = imports.branch_for_import(current_user, request.form.get("branch"))
        record, _shown = imports.upload(current_user, filename, data, branch_id)
    except ApiError as error:
        return _shelf_page(error)
    return redirect(url_for(".show_import", import_id=record.id), code=303)


@bp.get("/aktarim/<int:import_id>")
@shop_role("manager")
def show_import(import_id: int):
    """The import as far as it is: the mapping form, the progress or the result."""
    record = imports.get_import(current_user, import_id)
    if record.status == "uploaded":
        return _mapping_page(record, None)
    return _import_page(record)


@bp.post("/aktarim/<int:import_id>/eslestir")
@shop_role("manager")
def start(import_id: int):
    record = imports.get_import(current_user, import_id)
    chosen = {field: request.form.get(field, "") for field in reading.SCALAR_FIELDS}
    chosen["aftermarket"] = request.form.getlist("aftermarket")
    try:
        imports.start(current_user, record, chosen)
    except ApiError as error:
        if error.code == "import_started":
            return redirect(url_for(".show_import", import_id=import_id), code=303)
        return _mapping_page(record, error, chosen)
    return redirect(url_for(".show_import", import_id=import_id), code=303)


@bp.get("/aktarim/<int:import_id>/ilerleme")
@shop_role("manager")
def progress(import_id: int):
    """The progress fragment HTMX polls (the whole import page without HTMX)."""
    record = imports.get_import(current_user, import_id)
    if not wants_fragment():
        return vary_on_htmx(make_response(_import_page(record)))
    return vary_on_htmx(make_response(render_template("shelf/_progress.html", **_import_context(record))))


def _import_context(record: ShelfImport) -> dict[str, Any]:
    return {
        "record": record,
        "state": imports.status_of(record),
        "poll_url": url_for(".progress", import_id=record.id),
        "poll_seconds": POLL_SECONDS,
    }


def _import_page(record: ShelfImport) -> str:
    return render_template("shelf/import.html", **_import_context(record))


def _shelf_page(error: ApiError | None = None) -> tuple[str, int]:
    active = imports.active_import(current_user)
    page = render_template(
        "shelf/shelf.html",
        active=active,
        recent=imports.imports_of(current_user),
        manager=current_user.has_shop_role("manager"),
        error=error.message if error else None,
        max_mb=imports.MAX_UPLOAD_BYTES // (1024 * 1024),
    )
    return page, error.status if error else 200


def _mapping_page(record: ShelfImport, error: ApiError | None, chosen: dict[str, Any] | None = None):
    try:
        shown = imports.preview_of(record)
    except ApiError as refusal:
        return _shelf_page(refusal)
    mapping = chosen if chosen is not None else imports.suggested_mapping(record.shop_id, shown)
    page = render_template(
        "shelf/preview.html",
        record=record,
        preview=shown,
        mapping=_selected(mapping),
        fields=FIELD_LABELS,
        error=error.message if error else None,
    )
    return page, error.status if error else 200


def _selected(mapping: dict[str, Any]) -> dict[str, Any]:
    """The mapping as the form's selections: columns as strings, aftermarket as a set."""
    selected = {
        field: "" if mapping.get(field) in (None, "") else str(mapping[field]) for field in reading.SCALAR_FIELDS
    }
    selected["aftermarket"] = {str(column) for column in mapping.get("aftermarket") or ()}
    return selected
