"""A live-chat host on loopback: serves a widget script that behaves as a vendor's does (it reads the page's
`window.parcabulLivechat`, registers the visitor with a cross-origin call and opens its chat frame from the host), and
records what it was asked, for tests to read."""

from __future__ import annotations

import json
import threading
import uuid

from werkzeug.wrappers import Request, Response

from app.core.loopback import LoopbackServer

WIDGET = """(function () {
  var config = window.parcabulLivechat || {};
  fetch("%(host)s/visitors", {
    method: "POST",
    headers: {"Content-Type": "application/json"},
    body: JSON.stringify({locale: config.locale || null, identity: config.identity || null})
  }).then(function (response) { return response.json(); }).then(function (answer) {
    var frame = document.createElement("iframe");
    frame.id = "fake-livechat";
    frame.title = "Canlı destek";
    frame.src = "%(host)s/frame?visitor=" + encodeURIComponent(answer.visitor);
    document.body.appendChild(frame);
  });
})();
"""

FRAME = "<!doctype html><html lang='tr'><title>Canlı destek</title><p id='greeting'>Merhaba %s</p></html>"


class FakeLivechat:
    def __init__(self, widget_path: str = "/widget.js") -> None:
        self.widget_path = widget_path
        self.visitors: list[dict] = []  # what each page's widget registered: locale and identity
        self.requests: list[str] = []
        self._lock = threading.Lock()
        self.server = LoopbackServer(self.wsgi, name="fake-livechat", quiet=True).start()
        self.url = self.server.url

    @Request.application
    def wsgi(self, request: Request) -> Response:
        with self._lock:
            self.requests.append(f"{request.method} {request.path}")
        cors = {
            "Access-Control-Allow-Origin": request.headers.get("Origin", "*"),
            "Access-Control-Allow-Headers": "Content-Type",
            "Access-Control-Allow-Methods": "POST",
        }
        if request.path == self.widget_path:
            return Response(WIDGET % {"host": self.url}, mimetype="text/javascript")
        if request.path == "/visitors" and request.method == "OPTIONS":
            return Response(status=204, headers=cors)
        if request.path == "/visitors" and request.method == "POST":
            with self._lock:
                self.visitors.append(json.loads(request.get_data() or b"{}"))
            return Response(json.dumps({"visitor": str(uuid.uuid4())}), mimetype="application/json", headers=cors)
        if request.path == "/frame":
            return Response(FRAME % request.args.get("visitor", ""), mimetype="text/html")
        return Response(status=404)

    def stop(self) -> None:
        self.server.stop()
