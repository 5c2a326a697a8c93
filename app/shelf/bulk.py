"""Writing a batch of list rows: the items and their numbers, in as few round trips as the database allows.

PostgreSQL takes them by COPY (ids drawn from the items' sequence first, so the numbers can name their items): a
200,000-row list with a million numbers imports in about half the time multi-row INSERTs take. Other databases (the
embedded SQLite) get INSERT ... RETURNING with many rows per statement.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from app.core.copy_in import copy_rows
from app.shelf.models import ShelfItem, ShelfNumber
from app.shelf.rows import Item


@dataclass(frozen=True)
class ListTables:
    """Where a list's rows go: the items' table and the columns an item's values fill, and the numbers' table, whose
    first column names the item (the supplier lists write theirs through the same code, app.suppliers)."""

    items: sa.Table
    item_columns: tuple[str, ...]
    numbers: sa.Table

    @property
    def number_columns(self) -> tuple[str, ...]:
        return (self.numbers.c[0].name, "kind", "key", "import_id")


SHELF_TABLES = ListTables(
    items=ShelfItem.__table__,
    item_columns=(
        "import_id",
        "line",
        "oem_code",
        "own_code",
        "brand",
        "name",
        "price",
        "currency",
        "stock",
        "replaced_by",
    ),
    numbers=ShelfNumber.__table__,
)


def insert_items(
    connection: Connection, import_id: int, batch: Sequence[Item], tables: ListTables = SHELF_TABLES
) -> None:
    """Insert the batch's items and every number they answer to."""
    if not batch:
        return
    items, numbers_table = tables.items, tables.numbers
    rows = [{"import_id": import_id, **item.values} for item in batch]
    if connection.dialect.name == "postgresql":
        ids = _postgres_ids(connection, items.name, len(batch))
        with_ids = ({"id": i, **row} for i, row in zip(ids, rows, strict=True))
        copy_rows(connection, items.name, ("id", *tables.item_columns), with_ids)
    else:
        statement = sa.insert(items).returning(items.c.id, sort_by_parameter_order=True)
        ids = list(connection.execute(statement, rows).scalars())
    item_column = tables.number_columns[0]
    numbers = [
        {item_column: item_id, "kind": kind, "key": key, "import_id": import_id}
        for item_id, item in zip(ids, batch, strict=True)
        for kind, key in item.numbers
    ]
    if not numbers:
        return
    if connection.dialect.name == "postgresql":
        copy_rows(connection, numbers_table.name, tables.number_columns, numbers)
    else:
        connection.execute(sa.insert(numbers_table), numbers)


def _postgres_ids(connection: Connection, table: str, count: int) -> list[int]:
    query = sa.text("SELECT nextval(pg_get_serial_sequence(:table, 'id')) FROM generate_series(1, :count)")
    return list(connection.execute(query, {"table": table, "count": count}).scalars())
