"""What a benchmark runs against: a fresh database and Redis, the source sandboxes, the app served over real HTTP, and
`Bench`, which the decode benchmarks drive it through.

The database is a temporary SQLite file and Redis an embedded store in a child process (`embedded_store`), unless
BENCH_DATABASE_URL names a PostgreSQL database to create (refused if it exists, dropped afterwards) and BENCH_REDIS_URL
a Redis database number that is empty (flushed afterwards). Nothing else on either server is touched.
"""

from __future__ import annotations

import gc
import logging
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Protocol

import redis
import requests
import sqlalchemy as sa
from flask import Flask, Response, jsonify
from flask_migrate import upgrade

from app import create_app
from app.config import PROJECT_ROOT, normalize_database_url
from app.core.loopback import LoopbackServer
from app.core.security import shop_role
from app.extensions import db, redis_store
from app.vehicles.cache import ResolveCache
from app.vehicles.models import ScrapeVinCache, Vehicle
from app.vehicles.race import IN_FLIGHT
from bench.measure import Batch, Result, Send
from tests.support.dealers import commit_full_plan_dealer
from tests.support.upstreams import Upstreams

DECODE_PATH = "/api/vehicles/decode"
STRAGGLER_WAIT_SECONDS = 30
STORE_READY_SECONDS = 30
STORE_STOP_SECONDS = 10

EMAIL = "bench@example.com"
PASSWORD = "bench-horse-42-staple"  # noqa: S105 - a throwaway dealer in a throwaway database


class BenchSetupError(RuntimeError):
    """The benchmark cannot run on the given database or Redis (it would touch data it did not create)."""


# --- the database and Redis ---------------------------------------------------------------------------------------


@contextmanager
def fresh_database(default_url: str = "") -> Iterator[tuple[str, str]]:
    """A new, empty database: (SQLAlchemy URL, what it is). Without BENCH_DATABASE_URL, the PostgreSQL database
    `default_url` names, else a temporary SQLite file."""
    url = os.environ.get("BENCH_DATABASE_URL", "").strip() or default_url
    if not url:
        with tempfile.TemporaryDirectory(prefix="bench-decode-") as directory:
            yield f"sqlite:///{directory}/bench.sqlite3", f"SQLite file in {directory} (temporary)"
        return
    with _created_postgres_database(sa.make_url(normalize_database_url(url))) as created:
        yield created


@contextmanager
def _created_postgres_database(url: sa.URL) -> Iterator[tuple[str, str]]:
    name = url.database
    if url.get_backend_name() != "postgresql" or not name:
        raise BenchSetupError(f"BENCH_DATABASE_URL must name a PostgreSQL database, not {url!r}")
    server = sa.create_engine(url.set(database="postgres"), isolation_level="AUTOCOMMIT")
    quoted = server.dialect.identifier_preparer.quote(name)
    try:
        with server.connect() as connection:
            if connection.scalar(sa.text("SELECT 1 FROM pg_database WHERE datname = :name"), {"name": name}):
                raise BenchSetupError(f"database {name!r} exists; drop it or name another in BENCH_DATABASE_URL")
            connection.execute(sa.text(f"CREATE DATABASE {quoted}"))
        try:
            where = f"{url.host}:{url.port or 5432}"
            yield url.render_as_string(hide_password=False), f"PostgreSQL database {name} on {where} (created now)"
        finally:
            with server.connect() as connection:
                connection.execute(sa.text(f"DROP DATABASE IF EXISTS {quoted} WITH (FORCE)"))
    finally:
        server.dispose()


@contextmanager
def fresh_redis() -> Iterator[tuple[str, str]]:
    """An empty Redis database: (URL, what it is); without BENCH_REDIS_URL, an embedded store of its own."""
    url = os.environ.get("BENCH_REDIS_URL", "").strip()
    if not url:
        with embedded_store() as store_url:
            yield store_url, f"embedded Redis-compatible store at {store_url} (in a child process)"
        return
    client = redis.Redis.from_url(url)
    given = client.connection_pool.connection_kwargs
    where = f"Redis db {given.get('db', 0)} at {given.get('host')}:{given.get('port')}"  # no password in the output
    try:
        if client.dbsize():
            raise BenchSetupError(f"{where} is not empty; name an empty one in BENCH_REDIS_URL")
        try:
            yield url, f"{where} (empty before, flushed after)"
        finally:
            client.flushdb()
    finally:
        client.close()


# The store's process: it prints its URL, then serves until its stdin closes (so it ends with the bench, however the
# bench ends; Ctrl-C reaches the bench, which closes it).
_STORE_PROCESS = (
    "import signal, sys\n"
    "signal.signal(signal.SIGINT, signal.SIG_IGN)\n"
    "from app.core.embedded_redis import EmbeddedRedis\n"
    "print(EmbeddedRedis().start().url, flush=True)\n"
    "sys.stdin.read()\n"
)


@contextmanager
def embedded_store() -> Iterator[str]:
    """The embedded Redis-compatible store in a child process, as `make run` has it outside the web workers (in the
    launcher), so its request handling does not take the GIL from the app and the clients under test: its URL once it
    answers PING. Stopped at the end, on errors too."""
    process = subprocess.Popen(  # noqa: S603 - our own interpreter and a constant script
        [sys.executable, "-c", _STORE_PROCESS],
        cwd=PROJECT_ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        url = process.stdout.readline().strip()  # "" when the child failed before serving (its error is on stderr)
        deadline = time.monotonic() + STORE_READY_SECONDS
        while not _answers_ping(url):
            if process.poll() is not None or time.monotonic() > deadline:
                raise BenchSetupError(f"the embedded store did not answer PING ({url or 'no URL'})")
            time.sleep(0.05)
        yield url
    finally:
        process.stdin.close()  # its end of serving
        try:
            process.wait(timeout=STORE_STOP_SECONDS)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        process.stdout.close()


def _answers_ping(url: str) -> bool:
    if not url:
        return False
    client = redis.Redis.from_url(url, socket_timeout=1)
    try:
        return bool(client.ping())
    except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError):
        return False
    finally:
        client.close()


# --- the server's log -------------------------------------------------------------------------------------------


class LogTally(logging.Handler):
    """Count the server's warnings and errors by kind instead of printing a traceback per failed request."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.counts: Counter[str] = Counter()

    def emit(self, record: logging.LogRecord) -> None:
        kind = f"{record.levelname} {record.name}: {record.getMessage()[:100]}"
        cause = record.exc_info[1] if record.exc_info else None
        if cause is not None:
            kind += f" <- {type(cause).__name__}: {str(cause).splitlines()[0][:160]}"
            # sqlite3 names the extended code (SQLITE_BUSY_SNAPSHOT or SQLITE_BUSY), which says why it was locked.
            code = getattr(getattr(cause, "orig", None), "sqlite_errorname", None)
            kind += f" [{code}]" if code else ""
        self.counts[kind] += 1

    def take(self) -> list[str]:
        """The counts since the last take, most frequent first."""
        lines = [f"server log: {count} x {kind}" for kind, count in self.counts.most_common()]
        self.counts.clear()
        return lines

    def install(self) -> LogTally:
        root = logging.getLogger()
        root.handlers = [self]
        root.setLevel(logging.WARNING)
        logging.getLogger("werkzeug").setLevel(logging.WARNING)  # the sandboxes' request lines
        return self


def run_benchmarks(run: Callable[[str, str], list[Result]], default_database_url: str = "") -> int:
    """Run a benchmark module's `run(database_url, redis_url)` on a fresh database and Redis and print the verdict:
    the exit code is 0 when every target is met, 1 when one is missed, 2 when the database or Redis is not fresh."""
    try:
        with fresh_database(default_database_url) as (database_url, database), fresh_redis() as (redis_url, store):
            print(f"database: {database}\nredis:    {store}")
            results = run(database_url, redis_url)
    except BenchSetupError as error:
        print(f"bench: {error}", file=sys.stderr)
        return 2
    failed = [result.name for result in results if not result.passed]
    print(f"\n{len(results) - len(failed)} of {len(results)} targets met" + (": FAIL" if failed else ": PASS"))
    return 1 if failed else 0


def shut_down(served: Served, app: Flask) -> None:
    """Stop serving the app and close its database connections (the run's database is dropped next)."""
    served.stop()
    with app.app_context():
        db.engine.dispose()


def printed(result: Result, tally: LogTally) -> Result:
    """Print a benchmark's result with the server's warnings and errors seen while it ran."""
    result.details.extend(tally.take())
    result.print()
    return result


# --- the app ------------------------------------------------------------------------------------------------------


def bench_config(database_url: str, redis_url: str, upstreams: Upstreams) -> dict:
    return {
        "SECRET_KEY": "bench-secret-key",
        "AUTH_SECRET": "bench-auth-secret",
        "SQLALCHEMY_DATABASE_URI": database_url,
        "REDIS_URL": redis_url,
        "RATELIMIT_ENABLED": False,
        "CAPTCHA_SECRET": "",
        "LOG_LEVEL": "WARNING",
        "SCRAPE_BROWSER_FALLBACK": "false",
        # The bench's server runs a thread per request and its clients eight at once: give each a pooled connection,
        # as gunicorn's four threads per process have with the default pool of five. With the default, three
        # connections were opened and closed on every round of requests (PostgreSQL forks a backend for each).
        "SQLALCHEMY_ENGINE_OPTIONS": {"pool_size": 10},  # beside the app's own (app.create_app merges them)
        **upstreams.settings,
    }


def prepared_app(config: dict) -> Flask:
    """The app on its fresh database: migrated, brands and plans seeded, and a dealer with an active Full plan."""
    app = create_app(config)
    with app.app_context():
        logging.disable(logging.INFO)  # the migration log says nothing a benchmark reader needs
        try:
            upgrade()
        finally:
            logging.disable(logging.NOTSET)
        _seed_dealer()
    return app


@contextmanager
def bench_app(database_url: str, redis_url: str, name: str) -> Iterator[tuple[Flask, Upstreams, LogTally]]:
    """The prepared app with the source sandboxes and a temporary storage directory, and the server's log counted
    (LogTally) from here on; the sandboxes are stopped afterwards."""
    upstreams = Upstreams.start()
    try:
        with tempfile.TemporaryDirectory(prefix=f"{name}-") as storage:
            app = prepared_app({**bench_config(database_url, redis_url, upstreams), "STORAGE_DIR": storage})
            yield app, upstreams, LogTally().install()
    finally:
        upstreams.stop()


def _seed_dealer() -> None:
    commit_full_plan_dealer(EMAIL, "Bench Bayi", PASSWORD)
    db.session.remove()


class Listening(Protocol):
    """A server of the app on loopback: the bench's own (LoopbackServer) or gunicorn's (bench.load)."""

    @property
    def url(self) -> str: ...

    def stop(self) -> None: ...


@dataclass
class Served:
    """The app served on a loopback port, with the headers a same-site JSON call needs."""

    server: Listening

    @classmethod
    def start(cls, app: Flask, name: str) -> Served:
        """The app served from here on, its process's objects first frozen out of the garbage collector as each
        gunicorn worker's are once it has loaded the app (gunicorn.conf.py): what the bench built before (the app,
        the fleet's leftovers collected first) is not walked by every full collection of the timed requests."""
        gc.collect()
        gc.freeze()
        return cls(LoopbackServer(app, name=name, quiet=True).start())

    @property
    def url(self) -> str:
        return self.server.url

    @property
    def headers(self) -> dict[str, str]:
        return {"Origin": self.url}

    def signed_in_cookies(self, email: str = EMAIL, password: str = PASSWORD) -> requests.cookies.RequestsCookieJar:
        with requests.Session() as session:
            response = session.post(
                f"{self.url}/api/auth/sign-in/email",
                json={"email": email, "password": password},
                headers=self.headers,
                timeout=30,
            )
            response.raise_for_status()
            return session.cookies

    def sessions(self, count: int, cookies: requests.cookies.RequestsCookieJar | None = None) -> list[requests.Session]:
        made = [requests.Session() for _ in range(count)]
        for session in made:
            session.cookies.update(cookies or {})
        return made

    def stop(self) -> None:
        self.server.stop()


# --- what the decode benchmarks work with ---------------------------------------------------------------------


class ShellRoute:
    """A signed-in route of the app itself that answers a fixed body: what every request costs before decode runs
    (extensions, session lookup, guards, the commit hook). It must be added before the app serves its first request."""

    path = "/api/bench/shell"

    def __init__(self, app: Flask) -> None:
        self.body: object = None

        @shop_role("clerk")  # declared as every route is (the guard refuses an undeclared one to everyone)
        def answer() -> Response:
            return jsonify(self.body)

        app.add_url_rule(self.path, "bench_shell", answer, methods=["POST"])


@dataclass
class Bench:
    """The served app, its sandboxes, a signed-in dealer's cookie and the app's shell route."""

    app: Flask
    served: Served
    upstreams: Upstreams
    cookies: requests.cookies.RequestsCookieJar
    shell: ShellRoute

    def sessions(self, count: int) -> list[requests.Session]:
        return self.served.sessions(count, self.cookies)

    def decode(self, vin: str, served: Served | None = None, path: str = DECODE_PATH) -> Send:
        """A sender of POST /api/vehicles/decode for `vin` (or the same call to `path`), as the site's page makes it."""
        target = served or self.served
        url, headers = f"{target.url}{path}", target.headers

        def send(session: requests.Session) -> requests.Response:
            return session.post(url, json={"vin": vin}, headers=headers, timeout=60)

        return send

    def slow_sources(self, **latency_ms: int) -> None:
        """Clear every sandbox's faults and calls, then give the named sources a latency."""
        self.upstreams.reset()
        for source, milliseconds in latency_ms.items():
            getattr(self.upstreams, source).faults.latency_ms = milliseconds

    def forget(self, vin: str, web_catalog: bool = False) -> None:
        """Make `vin` new again: no stored vehicle (nor links to it) and no resolve-cache keys; with `web_catalog`,
        also no row in the web catalog's VIN cache (app.vehicles.scrape_cache), so the scrape source is asked again
        (the admin's cache clear and the vehicle delete leave that row, so a repeat decode would race no upstream)."""
        settle()
        with self.app.app_context():
            db.session.execute(sa.delete(Vehicle).where(Vehicle.vin == vin))
            if web_catalog:
                db.session.execute(sa.delete(ScrapeVinCache).where(ScrapeVinCache.vin == vin))
            db.session.commit()
            ResolveCache(redis_store.client).clear(vin)  # after the commit, as the admin delete does
            db.session.remove()

    def upstream_calls(self, action: Callable[[], Batch]) -> tuple[Batch, dict[str, int]]:
        """Run `action` and count the VIN lookups each sandbox answered meanwhile (the race's stragglers included)."""
        settle()
        before = self.upstreams.vin_calls()
        batch = action()
        settle()
        after = self.upstreams.vin_calls()
        return batch, {source: after[source] - before[source] for source in after}


def settle() -> None:
    """Wait for the slower sources of decided races, which keep running in the background."""
    if not IN_FLIGHT.wait_idle(timeout=STRAGGLER_WAIT_SECONDS):
        raise RuntimeError(f"upstream calls still running after {STRAGGLER_WAIT_SECONDS} s")
