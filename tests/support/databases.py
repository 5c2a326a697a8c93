"""An empty database of its own for a migration test: a SQLite file, or on PostgreSQL a database created beside the
test database (named after it and `suffix`) and dropped afterwards."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import sqlalchemy as sa

from app.config import normalize_database_url


@contextmanager
def empty_database(tmp_path: Path, suffix: str) -> Iterator[str]:
    """The URL of a new, empty database, gone when the block ends."""
    configured = os.environ.get("TEST_DATABASE_URL")
    if not configured:
        yield f"sqlite:///{tmp_path / f'{suffix}.sqlite3'}"
        return
    base = sa.engine.make_url(normalize_database_url(configured))
    name = f"{base.database}_{suffix}"
    admin = sa.create_engine(base.set(database="postgres"), isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}"')
        connection.exec_driver_sql(f'CREATE DATABASE "{name}"')
    try:
        yield base.set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.dispose()
