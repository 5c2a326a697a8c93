"""A request id for every request, so one line of gunicorn's access log can be matched with the app's logs and with
what a dealer reports: the caller's X-Request-ID (a proxy's) when it is a plain token, else a new one. It is sent
back in the response, where the access log reads it, and kept in the WSGI environ."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable, Iterable
from typing import Any

HEADER = "X-Request-ID"
INCOMING = "HTTP_X_REQUEST_ID"  # the header as the WSGI environ names it
ENVIRON_KEY = "parcabul.request_id"
# Only what cannot break a log line or a header: a caller's id outside this is replaced.
PLAIN_TOKEN = re.compile(r"[A-Za-z0-9._-]{8,64}")


def request_id(environ: dict[str, Any]) -> str:
    return environ.get(ENVIRON_KEY, "")


class RequestIdMiddleware:
    """WSGI middleware giving each request its id (environ) and echoing it (response header)."""

    def __init__(self, app: Callable) -> None:
        self.app = app

    def __call__(self, environ: dict[str, Any], start_response: Callable) -> Iterable[bytes]:
        incoming = environ.get(INCOMING, "")
        environ[ENVIRON_KEY] = incoming if PLAIN_TOKEN.fullmatch(incoming) else uuid.uuid4().hex

        def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Callable:
            headers = [(name, value) for name, value in headers if name.lower() != HEADER.lower()]
            headers.append((HEADER, environ[ENVIRON_KEY]))
            return start_response(status, headers, exc_info)

        return self.app(environ, start)
