"""SQLite's writers in one process queue on the process's own write lock (`app.core.sqlite_write_lock`), not in
SQLite's busy handler: parallel writers all succeed and never wait in that handler, and a write unit that fails lets
the next writer in at once. Committed data on the embedded default; everything made is deleted afterwards."""

from __future__ import annotations

import logging
import os
import sqlite3
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from threading import Barrier
from typing import TypeVar

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from app.accounts import services as accounts
from app.accounts.models import User
from app.extensions import db
from app.notifications.models import OutboxEmail
from app.sources.sandbox.catalog import VIN_GOLF
from app.vehicles.models import QueryLog
from tests.conftest import PASSWORD, SITE
from tests.support.committed_dealer import committed_dealer

pytestmark = [
    pytest.mark.no_isolation,
    pytest.mark.skipif(bool(os.environ.get("TEST_DATABASE_URL")), reason="SQLite's write lock"),
]

WRITERS = 8
DECODES_EACH = 10
NEW_USERS = "%.yazici@example.com"
LOCK_LOG = "app.core.sqlite_write_lock"
Answer = TypeVar("Answer")


@pytest.fixture
def cleanup_new_users(app) -> Iterator[None]:
    yield
    with app.app_context():
        db.session.execute(sa.delete(OutboxEmail).where(OutboxEmail.to_address.like(NEW_USERS)))
        db.session.execute(sa.delete(User).where(User.email.like(NEW_USERS)))
        db.session.commit()
        db.session.remove()


def _no_busy_waiting(dbapi_connection: sqlite3.Connection, _record: object) -> None:
    dbapi_connection.execute("PRAGMA busy_timeout=0")


@pytest.fixture
def never_busy_waiting_app(make_app, upstreams, cleanup_new_users) -> Iterator[Flask]:
    """An app whose connections give up at once when SQLite's write lock is taken (busy_timeout 0, set after the app's
    own tuning): a writer that met another of the process's writers at SQLite's lock would answer 503 at once, where
    it used to sleep in the busy handler. The process's own lock still waits up to SQLITE_BUSY_TIMEOUT_MS (15 s)."""
    app = make_app(RATELIMIT_ENABLED=False, **upstreams.settings)
    with app.app_context():
        engine = db.engine
    sa.event.listen(engine, "connect", _no_busy_waiting)
    engine.dispose()  # every connection from here on is made with the listener
    yield app
    with app.app_context():
        db.session.remove()
    engine.dispose()


def _signed_in(app: Flask, email: str) -> FlaskClient:
    client = app.test_client()
    body = {"email": email, "password": PASSWORD}
    assert client.post("/api/auth/sign-in/email", json=body, headers=SITE).status_code == 200
    return client


def _sign_up(client: FlaskClient, name: str) -> int:
    body = {"name": "Bayi", "email": f"{name}.yazici@example.com", "password": PASSWORD}
    return client.post("/api/auth/sign-up/email", json=body, headers=SITE).status_code


def _in(thread: ThreadPoolExecutor, work: Callable[[], Answer]) -> Answer:
    return thread.submit(work).result(timeout=60)


def test_parallel_writers_of_one_process_all_succeed_without_waiting_in_sqlites_busy_handler(
    never_busy_waiting_app, caplog
):
    caplog.set_level(logging.WARNING, logger=LOCK_LOG)
    app = never_busy_waiting_app
    with committed_dealer(app) as dealer:
        clients = [_signed_in(app, dealer.email) for _ in range(WRITERS)]
        first = clients[0].post("/api/vehicles/decode", json={"vin": VIN_GOLF}, headers=SITE)
        assert first.status_code == 200  # stored and cached: the decodes below each write a log row and a history link
        start = Barrier(WRITERS)

        def write(number: int) -> list[int]:
            start.wait()
            decodes = [
                clients[number].post("/api/vehicles/decode", json={"vin": VIN_GOLF}, headers=SITE).status_code
                for _ in range(DECODES_EACH)
            ]
            return [*decodes, _sign_up(app.test_client(), f"paralel{number}")]  # a savepoint inside the write unit

        with ThreadPoolExecutor(max_workers=WRITERS) as pool:
            answers = [status for statuses in pool.map(write, range(WRITERS)) for status in statuses]

        with app.app_context():
            logs = db.session.scalar(
                sa.select(sa.func.count()).select_from(QueryLog).where(QueryLog.user_id == dealer.id)
            )
            users = db.session.scalar(sa.select(sa.func.count()).select_from(User).where(User.email.like(NEW_USERS)))
            db.session.remove()

    assert sorted(answers) == [200] * (WRITERS * DECODES_EACH) + [201] * WRITERS
    assert logs == 1 + WRITERS * DECODES_EACH
    assert users == WRITERS
    assert [record.getMessage() for record in caplog.records if record.name == LOCK_LOG] == []  # none waited it out


def test_a_write_unit_that_fails_lets_the_next_writer_of_another_thread_in_at_once(
    make_app, base_config, cleanup_new_users, caplog, monkeypatch
):
    caplog.set_level(logging.WARNING, logger=LOCK_LOG)
    # A writer that found the process's lock still held would wait out these 0.3 s and log it before going on.
    app = make_app(SQLITE_BUSY_TIMEOUT_MS=300, RATELIMIT_ENABLED=False)
    client = app.test_client()
    # Two threads alive together, so that the second can never pass for the first (thread ids are reused).
    with ThreadPoolExecutor(max_workers=1) as failing, ThreadPoolExecutor(max_workers=1) as next_writer:
        assert _in(failing, lambda: _sign_up(client, "ilk")) == 201
        refused = _in(failing, lambda: _sign_up(client, "ilk"))  # the e-mail is taken: rolled back after its read

        database = sa.make_url(base_config["SQLALCHEMY_DATABASE_URI"]).database
        other_process = sqlite3.connect(database, isolation_level=None)
        other_process.execute("BEGIN IMMEDIATE")
        try:
            busy = _in(failing, lambda: _sign_up(client, "mesgul"))  # its BEGIN IMMEDIATE itself fails
        finally:
            other_process.execute("ROLLBACK")
            other_process.close()

        def broken_draw() -> str:
            raise RuntimeError("the unit breaks while it holds the write lock")

        monkeypatch.setattr(accounts, "generate_referral_code", broken_draw)
        broken = _in(failing, lambda: _sign_up(client, "bozuk"))
        monkeypatch.undo()

        after = _in(next_writer, lambda: _sign_up(app.test_client(), "sonraki"))

    assert (refused, busy, broken, after) == (409, 503, 500, 201)
    assert [record.getMessage() for record in caplog.records if record.name == LOCK_LOG] == []
    with app.app_context():
        emails = set(db.session.scalars(sa.select(User.email).where(User.email.like(NEW_USERS))))
        db.session.remove()
        db.engine.dispose()
    assert emails == {"ilk.yazici@example.com", "sonraki.yazici@example.com"}
