"""What every catalog sandbox shares: the generated catalog, its fault knobs, a lock for what tests read, a stop
signal that wakes requests sleeping in a fault, and (for one-server sandboxes) serving on a loopback port."""

from __future__ import annotations

import logging
import random
import threading
from typing import Any

from app.core.loopback import LoopbackServer
from app.sources.sandbox.catalog import SandboxCatalog, sandbox_catalog

log = logging.getLogger(__name__)


class Sandbox:
    def __init__(self, seed: int, faults: Any) -> None:
        self.seed = seed
        self.catalog: SandboxCatalog = sandbox_catalog(seed)
        self.faults = faults
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

    def __init__(self, seed: int, faults: Any, host: str) -> None:
        super().__init__(seed, faults)
        self._server = LoopbackServer(self._wsgi, host=host, name=self.server_name)

    @property
    def url(self) -> str:
        return self._server.url

    def start(self):  # noqa: ANN201 - returns the subclass itself
        self._server.start()
        log.info("%s on %s", self.server_name, self.url)
        return self

    def stop(self) -> None:
        self._stopping.set()
        self._server.stop()
