"""A request's SQL, recorded as the app sends it and replayed bare: the baseline of the benchmarks that judge the
app's handling of a request against the database work it does."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import psycopg2
import sqlalchemy as sa

from app.config import POSTGRESQL_OPTIONS
from bench.measure import Result, in_turns, latency, ratios, within_ratio

SQLITE_BUSY_SECONDS = 15
Statements = list[tuple[str | None, object]]  # None: the app ended its transaction there (a commit or rollback)


def statement_count(statements: Statements) -> int:
    """The statements recorded, without the marks of where transactions ended."""
    return sum(1 for statement, _ in statements if statement is not None)


class SqlRecorder:
    """Keeps the statements the app sends to the database, and where its transactions end, while `recording()` is
    open (one request at a time)."""

    def __init__(self, engine: sa.Engine) -> None:
        self.statements: Statements | None = None
        sa.event.listen(engine, "before_cursor_execute", self._seen)
        sa.event.listen(engine, "commit", self._ended)
        sa.event.listen(engine, "rollback", self._ended)

    def _ended(self, _connection) -> None:
        if self.statements is not None:
            self.statements.append((None, None))

    def _seen(self, _connection, _cursor, statement, parameters, _context, _executemany) -> None:
        if self.statements is not None:
            self.statements.append((statement, parameters))

    @contextmanager
    def recording(self) -> Iterator[Statements]:
        self.statements = []
        try:
            yield self.statements
        finally:
            self.statements = None


class BareSql:
    """The recorded statements again, through the database's driver alone (psycopg2, or sqlite3 on a SQLite file):
    each executed and its rows fetched, in one transaction that ends as the app's do."""

    def __init__(self, database_url: str) -> None:
        url = sa.make_url(database_url)
        if url.get_backend_name() == "sqlite":
            # The app's SQLite connections leave transactions to the statements (its BEGIN / BEGIN IMMEDIATE), wait
            # for another writer and sync as the app's do (`app.core.db.tune_sqlite`).
            self.connection = sqlite3.connect(
                url.database or ":memory:", isolation_level=None, timeout=SQLITE_BUSY_SECONDS, check_same_thread=False
            )
            self.connection.execute("PRAGMA synchronous=NORMAL")
        else:
            self.connection = psycopg2.connect(
                host=url.host,
                port=url.port or 5432,
                user=url.username,
                password=url.password,
                dbname=url.database,
                options=POSTGRESQL_OPTIONS,  # the app's connections' settings
            )

    def run(self, statements: Statements) -> None:
        cursor = self.connection.cursor()
        try:
            for statement, parameters in statements:
                if statement is None:
                    self._end()
                    continue
                cursor.execute(statement, parameters)
                if cursor.description is not None:
                    cursor.fetchall()
        finally:
            cursor.close()
        self._end()

    def _end(self) -> None:
        if not isinstance(self.connection, sqlite3.Connection) or self.connection.in_transaction:
            self.connection.commit()

    def close(self) -> None:
        self.connection.close()


def against_bare(
    name: str,
    call: Callable[[], object],
    statements: Statements,
    bare: BareSql,
    rounds: int,
    target: float,
    details: list[str] | None = None,
    floor: tuple[str, Callable[[], object]] | None = None,
) -> Result:
    """The app's handling of a request (`call`) timed in turns with its recorded statements replayed bare, so both see
    the same moments of a shared machine, each going first every other round (the first reads the rows colder);
    passed when the ratio is within `target` at p50 and at p95. A `floor` (what it is, and its call) is timed in the
    same turns and printed against the bare SQL and against the app, for reading."""
    contenders = {"app": lambda _: call(), "bare": bare.run}
    if floor is not None:
        contenders["floor"] = lambda _: floor[1]()
    times = in_turns([statements], contenders, rounds)
    return within_ratio(
        name,
        ("app (in process)", times["app"]),
        ("bare SQL", times["bare"]),
        target,
        [f"{statement_count(statements)} statements; {rounds} rounds", *_floor_lines(floor, times), *(details or [])],
    )


def _floor_lines(floor: tuple[str, Callable[[], object]] | None, times: dict[str, list[float]]) -> list[str]:
    if floor is None:
        return []
    at_least, added = ratios(times["floor"], times["bare"]), ratios(times["app"], times["floor"])
    return [
        f"floor     {latency(times['floor'])}  ({floor[0]})",
        f"floor/bare SQL p50 {at_least[0]:.2f}  p95 {at_least[1]:.2f} (the least any implementation reaches); "
        f"app/floor p50 {added[0]:.2f}  p95 {added[1]:.2f}",
    ]


def timed(call: Callable[[], object]) -> float:
    began = time.perf_counter()
    call()
    return time.perf_counter() - began
