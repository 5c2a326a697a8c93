"""`make run`: the whole product in one command on the embedded default.

Starts the embedded Redis-compatible store when REDIS_URL is unset and a local stand-in for every outside service
without settings (each domain registers its own: app.core.sandboxes), migrates, seeds, then runs the web server,
the RQ worker and the scheduler as child processes. A child that dies is started again after a backoff delay, with
a log line; Ctrl-C (or SIGTERM) stops them all together.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import sqlalchemy as sa
from dotenv import load_dotenv
from sqlalchemy.engine import Engine

from app.config import PROJECT_ROOT, is_production
from app.core import embedded_redis, sandboxes
from app.core.reconnect import Backoff

# A child that ran this long before dying was healthy: its next restart waits the shortest delay again.
STEADY_SECONDS = 30.0
POLL_SECONDS = 0.5
STOP_SECONDS = 10
# pg_advisory_lock's key for migrating and seeding (any constant of our own: "PB-PREP" in ASCII).
PREPARE_LOCK_KEY = 0x50422D50524550


def say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def prepare_database() -> None:
    from flask_migrate import upgrade

    from app import create_app_or_exit
    from app.core.seed import run_seed
    from app.extensions import db

    app = create_app_or_exit()
    with app.app_context(), one_node_at_a_time(db.engine):
        upgrade()
        for name, summary in run_seed(app.config["SEED_STEPS"]):
            print(f"seed {name}: {summary}", flush=True)


@contextmanager
def one_node_at_a_time(engine: Engine) -> Iterator[None]:
    """Hold a PostgreSQL advisory lock while migrating and seeding: nodes started together over one database would
    otherwise run the same migration at once, and all but one would fail on the tables the first creates."""
    if engine.dialect.name != "postgresql":
        yield  # an SQLite file is one machine's, served by one launcher
        return
    with engine.connect() as connection:
        connection.execute(sa.select(sa.func.pg_advisory_lock(PREPARE_LOCK_KEY)))
        connection.commit()  # the session-level lock outlives this transaction; no snapshot is held while waiting
        try:
            yield
        finally:
            connection.execute(sa.select(sa.func.pg_advisory_unlock(PREPARE_LOCK_KEY)))
            connection.commit()


def start_local_services(host: str, port: str) -> list:
    """Start a stand-in for each outside service with no settings, and point the children at it."""
    from app import LOCAL_SERVICES

    base_url = (os.environ.get("BASE_URL") or f"http://{host}:{port}").rstrip("/")
    started = sandboxes.start_missing(sandboxes.load(LOCAL_SERVICES), os.environ, base_url)
    for service, _running, settings in started:
        os.environ.update(settings)
        say(f"{service.describes}: the {service.name} sandbox on loopback")
    return started


def child_commands(host: str, port: str) -> dict[str, list[str]]:
    """The children; gunicorn reads the rest of its settings (access log, no control socket) from gunicorn.conf.py."""
    python = sys.executable
    return {
        "web": [python, "-m", "gunicorn", "wsgi:app", "--bind", f"{host}:{port}", "--workers", "2", "--threads", "4"],
        "worker": [python, "worker.py"],
        "scheduler": [python, "worker.py", "scheduler"],
    }


@dataclass
class Child:
    name: str
    command: list[str]
    backoff: Backoff = field(default_factory=lambda: Backoff(first=1.0, cap=30.0))
    process: subprocess.Popen | None = None
    started_at: float = 0.0
    restart_at: float | None = None


class Supervisor:
    """Runs the children and starts again, after a growing delay, any that dies, until it is told to stop."""

    def __init__(self, commands: dict[str, list[str]], cwd: Path = PROJECT_ROOT) -> None:
        self.children = [Child(name, command) for name, command in commands.items()]
        self.cwd = cwd
        self.stopping = False

    def start(self) -> Supervisor:
        for child in self.children:
            self._spawn(child)
        return self

    def check(self) -> None:
        """Notice children that died and start those whose delay has passed."""
        now = time.monotonic()
        for child in self.children:
            if child.restart_at is None and child.process.poll() is not None:
                self._schedule_restart(child, now)
            elif child.restart_at is not None and now >= child.restart_at and not self.stopping:
                self._spawn(child)

    def run(self) -> int:
        """Supervise until SIGINT or SIGTERM, then stop every child."""

        def request_stop(_signum, _frame):
            self.stopping = True

        signal.signal(signal.SIGINT, request_stop)
        signal.signal(signal.SIGTERM, request_stop)
        while not self.stopping:
            self.check()
            time.sleep(POLL_SECONDS)
        self.stop()
        return 0

    def stop(self) -> None:
        self.stopping = True
        running = [child.process for child in self.children if child.process and child.process.poll() is None]
        for process in running:
            process.terminate()
        for process in running:
            try:
                process.wait(timeout=STOP_SECONDS)
            except subprocess.TimeoutExpired:
                process.kill()

    def _spawn(self, child: Child) -> None:
        child.process = subprocess.Popen(child.command, cwd=self.cwd)  # noqa: S603 - argv built here, no input
        child.started_at, child.restart_at = time.monotonic(), None
        say(f"{child.name} started as pid {child.process.pid}")

    def _schedule_restart(self, child: Child, now: float) -> None:
        if now - child.started_at >= STEADY_SECONDS:
            child.backoff.reset()
        delay = child.backoff.next_delay()
        child.restart_at = now + delay
        if not self.stopping:
            code = child.process.returncode
            say(f"{child.name} (pid {child.process.pid}) exited with {code}; restarting it in {delay:.1f} s")


def main() -> int:
    load_dotenv()
    host, port = os.environ.get("HOST", "127.0.0.1"), os.environ.get("PORT", "5000")
    started = []
    # In production every outside service is real: no stand-in takes a missing one's place (prepare_database's app
    # refuses to start without it instead).
    if not is_production():
        if not os.environ.get("REDIS_URL"):
            os.environ["REDIS_URL"] = embedded_redis.shared_url()
        started = start_local_services(host, port)
    prepare_database()
    supervisor = Supervisor(child_commands(host, port)).start()
    print(f"Parça Bul is running on http://{host}:{port} (Ctrl-C stops it)", flush=True)
    try:
        return supervisor.run()
    finally:
        sandboxes.stop_all(started)


if __name__ == "__main__":
    sys.exit(main())
