"""PostgreSQL's COPY for bulk writes: rows in text format through the session's own connection, so inside its
transaction (a list's items and numbers, the links a list makes). About half the time of multi-row INSERTs."""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence
from operator import itemgetter
from typing import Any

from sqlalchemy.engine import Connection

_COPY_ESCAPES = str.maketrans({"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"})


def copy_rows(connection: Connection, table: str, columns: Sequence[str], rows: Iterable[dict[str, Any]]) -> None:
    """COPY the rows' `columns` into `table` (a name the code chose, never input)."""
    buffer = io.StringIO()
    values = itemgetter(*columns) if len(columns) > 1 else lambda row: (row[columns[0]],)
    for row in rows:
        buffer.write("\t".join(map(_copy_value, values(row))) + "\n")
    buffer.seek(0)
    with connection.connection.dbapi_connection.cursor() as cursor:
        cursor.copy_expert(f"COPY {table} ({', '.join(columns)}) FROM STDIN", buffer)


def _copy_value(value: Any) -> str:
    if value is None:
        return "\\N"
    text = value if type(value) is str else str(value)
    if "\\" in text or "\t" in text or "\n" in text or "\r" in text:
        return text.translate(_COPY_ESCAPES)
    return text  # most values need no escape: translating each costs more than looking
