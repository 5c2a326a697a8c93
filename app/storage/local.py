"""The embedded default: objects in a local folder, served by the app itself at /storage/<key>."""

from __future__ import annotations

import mimetypes
import os
import tempfile
from pathlib import Path

from app.storage.base import Storage, validate_key

LOCAL_URL_PREFIX = "/storage"
# Each object's content type, kept beside the tree under a dot name that no valid key can reach.
META_DIR = ".meta"


def _atomic_write(path: Path, data: bytes) -> None:
    """Write through a temporary file and rename, so a reader sees the old file or the whole new one, never half."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
        os.chmod(temporary, 0o644)  # mkstemp makes 0600; a web server in front may serve the folder directly
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


class LocalStorage(Storage):
    name = "local"

    def __init__(self, root: str | Path, base_url: str = "") -> None:
        self.root = Path(root)
        self.base_url = (base_url or LOCAL_URL_PREFIX).rstrip("/")

    def __repr__(self) -> str:
        return f"LocalStorage(root={str(self.root)!r}, base_url={self.base_url!r})"

    def _write(self, key: str, data: bytes, content_type: str) -> None:
        # The type first: once the object exists, its type is there to serve it with.
        _atomic_write(self.root / META_DIR / key, content_type.encode())
        _atomic_write(self.root / key, data)

    def exists(self, key: str) -> bool:
        return (self.root / validate_key(key)).is_file()

    def content_type(self, key: str) -> str:
        """The type the object was stored with (guessed from its name for a file put there by hand)."""
        try:
            return (self.root / META_DIR / validate_key(key)).read_text().strip()
        except FileNotFoundError:
            return mimetypes.guess_type(key)[0] or "application/octet-stream"
