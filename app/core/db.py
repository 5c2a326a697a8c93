"""Database base class, column types and engine tuning shared by every domain."""

from __future__ import annotations

import logging
from collections.abc import Callable
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any, TypeVar

import sqlalchemy as sa
from flask import Flask, Response, current_app, g, message_flashed, request
from flask_babel import gettext as _
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Session, scoped_session

from app.core.errors import error_response
from app.core.htmx import REFUSED_HEADER
from app.core.sqlite_write_lock import begin_immediate, install_write_lock

log = logging.getLogger(__name__)

# Stable constraint names, so Alembic revisions can drop what they created on both SQLite and PostgreSQL.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = sa.MetaData(naming_convention=NAMING_CONVENTION)


def utcnow() -> datetime:
    return datetime.now(UTC)


class UTCDateTime(sa.types.TypeDecorator):
    """A timezone-aware UTC datetime on every backend (SQLite keeps no offset, so it is restored on read)."""

    impl = sa.DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: sa.Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetimes are ambiguous; pass an aware UTC datetime")
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: sa.Dialect) -> datetime | None:
        if value is not None and value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value


# JSONB on PostgreSQL (indexable, compact); JSON text elsewhere.
JsonDocument = sa.JSON().with_variant(JSONB(), "postgresql")

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})

# Whether this thread's next SQLite transaction takes the write lock when it begins (BEGIN IMMEDIATE). A deferred
# transaction that has read cannot wait for the lock once another connection has committed (SQLITE_BUSY_SNAPSHOT
# fails at once, busy_timeout does not help), so every unit that may write takes the lock up front and waits for it.
_write_lock_up_front: ContextVar[bool] = ContextVar("write_lock_up_front", default=False)
# Whether the current deferred unit has read: a write after a read there is the pattern that fails (see above).
_unit_has_read: ContextVar[bool] = ContextVar("unit_has_read", default=False)
# Whether this thread's open SQLite transaction began with the write lock (then a batch of writes needs no new one).
_holding_write_lock: ContextVar[bool] = ContextVar("holding_write_lock", default=False)
# Whether this thread is serving a request (between before_request and teardown).
_serving: ContextVar[bool] = ContextVar("serving", default=False)

View = TypeVar("View", bound=Callable[..., Any])


def writes_data(view: View) -> View:
    """Mark a GET view that writes (a link followed from an e-mail, an OAuth callback): it takes the write lock."""
    view.writes_data = True  # type: ignore[attr-defined]
    return view


def reads_first(view: View) -> View:
    """Mark a view that may write whose every write starts with `begin_writes` (the VIN decode): its transaction
    begins without SQLite's write lock, so its reads hold nothing, and the lock is held for its batch of writes only.
    Concurrent requests then wait on the lock for a batch of writes, not for each other's whole request."""
    view.reads_first = True  # type: ignore[attr-defined]
    return view


def _may_write(view: Callable | None) -> bool:
    if request.method in SAFE_METHODS:
        return getattr(view, "writes_data", False)
    return not getattr(view, "reads_first", False)


def take_write_lock_up_front(enabled: bool = True) -> None:
    """Decide how this thread's next SQLite transactions begin (no effect on PostgreSQL)."""
    _write_lock_up_front.set(enabled)
    _unit_has_read.set(False)


# PostgreSQL's lock_not_available, serialization_failure and deadlock_detected.
POSTGRES_LOCK_CODES = frozenset({"55P03", "40001", "40P01"})
BUSY_RETRY_AFTER_SECONDS = 2


def is_lock_timeout(exc: sa.exc.OperationalError) -> bool:
    """Whether the database gave up waiting for a lock (the unit can simply be tried again), not a real fault."""
    if getattr(exc.orig, "pgcode", None) in POSTGRES_LOCK_CODES:
        return True
    return "database is locked" in str(exc.orig)


def busy_response() -> Response:
    """503 with Retry-After: the write waited out its lock timeout; nothing of it was kept."""
    log.warning("a write gave up waiting for the database lock; answered 503")
    response = error_response(
        "database_busy", _("The system is busy right now. Please try again in a few seconds."), 503
    )
    response.headers["Retry-After"] = str(BUSY_RETRY_AFTER_SECONDS)
    return response


class DeferredWriteError(RuntimeError):
    """A write after a read in a deferred SQLite transaction: it fails under a second writer (raised in tests)."""


def mark_refusal() -> None:
    """This request's answer reports a refusal though its status is under 400 (a redirect to a page that explains
    it): nothing the request wrote is kept. A status of 400 or more, or an error flashed, says so by itself."""
    g.answer_is_refusal = True


def _error_flashed(_app: Flask, message: str, category: str, **_extra: Any) -> None:
    if category == "error":
        mark_refusal()


def commit_per_request(app: Flask, db: SQLAlchemy) -> None:
    """One commit per request: services only flush; an answer that reports a refusal (a status of 400 or more, an
    error flashed, `mark_refusal`, the X-Refused header of `core.htmx.swappable`) rolls back, any other commits.

    A request that may write (any method but GET/HEAD/OPTIONS unless its view is marked `reads_first`, or a view
    marked `writes_data`) takes SQLite's write lock when its transaction begins; reads alone never do.
    """

    @app.before_request
    def _choose_lock_mode() -> None:
        view = app.view_functions.get(request.endpoint) if request.endpoint else None
        take_write_lock_up_front(_may_write(view))
        _serving.set(True)

    message_flashed.connect(_error_flashed, app)

    @app.after_request
    def _finish(response: Response) -> Response:
        if not _holds_work(db.session()):
            return response  # nothing read or written: a commit would have nothing to send
        if _reports_refusal(response):
            db.session.rollback()
            return response
        try:
            db.session.commit()
        except sa.exc.OperationalError as exc:
            if not is_lock_timeout(exc):
                raise
            db.session.rollback()
            return busy_response()
        return response

    @app.errorhandler(sa.exc.OperationalError)
    def _operational_error(exc: sa.exc.OperationalError) -> Response:
        db.session.rollback()
        if is_lock_timeout(exc):
            return busy_response()
        raise exc  # the generic handler logs it and answers 500

    @app.teardown_request
    def _reset_lock_mode(_exc: BaseException | None) -> None:
        take_write_lock_up_front(False)
        _serving.set(False)


def _reports_refusal(response: Response) -> bool:
    """A status of 400 or more, `mark_refusal`, an error flashed, or a refusal answered to HTMX with 200
    (`core.htmx.swappable`'s X-Refused)."""
    return response.status_code >= 400 or bool(g.get("answer_is_refusal")) or REFUSED_HEADER in response.headers


def tune_sqlite(engine: Engine, busy_timeout_ms: int) -> None:
    """Give SQLite real transactions (savepoints), foreign keys and tolerance of a second process writing; the
    process's own writers queue on a lock of the engine's (`sqlite_write_lock`), not in SQLite's busy handler."""
    if engine.dialect.name != "sqlite":
        return
    install_write_lock(engine, busy_timeout_ms / 1000)

    @sa.event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection, _record):
        # pysqlite's own transaction handling breaks SAVEPOINT; SQLAlchemy's documented recipe takes it over.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
        cursor.execute("PRAGMA journal_mode=WAL")
        # In WAL mode NORMAL is still safe against corruption; only a power cut can lose the last commits.
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()

    @sa.event.listens_for(engine, "begin")
    def _on_begin(conn):
        _unit_has_read.set(False)
        _holding_write_lock.set(_write_lock_up_front.get())
        if _write_lock_up_front.get():
            begin_immediate(conn)
        else:
            conn.exec_driver_sql("BEGIN")

    @sa.event.listens_for(engine, "before_cursor_execute")
    def _audit(_conn, _cursor, statement, _parameters, _context, _executemany):
        if _write_lock_up_front.get() or not _serving.get():
            return  # jobs retry a failed unit as a whole; CLI commands and migrations run alone
        verb = statement.lstrip()[:7].upper()
        if verb.startswith(("SELECT", "WITH")):
            _unit_has_read.set(True)
        elif verb.startswith(WRITE_VERBS) and _unit_has_read.get():
            _report_deferred_write(statement)


WRITE_VERBS = ("INSERT", "UPDATE", "DELETE", "REPLACE")


def _report_deferred_write(statement: str) -> None:
    message = "write after a read in a deferred SQLite transaction (use begin_writes or writes_data): %s"
    if current_app.config.get("TESTING"):
        raise DeferredWriteError(message % statement[:200])
    log.warning(message, statement[:200])


def _holds_work(session: Session) -> bool:
    """Whether the session's transaction reached the database or holds changes. A session has a transaction from its
    first add on (the signed-in user is added to every request's session without SQL): that alone needs no commit."""
    if not session.in_transaction():
        return False
    return bool(session.info.get(ON_CONNECTION)) or has_unflushed_changes(session)


def has_unflushed_changes(session: Session) -> bool:
    """Whether the session holds added, changed or deleted objects not yet flushed."""
    return bool(session.new or session.dirty or session.deleted)


ON_CONNECTION = "transaction_on_connection"  # Session.info: the transaction has begun on a connection


def _began_on_connection(session: Session, _transaction: Any, _connection: sa.Connection) -> None:
    session.info[ON_CONNECTION] = True


def _transaction_ended(session: Session, transaction: Any) -> None:
    if transaction.parent is None:
        session.info.pop(ON_CONNECTION, None)


sa.event.listen(Session, "after_begin", _began_on_connection)
sa.event.listen(Session, "after_transaction_end", _transaction_ended)


def _unit_ended(_session: Session) -> None:
    _unit_has_read.set(False)
    _holding_write_lock.set(False)


sa.event.listen(Session, "after_commit", _unit_ended)
sa.event.listen(Session, "after_rollback", _unit_ended)


def insert_for(session: Session, table: Any) -> Any:
    """An INSERT with the dialect's ON CONFLICT clauses (`on_conflict_do_nothing`, `on_conflict_do_update`)."""
    dialect = session.get_bind().dialect.name
    return (postgresql.insert if dialect == "postgresql" else sqlite.insert)(table)


def release_database(session: Session) -> None:
    """Commit what the request has read so far, before it waits on something slow (a lock, an upstream).

    Until `begin_writes`, the reads that follow do not take SQLite's write lock, so the wait holds nothing.
    """
    session.commit()
    take_write_lock_up_front(False)


def _in_transaction(session: Session | scoped_session) -> bool:
    return (session() if isinstance(session, scoped_session) else session).in_transaction()


def begin_writes(session: Session, durable: bool = True) -> None:
    """Prepare the session for a batch of writes, using ids kept as plain values.

    On SQLite the reads so far are committed and the writes start a transaction that takes the write lock up front
    (BEGIN IMMEDIATE), waiting for it through busy_timeout instead of failing a read snapshot; a transaction that
    began with the lock (a writing request's) just goes on. On PostgreSQL a
    non-durable batch (log rows, history links) need not wait for its WAL flush: a crash can lose its last fraction
    of a second, never corrupt anything (SQLite's synchronous=NORMAL is the same trade).
    """
    if session.get_bind().dialect.name == "sqlite":
        if _holding_write_lock.get() and _in_transaction(session):
            return
        session.commit()
        take_write_lock_up_front(True)
    elif not durable:
        session.execute(sa.text("SET LOCAL synchronous_commit TO OFF"))
