"""The whole product as `make run` serves it (the launcher: gunicorn web, RQ worker, scheduler, sandboxes), in a child
process on a free loopback port, with a database and Redis of its own.

On the embedded default the database is a temporary SQLite file and Redis the launcher's embedded store. When
TEST_DATABASE_URL names PostgreSQL, a fresh database is created beside it (dropped afterwards), and TEST_REDIS_URL's
Redis database is used (flushed before and after).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

import redis
import requests
import sqlalchemy as sa

from app.config import PROJECT_ROOT, normalize_database_url
from tests.support.redis_server import free_port

START_TIMEOUT_SECONDS = 90
# Settings of the developer's shell that would point the product somewhere else.
FOREIGN_SETTINGS = (
    "DATABASE_URL",
    "REDIS_URL",
    "CATAPI_BASE_URLS",
    "SCRAPE_BASE_URL",
    "PORTAL_BASE_URL",
    "VPIC_BASE_URL",
    "STRIPE_SECRET_KEY",
    "STRIPE_WEBHOOK_SECRET",
    "STRIPE_API_BASE",
    "BASE_URL",
    "POSTHOG_API_KEY",
)


@dataclass
class Product:
    url: str
    database_url: str
    process: subprocess.Popen
    log_path: Path

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def engine(self) -> sa.Engine:
        return sa.create_engine(self.database_url)


@contextmanager
def running_product(tmp_path: Path, **settings: str) -> Iterator[Product]:
    """Start the launcher with `settings` added to its environment; stop it (and everything it started) afterwards."""
    with fresh_database(tmp_path) as database_url, flushed_redis() as redis_url:
        port = free_port()
        env = product_environment(tmp_path, database_url, redis_url, port, settings)
        log_path = tmp_path / "product.log"
        with log_path.open("w") as log_file:
            process = subprocess.Popen(
                [sys.executable, "-m", "app.launcher"],
                cwd=PROJECT_ROOT,
                env=env,
                stdout=log_file,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        product = Product(f"http://127.0.0.1:{port}", database_url, process, log_path)
        try:
            _wait_until_serving(product)
            yield product
        except BaseException:
            print(f"--- the product's log (last lines) ---\n{product.log()[-8000:]}")  # shown with the failure
            raise
        finally:
            _stop(process)


def product_environment(tmp_path: Path, database_url: str, redis_url: str, port: int, settings: dict[str, str]) -> dict:
    env = {key: value for key, value in os.environ.items() if key not in FOREIGN_SETTINGS}
    env.update(
        HOST="127.0.0.1",
        PORT=str(port),
        DATABASE_URL=database_url,
        STORAGE_DIR=str(tmp_path / "storage"),
        SECRET_KEY="product-test-secret",
        AUTH_SECRET="product-test-auth-secret",
        LOG_LEVEL="WARNING",
        PYTHONUNBUFFERED="1",
    )
    if redis_url:
        env["REDIS_URL"] = redis_url
    env.update(settings)
    return env


@contextmanager
def fresh_database(tmp_path: Path) -> Iterator[str]:
    """A database of the product's own: beside TEST_DATABASE_URL's (dropped afterwards), else a SQLite file in
    `tmp_path`."""
    test_url = os.environ.get("TEST_DATABASE_URL", "")
    if not test_url:
        yield f"sqlite:///{tmp_path / 'product.sqlite3'}"
        return
    url = sa.make_url(normalize_database_url(test_url))
    name = f"{url.database}_product_{uuid.uuid4().hex[:8]}"
    server = sa.create_engine(url.set(database="postgres"), isolation_level="AUTOCOMMIT")
    with server.connect() as connection:
        connection.execute(sa.text(f'CREATE DATABASE "{name}"'))
    try:
        yield url.set(database=name).render_as_string(hide_password=False)
    finally:
        with server.connect() as connection:
            connection.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        server.dispose()


@contextmanager
def flushed_redis() -> Iterator[str]:
    """TEST_REDIS_URL, its database emptied before and after (empty when the suite runs on the embedded store)."""
    url = os.environ.get("TEST_REDIS_URL", "")
    if url:
        redis.Redis.from_url(url).flushdb()
    try:
        yield url
    finally:
        if url:
            redis.Redis.from_url(url).flushdb()


def _wait_until_serving(product: Product) -> None:
    deadline = time.monotonic() + START_TIMEOUT_SECONDS
    while time.monotonic() < deadline:
        if product.process.poll() is not None:
            raise RuntimeError(f"the product exited with {product.process.returncode}:\n{product.log()[-4000:]}")
        try:
            if requests.get(product.url + "/api/health", timeout=2).status_code < 500:
                return
        except requests.RequestException:
            pass
        time.sleep(0.3)
    raise RuntimeError(f"the product did not answer within {START_TIMEOUT_SECONDS} s:\n{product.log()[-4000:]}")


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        with suppress(subprocess.TimeoutExpired):
            process.wait(timeout=20)
    # Whatever the launcher left behind in its process group (a child that outlived it) goes too.
    with suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=10)
