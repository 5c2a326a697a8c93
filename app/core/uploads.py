"""File uploads: a route that takes one says how large its body may be, and its files stay in memory.

Werkzeug spools an uploaded file over 500 KB to a temporary file on disk; a route marked `takes_upload` gets it in
memory instead (bounded by its own limit, refused with a 413 past it before any of it is read), so a photo of a
registration document is never written anywhere. Every other route keeps Werkzeug's behaviour.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import IO, Any, TypeVar

from flask import Flask, Request, current_app

View = TypeVar("View", bound=Callable[..., Any])

# Room for the multipart framing and the part's headers around the file itself.
FRAMING_BYTES = 64 * 1024


def takes_upload(max_file_bytes: int) -> Callable[[View], View]:
    """Mark a view as taking a multipart upload of one file of at most `max_file_bytes`, kept in memory."""

    def mark(view: View) -> View:
        view.upload_limit = max_file_bytes + FRAMING_BYTES  # type: ignore[attr-defined]
        return view

    return mark


def upload_limit(view: Callable[..., Any] | None) -> int | None:
    return getattr(view, "upload_limit", None)


class UploadRequest(Request):
    """The app's request: a marked view's body limit applies before the form is parsed, and its files stay in memory."""

    def _marked_limit(self) -> int | None:
        return upload_limit(current_app.view_functions.get(self.endpoint)) if self.endpoint else None

    def _load_form_data(self) -> None:
        limit = self._marked_limit()
        if limit is not None:
            self.max_content_length = limit
        super()._load_form_data()

    def _get_file_stream(
        self,
        total_content_length: int | None,
        content_type: str | None,
        filename: str | None = None,
        content_length: int | None = None,
    ) -> IO[bytes]:
        if self._marked_limit() is not None:
            return io.BytesIO()
        return super()._get_file_stream(total_content_length, content_type, filename, content_length)


def init_uploads(app: Flask) -> None:
    app.request_class = UploadRequest
