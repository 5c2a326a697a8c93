"""One hot write that is a unit by itself, run on PostgreSQL as its own transaction straight on the driver's cursor.

A cached decode's only database work is one such statement (its log row and history link). Through SQLAlchemy the
statement cost several times the database's own work in the web process: switching a pooled connection's isolation
level to AUTOCOMMIT and back (about 60 µs of CPU and a round trip) and the per-call parameter processing of the
execute path (about 140 µs). Here the Core statement is compiled once per dialect; each call merges its values, runs
the bind processors the compiled statement names and executes the SQL on a pooled connection whose driver is put in
autocommit for the statement (an attribute of psycopg2's connection: no round trip). Driver errors leave as
SQLAlchemy's, a lost connection invalidated, as an ORM execute would. What is given up: engine events do not see the
statement (no `before_cursor_execute`), which nothing in the app listens to on PostgreSQL.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Session


@dataclass(frozen=True)
class _Compiled:
    sql: str
    constants: dict[str, Any]  # the statement's own values (literals given to its functions)
    processors: tuple[tuple[str, Callable[[Any], Any]], ...]


class AutocommitStatement:
    """A Core statement built on first use (`build`), run alone in autocommit on PostgreSQL (`run`)."""

    def __init__(self, build: Callable[[], sa.Executable]) -> None:
        self._build = build
        self._compiled: _Compiled | None = None

    def run(self, session: Session, values: dict[str, Any]) -> bool:
        """Run the statement with `values` as a transaction of its own; False (nothing run) where that cannot be
        had: off PostgreSQL, or when the session joins a transaction it does not own (a test's)."""
        engine = session.get_bind()
        if not isinstance(engine, sa.Engine) or engine.dialect.name != "postgresql":
            return False
        compiled = self._compiled or self._compile(engine.dialect)
        parameters = {**compiled.constants, **values}
        for name, process in compiled.processors:
            parameters[name] = process(parameters[name])
        _execute_alone(engine, compiled.sql, parameters)
        return True

    def _compile(self, dialect: sa.Dialect) -> _Compiled:
        compiled = self._build().compile(dialect=dialect)
        if compiled.escaped_bind_names:
            raise ValueError(f"parameter names the driver cannot take as they are: {compiled.escaped_bind_names}")
        binds = [(name, bind) for bind, name in compiled.bind_names.items()]  # as the SQL names them
        processors = ((name, bind.type.dialect_impl(dialect).bind_processor(dialect)) for name, bind in binds)
        self._compiled = _Compiled(
            sql=compiled.string,
            constants={name: bind.effective_value for name, bind in binds if not bind.required},
            processors=tuple((name, process) for name, process in processors if process is not None),
        )
        return self._compiled


def _execute_alone(engine: sa.Engine, sql: str, parameters: dict[str, Any]) -> None:
    pooled = engine.raw_connection()
    driver = pooled.driver_connection
    try:
        driver.autocommit = True
        try:
            with driver.cursor() as cursor:
                cursor.execute(sql, parameters)
        finally:
            if not driver.closed:
                driver.autocommit = False
    except engine.dialect.loaded_dbapi.Error as error:
        if engine.dialect.is_disconnect(error, driver, None):
            pooled.invalidate(error)
        raise sa.exc.DBAPIError.instance(sql, parameters, error, engine.dialect.loaded_dbapi.Error) from error
    finally:
        pooled.close()
