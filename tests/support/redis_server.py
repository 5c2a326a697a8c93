"""A real redis-server on a free loopback port, for tests that take Redis away and bring it back.

`stop()` shuts it down saving its data (as AOF would keep it across a restart), `kill()` crashes it and forgets its
data, `start()` brings it back on the same port, loading whatever was saved.
"""

from __future__ import annotations

import contextlib
import random
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest
import redis

REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"
START_TIMEOUT_SECONDS = 10


LOWEST_PORT = 10_000
EPHEMERAL_RANGE = Path("/proc/sys/net/ipv4/ip_local_port_range")


def free_port() -> int:
    """A free loopback port below the kernel's ephemeral range. The port is released before its server binds it; a
    port the kernel hands out for a bind to port 0 (a launched product's own sandboxes, another suite's servers) is
    never one of these, so it cannot be taken meanwhile."""
    below = _ephemeral_start()
    for _attempt in range(200):
        port = random.randrange(LOWEST_PORT, below)
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
        return port
    raise RuntimeError(f"no free loopback port from {LOWEST_PORT} to {below}")


def _ephemeral_start() -> int:
    try:
        start = int(EPHEMERAL_RANGE.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        start = 32_768  # Linux's default
    return max(start, LOWEST_PORT + 1_000)


def require_redis_server() -> None:
    if not Path(REDIS_SERVER).exists():
        pytest.skip("redis-server is not installed")


class RedisServer:
    def __init__(self, directory: Path, port: int | None = None) -> None:
        self.directory = directory
        self.port = port or free_port()
        self._process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def client(self) -> redis.Redis:
        return redis.Redis(host="127.0.0.1", port=self.port, socket_timeout=2, socket_connect_timeout=1)

    def start(self) -> RedisServer:
        command = [REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.directory)]
        command += ["--save", "", "--appendonly", "no", "--dbfilename", "dump.rdb", "--loglevel", "warning"]
        self._process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # noqa: S603
        deadline = time.monotonic() + START_TIMEOUT_SECONDS
        while time.monotonic() < deadline:
            try:
                if self.client().ping():
                    return self
            except redis.RedisError:
                time.sleep(0.05)
        raise RuntimeError(f"redis-server did not start on port {self.port}")

    def stop(self) -> None:
        """Shut down, saving the data set to disk so the next `start()` loads it."""
        if self.running:
            with contextlib.suppress(redis.ConnectionError):  # the server closes the connection as it exits
                self.client().shutdown(save=True)
            self._process.wait(timeout=10)

    def kill(self) -> None:
        """Crash: nothing is saved, and what was saved before is forgotten."""
        if self.running:
            self._process.kill()
            self._process.wait(timeout=10)
        (self.directory / "dump.rdb").unlink(missing_ok=True)

    def pause(self) -> None:
        """Hang: the port still accepts connections, but nothing answers (SIGSTOP)."""
        self._process.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        if self.running:
            self._process.send_signal(signal.SIGCONT)

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.poll() is None


@pytest.fixture
def redis_server(tmp_path):
    """A real redis-server of the test's own, killed at the end."""
    require_redis_server()
    directory = tmp_path / "redis"
    directory.mkdir()
    server = RedisServer(directory).start()
    yield server
    server.resume()
    server.kill()
