"""What every storage backend offers: validated keys, image content types, and store-once on top of put and exists."""

from __future__ import annotations

import logging
import re
from abc import ABC, abstractmethod
from collections.abc import Callable

log = logging.getLogger("app.storage")

# Objects never change once written (keys are content-addressed or otherwise immutable), so caches may keep them.
CACHE_MAX_AGE = 365 * 24 * 3600
CACHE_CONTROL = f"public, max-age={CACHE_MAX_AGE}, immutable"

MAX_KEY_LENGTH = 512
# Slash-separated segments of letters, digits, '.', '_' and '-'; no segment starts with '.', so neither '..' nor a
# hidden file (the local backend keeps its metadata and half-written files under dot names) can be named.
_SEGMENT = r"[A-Za-z0-9_-][A-Za-z0-9._-]*"
_KEY = re.compile(rf"{_SEGMENT}(?:/{_SEGMENT})*")

# Raster image types only: the local backend serves objects from the site's own origin, where HTML, script or SVG
# from an upstream could run as the site.
IMAGE_TYPES = frozenset({"image/png", "image/jpeg", "image/gif", "image/webp", "image/avif"})
_ALIASES = {"image/jpg": "image/jpeg", "image/pjpeg": "image/jpeg", "image/x-png": "image/png"}


def validate_key(key: str) -> str:
    """Return the key if it is a safe object name, else raise ValueError."""
    if not isinstance(key, str) or len(key) > MAX_KEY_LENGTH or ".." in key or not _KEY.fullmatch(key):
        raise ValueError(f"invalid storage key: {key!r}")
    return key


def _sniff(data: bytes) -> str | None:
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if data.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if data[:6] in (b"GIF87a", b"GIF89a"):
        return "image/gif"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    if data[4:12] in (b"ftypavif", b"ftypavis"):
        return "image/avif"
    return None


def image_content_type(data: bytes, declared: str | None) -> str:
    """The content type to store: what the bytes say, else the declared image type; anything else is refused."""
    sniffed = _sniff(data)
    if sniffed:
        return sniffed
    declared = (declared or "").split(";", 1)[0].strip().lower()
    declared = _ALIASES.get(declared, declared)
    if declared in IMAGE_TYPES:
        return declared
    raise ValueError(f"not a stored image type: {declared or 'unknown'!r}")


class Storage(ABC):
    """Objects under validated keys, published at `base_url + '/' + key`."""

    name: str
    base_url: str

    @abstractmethod
    def _write(self, key: str, data: bytes, content_type: str) -> None: ...

    @abstractmethod
    def exists(self, key: str) -> bool:
        """Whether an object is stored under the key."""

    def put(self, key: str, data: bytes, content_type: str) -> str:
        """Store the bytes under the key (replacing any object there) and return the public URL."""
        key = validate_key(key)
        content_type = image_content_type(data, content_type)
        self._write(key, data, content_type)
        log.info("stored %s (%s, %d bytes) in %s storage", key, content_type, len(data), self.name)
        return self.url(key)

    def url(self, key: str) -> str:
        """The public URL of the key (whether or not it is stored yet)."""
        return f"{self.base_url}/{validate_key(key)}"

    def store_once(self, key: str, fetch: Callable[[], tuple[bytes, str]]) -> str:
        """Fetch and store the object only when the key is absent; return its public URL either way.

        Two workers may race past the check and both put; keys name immutable content, so the second put writes the
        same bytes and is harmless.
        """
        key = validate_key(key)
        if not self.exists(key):
            data, content_type = fetch()
            self.put(key, data, content_type)
        return self.url(key)
