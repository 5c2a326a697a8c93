"""Database base class, column types and engine tuning shared by every domain."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from flask import Flask, Response
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Session

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


def commit_per_request(app: Flask, db: SQLAlchemy) -> None:
    """One commit per request: services only flush; a response under 400 commits, anything else rolls back."""

    @app.after_request
    def _finish(response: Response) -> Response:
        if response.status_code < 400:
            db.session.commit()
        else:
            db.session.rollback()
        return response


def tune_sqlite(engine: Engine) -> None:
    """Give SQLite real transactions (savepoints), foreign keys and tolerance of a second process writing."""
    if engine.dialect.name != "sqlite":
        return

    @sa.event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection, _record):  # noqa: ANN001
        # pysqlite's own transaction handling breaks SAVEPOINT; SQLAlchemy's documented recipe takes it over.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=10000")
        cursor.execute("PRAGMA journal_mode=WAL")
        # In WAL mode NORMAL is still safe against corruption; only a power cut can lose the last commits.
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()

    @sa.event.listens_for(engine, "begin")
    def _on_begin(conn):  # noqa: ANN001
        conn.exec_driver_sql("BEGIN")


def insert_for(session: Session, table: Any) -> Any:
    """An INSERT with the dialect's ON CONFLICT clauses (`on_conflict_do_nothing`, `on_conflict_do_update`)."""
    dialect = session.get_bind().dialect.name
    return (postgresql.insert if dialect == "postgresql" else sqlite.insert)(table)


def release_database(session: Session) -> None:
    """Commit what the request has read so far, before it waits on something slow (a lock, an upstream)."""
    session.commit()


def begin_writes(session: Session, durable: bool = True) -> None:
    """Prepare the session for a batch of writes; the next statement must be a write, using ids kept as plain values.

    SQLite refuses to turn a read transaction into a write once another connection has committed since it began
    (SQLITE_BUSY_SNAPSHOT, which busy_timeout does not wait out), so the reads are committed first and the writes
    start a transaction of their own, which waits for the lock instead. On PostgreSQL a non-durable batch (log rows,
    history links) need not wait for its WAL flush: a crash can lose its last fraction of a second, never corrupt
    anything (SQLite's synchronous=NORMAL is the same trade).
    """
    if session.get_bind().dialect.name == "sqlite":
        session.commit()
    elif not durable:
        session.execute(sa.text("SET LOCAL synchronous_commit TO OFF"))
