"""What every catalog sandbox shares: the generated catalog, its fault knobs, a lock for what tests read, a stop
signal that wakes requests sleeping in a fault, (for one-server sandboxes) serving on a loopback port, and the schema
pictures the HTML sandboxes put on their parts pages with what they get wrong about them on purpose."""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Callable
from enum import StrEnum
from typing import Any

from werkzeug.wrappers import Response

from app.core.loopback import LoopbackServer
from app.sources.sandbox.catalog import SandboxCatalog, SchemaPicture, sandbox_catalog
from app.sources.sandbox.schema_image import render_schema_png

log = logging.getLogger(__name__)


class Sandbox:
    def __init__(self, seed: int, faults: Any) -> None:
        self.seed = seed
        self.catalog: SandboxCatalog = sandbox_catalog(seed)
        self.faults = faults
        self.clock: Callable[[], float] = time.monotonic  # token and session expiry; tests put a fake clock here
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._noise = random.Random(seed)  # for error_rate only

    def _pause(self, seconds: float) -> None:
        """Sleep for a latency or hang fault; stopping the sandbox ends the sleep at once."""
        if seconds:
            self._stopping.wait(seconds)

    def _unlucky(self) -> bool:
        """Whether this request is one of the share `faults.error_rate` that answers with a server error."""
        rate = self.faults.error_rate
        return bool(rate) and self._noise.random() < rate


class SingleServerSandbox(Sandbox):
    """A sandbox served by one loopback server; subclasses define the WSGI callable `_wsgi`."""

    server_name = "sandbox"
    streams = False  # whether its responses are streamed rather than sent whole

    def __init__(self, seed: int, faults: Any, host: str) -> None:
        super().__init__(seed, faults)
        self._server = LoopbackServer(self._wsgi, host=host, name=self.server_name, buffered=not self.streams)

    @property
    def url(self) -> str:
        return self._server.url

    def start(self):  # returns the subclass itself
        self._server.start()
        log.info("%s on %s", self.server_name, self.url)
        return self

    def stop(self) -> None:
        self._stopping.set()
        self._server.stop()


class PictureFault(StrEnum):
    """What an HTML sandbox's parts pages get wrong about their schema picture (the `pictures` fault)."""

    NONE = ""
    MALFORMED = "malformed"  # hotspot entries with unreadable coordinates or positions beside the good ones
    ABSURD = "absurd"  # the picture claims a width no drawing has
    MISSING = "missing"  # the page shows no picture
    NOT_IMAGE = "not_image"  # the picture's address answers with an HTML page


ABSURD_WIDTH = 250_000


def declared_size(schema: SchemaPicture, fault: str) -> tuple[int, int]:
    """The width and height a page gives the picture."""
    return (ABSURD_WIDTH if fault == PictureFault.ABSURD else schema.width), schema.height


def picture_response(seed: int, vehicle_key: str, code: str, fault: str) -> Response | None:
    """The picture's PNG from the shared generator (an HTML page for the NOT_IMAGE fault); None when there is none."""
    png = render_schema_png(seed, vehicle_key, code)
    if png is None:
        return None
    if fault == PictureFault.NOT_IMAGE:
        return Response("<html><body>Resim bulunamadı</body></html>", mimetype="text/html")
    return Response(png, mimetype="image/png")
