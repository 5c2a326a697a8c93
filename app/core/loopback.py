"""A WSGI app served from a daemon thread on a loopback port: the sandboxes, the test fakes, live test servers."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from werkzeug.serving import WSGIRequestHandler, make_server


class _QuietHandler(WSGIRequestHandler):
    def log_request(self, *args, **kwargs) -> None:
        pass


def _closed_at_once(app: Callable) -> Callable:
    """The app with each response's body read and closed before it is sent. werkzeug's server skips closing a response
        when the client drops the connection before the end (draining the request raises first), which left a static
        file open until the garbage collector closed it with a ResourceWarning. A server made with `buffered=False`
    streams (a sandbox's long price feed) and closes its responses itself."""

    def buffered(environ: dict[str, Any], start_response: Callable) -> list[bytes]:
        body = app(environ, start_response)
        try:
            return [b"".join(body)]
        finally:
            if hasattr(body, "close"):
                body.close()

    return buffered


class LoopbackServer:
    def __init__(
        self,
        wsgi_app: Callable,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        name: str = "loopback",
        quiet: bool = False,
        buffered: bool = True,
    ) -> None:
        handler = _QuietHandler if quiet else None
        app = _closed_at_once(wsgi_app) if buffered else wsgi_app
        self._server = make_server(host, port, app, threaded=True, request_handler=handler)
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.1}, name=name, daemon=True
        )

    @property
    def port(self) -> int:
        return self._server.server_port

    @property
    def url(self) -> str:
        return f"http://{self._server.host}:{self.port}"

    def start(self) -> LoopbackServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
