"""The product's own processes (worker, scheduler, launcher) as subprocesses, with their output in a file."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from app.config import PROJECT_ROOT


def wait_until(condition: Callable[[], object], timeout: float, what: str, interval: float = 0.1):
    """Poll `condition` until it is truthy (returned) or `timeout` seconds pass (AssertionError naming `what`)."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout} s: {what}")
        time.sleep(interval)


class Process:
    """One of the product's commands, run from the project folder with a settings environment of the test's own."""

    def __init__(self, argv: list[str], env: dict[str, str], log_path: Path) -> None:
        self.log_path = log_path
        self._log = log_path.open("wb")
        self._process = subprocess.Popen(  # noqa: S603 - the test's own command line
            [sys.executable, *argv],
            cwd=PROJECT_ROOT,
            env={**os.environ, **env},
            stdout=self._log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its children (gunicorn workers, work horses) go with it
        )

    @property
    def pid(self) -> int:
        return self._process.pid

    @property
    def alive(self) -> bool:
        return self._process.poll() is None

    def output(self) -> str:
        return self.log_path.read_text(errors="replace")

    def stop(self, timeout: float = 15) -> int | None:
        """SIGTERM, then SIGKILL for the whole group if it has not stopped in time; returns the exit code."""
        if self.alive:
            self._process.send_signal(signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self._process.wait(timeout=timeout)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self._process.pid, signal.SIGKILL)  # whatever it left behind
        self._process.wait(timeout=5)
        self._log.close()
        return self._process.returncode
