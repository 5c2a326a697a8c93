"""A local PostHog ingestion endpoint: records what the real posthog SDK sends, for tests to read."""

from __future__ import annotations

import gzip
import json

from werkzeug.wrappers import Request, Response

from app.core.loopback import LoopbackServer


class FakePostHog:
    def __init__(self) -> None:
        self.events: list[dict] = []
        self.server = LoopbackServer(self.wsgi, name="fake-posthog").start()
        self.url = self.server.url

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
        self.server.stop()
