"""One SQLite writer at a time among the threads of a process, queued in the process rather than in SQLite.

SQLite lets one connection write at a time. A connection that asks for the write lock while another holds it sleeps
in SQLite's busy handler (1, 2, 5, 10, ... up to 100 ms between tries), whatever happens meanwhile: eight threads of
one process writing at once waited mostly on those sleeps, not on each other's writes. The threads of a process now
queue on a lock of the engine's own, taken just before `BEGIN IMMEDIATE` and let go the moment that transaction has
ended, so the next writer starts as soon as the lock is free. Other processes (gunicorn's other workers, the RQ
worker) still meet at SQLite's lock and its busy handler.
"""

from __future__ import annotations

import logging
import sqlite3
import threading

import sqlalchemy as sa
from sqlalchemy.engine import Engine

log = logging.getLogger(__name__)


class ProcessWriteLock:
    """The engine's write lock, held by one DBAPI connection from its `BEGIN IMMEDIATE` until its transaction ends."""

    def __init__(self, timeout_seconds: float) -> None:
        self._timeout = timeout_seconds
        # Not an RLock: the thread that ends a transaction (a pool reset, a collector) may not be the one that began it.
        self._lock = threading.Lock()
        self._guard = threading.Lock()  # makes "is it this connection's? then let go" one step
        self._holder: sqlite3.Connection | None = None
        self._holder_thread: int | None = None

    def take(self, connection: sqlite3.Connection) -> None:
        """Wait for the lock before `connection` begins a write transaction; after the timeout, go on without it
        (SQLite's own busy handling then decides, as without this lock)."""
        if self._holder_thread == threading.get_ident():
            return  # this thread holds it (through another connection): waiting here would wait for itself
        if not self._lock.acquire(timeout=self._timeout):
            log.warning(
                "waited %.1f s for the process's SQLite write lock; left to SQLite's busy handler", self._timeout
            )
            return
        with self._guard:
            self._holder, self._holder_thread = connection, threading.get_ident()

    def let_go(self, connection: sqlite3.Connection) -> None:
        """`connection`'s transaction has ended (or never began): the next writer may go; nothing if it holds none."""
        with self._guard:
            if self._holder is not connection:
                return
            self._holder = self._holder_thread = None
            self._lock.release()


class WriteLockConnection(sqlite3.Connection):
    """A pysqlite connection that lets go of its engine's write lock once its transaction has ended.

    Not in SQLAlchemy's `commit` and `rollback` events: they run before the COMMIT, so the next writer could still
    find SQLite's lock taken and sleep in the busy handler. Every way a transaction ends reaches one of these methods:
    SQLAlchemy's commit and rollback, the pool's rollback when a connection is returned or its checkout is garbage
    collected, and the close of an invalidated, recycled or disposed connection. Each lets go even when it fails (the
    next writer then meets SQLite's busy handler, as it would without this lock); a second let-go does nothing.
    """

    write_lock: ProcessWriteLock | None = None

    def commit(self) -> None:
        try:
            super().commit()
        finally:
            self._let_go()

    def rollback(self) -> None:
        try:
            super().rollback()
        finally:
            self._let_go()

    def close(self) -> None:
        try:
            super().close()
        finally:
            self._let_go()

    def _let_go(self) -> None:
        if self.write_lock is not None:
            self.write_lock.let_go(self)


def install_write_lock(engine: Engine, timeout_seconds: float) -> None:
    """Give the SQLite engine's connections one `ProcessWriteLock`, which `begin_immediate` takes."""
    write_lock = ProcessWriteLock(timeout_seconds)

    @sa.event.listens_for(engine, "do_connect")
    def _lock_aware_connections(_dialect, _record, _cargs, cparams):
        cparams.setdefault("factory", WriteLockConnection)

    @sa.event.listens_for(engine, "connect")
    def _share_the_lock(dbapi_connection, _record):
        if isinstance(dbapi_connection, WriteLockConnection):
            dbapi_connection.write_lock = write_lock


def begin_immediate(connection: sa.Connection) -> None:
    """Begin a transaction that holds SQLite's write lock (`BEGIN IMMEDIATE`), after the process's other writers."""
    dbapi_connection = connection.connection.dbapi_connection
    write_lock = getattr(dbapi_connection, "write_lock", None)
    if write_lock is None:  # not one of `install_write_lock`'s connections: SQLite's busy handler alone
        connection.exec_driver_sql("BEGIN IMMEDIATE")
        return
    write_lock.take(dbapi_connection)
    try:
        connection.exec_driver_sql("BEGIN IMMEDIATE")
    except BaseException:
        write_lock.let_go(dbapi_connection)  # nothing began: the next writer goes now, not at this one's rollback
        raise
