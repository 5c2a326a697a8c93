"""Object storage for schema pictures: copied from the upstream once, served from STORAGE_URL.

Call `current_storage().store_once(key, fetch)` (or `storage_for(app)` outside a request). The backend is chosen by
STORAGE_BACKEND: `local` (default, a folder served by the app at /storage/<key>) or `s3` (any S3-compatible store).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Mapping
from typing import Any

from flask import Blueprint, Flask, current_app

from app.storage.base import CACHE_CONTROL, IMAGE_TYPES, Storage, validate_key
from app.storage.local import LocalStorage

__all__ = [
    "CACHE_CONTROL",
    "IMAGE_TYPES",
    "LocalStorage",
    "Storage",
    "check_settings",
    "current_storage",
    "storage_for",
    "validate_key",
]

log = logging.getLogger("app.storage")

EXTENSION = "storage"
BACKENDS = ("local", "s3")
_build_lock = threading.Lock()


def check_settings(config: Mapping[str, Any]) -> None:
    """Refuse a storage configuration that cannot work, when the app is created rather than at the first picture."""
    backend = config.get("STORAGE_BACKEND") or "local"
    if backend not in BACKENDS:
        raise RuntimeError(f"STORAGE_BACKEND must be one of {', '.join(BACKENDS)}, not {backend!r}")
    if backend == "s3":
        missing = [name for name in ("S3_BUCKET", "STORAGE_URL") if not config.get(name)]
        if missing:
            raise RuntimeError(f"STORAGE_BACKEND=s3 needs {' and '.join(missing)}")


def build_storage(config: Mapping[str, Any]) -> Storage:
    check_settings(config)
    if (config.get("STORAGE_BACKEND") or "local") == "s3":
        from app.storage.s3 import S3Storage, s3_client  # boto3 is imported only where it is used

        storage: Storage = S3Storage(s3_client(config), config["S3_BUCKET"], config["STORAGE_URL"])
        log.info("object storage: S3 bucket %s at %s", config["S3_BUCKET"], config.get("S3_ENDPOINT_URL") or "AWS")
    else:
        storage = LocalStorage(config["STORAGE_DIR"], config.get("STORAGE_URL", ""))
        log.info("object storage: local folder %s", storage.root)
    return storage


def storage_for(app: Flask) -> Storage:
    """The app's storage backend, built from its settings on first use and kept in app.extensions."""
    storage = app.extensions.get(EXTENSION)
    if storage is None:
        with _build_lock:
            storage = app.extensions.get(EXTENSION)
            if storage is None:
                storage = app.extensions[EXTENSION] = build_storage(app.config)
    return storage


def current_storage() -> Storage:
    """The storage backend of the current app."""
    return storage_for(current_app._get_current_object())  # type: ignore[attr-defined]


def blueprints() -> list[Blueprint]:
    """The domain's blueprints, registered in this order (imported here so that a model import loads no route)."""
    from app.storage import views

    return [views.bp]
