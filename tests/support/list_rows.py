"""A row of a finished import's list (the shelf's or a supplier's) written straight into its tables, as the import
leaves it: the row and every number it answers to by its search key."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from app.core.text import fold_code
from app.extensions import db


@dataclass(frozen=True)
class ListTables:
    """Where a list's rows go: the row's model and its number's, whose column `owner` holds the row's id. `numbers`: a
    row's field holding a number and the kind of number it gives; `lists`: the same for a field holding a list of
    numbers; `extra`: the row's columns beyond the common ones, each read from the row's field of that name."""

    row: type
    number: type
    owner: str
    numbers: dict[str, str]
    lists: dict[str, str]
    extra: tuple[str, ...] = ()


def add_row(tables: ListTables, import_id: int, line: int, row: dict[str, Any]) -> Any:
    """Write `row` as line `line` of the import, with its numbers (a number whose key is empty is not written); the
    row (flushed). A row: oem, own, brand, name, price (text or number), currency, stock, and the tables' fields."""
    item = tables.row(
        import_id=import_id,
        line=line,
        oem_code=row.get("oem"),
        own_code=row.get("own"),
        brand=row.get("brand"),
        name=row.get("name"),
        price=Decimal(str(row["price"])) if row.get("price") is not None else None,
        currency=row.get("currency", "TRY"),
        stock=row.get("stock"),
        **{column: row.get(column) for column in tables.extra},
    )
    db.session.add(item)
    db.session.flush()
    keys = {(kind, fold_code(row[field])) for field, kind in tables.numbers.items() if row.get(field)}
    keys |= {(kind, fold_code(number)) for field, kind in tables.lists.items() for number in row.get(field, [])}
    db.session.add_all(
        tables.number(**{tables.owner: item.id}, kind=kind, key=key, import_id=import_id) for kind, key in keys if key
    )
    return item
