"""Serves the local storage folder at /storage/<key> (the embedded default; with S3 the bucket serves itself)."""

from __future__ import annotations

from flask import Blueprint, abort, current_app, send_from_directory
from flask.typing import ResponseReturnValue

from app.core.security import public
from app.extensions import limiter
from app.storage import CACHE_CONTROL, LocalStorage, check_settings, current_storage, validate_key
from app.storage.base import CACHE_MAX_AGE

bp = Blueprint("storage", __name__)
# Fail at start-up, not at the first picture, when the storage settings cannot work.
bp.record_once(lambda state: check_settings(state.app.config))


@bp.get("/storage/<path:key>")
@limiter.exempt  # immutable files the browser caches, like /static
@public
def serve(key: str) -> ResponseReturnValue:
    if (current_app.config.get("STORAGE_BACKEND") or "local") != "local":
        abort(404)  # the bucket serves its own objects; never build an S3 client to say so
    storage = current_storage()
    assert isinstance(storage, LocalStorage)
    try:
        validate_key(key)
    except ValueError:
        abort(404)
    response = send_from_directory(
        storage.root, key, mimetype=storage.content_type(key), max_age=CACHE_MAX_AGE, conditional=True, etag=True
    )
    response.headers["Cache-Control"] = CACHE_CONTROL
    return response
