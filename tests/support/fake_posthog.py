"""A local PostHog ingestion endpoint: records what the real posthog SDK sends, for tests to read."""

from __future__ import annotations

import gzip
import json
import threading

from werkzeug.serving import make_server
from werkzeug.wrappers import Request, Response


class FakePostHog:
    def __init__(self) -> None:
        self.events: list[dict] = []
        self.server = make_server("127.0.0.1", 0, self.wsgi, threaded=True)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @Request.application
    def wsgi(self, request: Request) -> Response:
        raw = request.get_data()
        if request.headers.get("Content-Encoding") == "gzip":
            raw = gzip.decompress(raw)
        payload = json.loads(raw or b"{}")
        self.events.extend(payload.get("batch", [payload] if "event" in payload else []))
        return Response(json.dumps({"status": 1}), mimetype="application/json")

    def named(self, event: str) -> list[dict]:
        return [item for item in self.events if item.get("event") == event]

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
