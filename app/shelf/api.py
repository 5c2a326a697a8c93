"""The shelf list's import through the API: upload (preview), mapping (starts the job), status, the dealer's imports."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, request
from flask_login import current_user
from werkzeug.exceptions import RequestEntityTooLarge

from app.core.errors import error_response
from app.core.openapi import documented
from app.core.security import shop_role
from app.core.uploads import takes_upload
from app.core.validation import json_body
from app.shelf import imports
from app.shelf.schemas import ShelfImportList, ShelfImportOut, ShelfMappingBody, ShelfPreviewOut, ShelfUploadForm
from app.shelf.throttles import upload_throttle

bp = Blueprint("shelf_api", __name__, url_prefix="/api/shelf")


@bp.errorhandler(RequestEntityTooLarge)
def _too_large(_error: RequestEntityTooLarge) -> Response:
    refusal = imports.too_large()
    return error_response(refusal.code, refusal.message, refusal.status)


@bp.post("/imports")
@shop_role("manager")
@takes_upload(imports.MAX_UPLOAD_BYTES)
@documented(ShelfPreviewOut, status=201, form=ShelfUploadForm, errors=(409, 413, 415, 422))
@upload_throttle
def create_import():
    """Upload a list: its header, first rows and the mapping to confirm; nothing is imported yet."""
    filename, data = imports.uploaded_file(request)
    branch_id = imports.branch_for_import(current_user, request.form.get("branchId"))
    record, shown = imports.upload(current_user, filename, data, branch_id)
    return jsonify(imports.preview_shown(record, shown)), 201


@bp.get("/imports")
@shop_role("manager")
@documented(ShelfImportList)
def list_imports():
    """The dealer's imports, newest first, and which one is the list in use."""
    active = imports.active_import(current_user)
    items = [imports.status_of(record) for record in imports.imports_of(current_user)]
    return jsonify(items=items, activeId=active.id if active else None)


@bp.get("/imports/<int:import_id>")
@shop_role("manager")
@documented(ShelfImportOut, errors=(404,))
def get_import(import_id: int):
    """An import's status, progress and row errors."""
    return jsonify(imports.status_of(imports.get_import(current_user, import_id)))


@bp.put("/imports/<int:import_id>/mapping")
@shop_role("manager")
@documented(ShelfImportOut, status=202, body=ShelfMappingBody, errors=(404, 409))
def start_import(import_id: int):
    """Confirm the columns and start the import: it runs in the background (poll the import)."""
    mapping = imports.internal_mapping(json_body())  # the body is checked first, as on every JSON route
    record = imports.get_import(current_user, import_id)
    imports.start(current_user, record, mapping)
    return jsonify(imports.status_of(record)), 202
