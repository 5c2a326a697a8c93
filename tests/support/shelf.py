"""A dealer's list in use written straight into its tables, as a finished import leaves it (the import job has its
own tests): the rows, every number each answers to by its search key, and the list marked in use."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from app.extensions import db
from app.shelf.models import ShelfActive, ShelfImport, ShelfItem, ShelfNumber
from tests.support.list_rows import ListTables, add_row

# A row's fields and the kind of number each gives; aftermarket is a list of numbers.
NUMBER_FIELDS = {"oem": "oem", "own": "own", "replaced_by": "successor"}
TABLES = ListTables(ShelfItem, ShelfNumber, "item_id", NUMBER_FIELDS, {"aftermarket": "aftermarket"}, ("replaced_by",))


def shelf_list(user, rows: list[dict[str, Any]], filename: str = "stok.csv", branch_id: int | None = None) -> int:
    """Make `rows` the list in use of the user's branch (or of `branch_id`, a branch of his shop), replacing any before
    it; its import id. A row: oem, own, brand, name, price (text or number), currency, stock, aftermarket (a list),
    replaced_by."""
    count = len(rows)
    branch_id = branch_id if branch_id is not None else user.branch_id
    imported = ShelfImport(
        shop_id=user.shop_id,
        branch_id=branch_id,
        user_id=user.id,
        filename=filename,
        file_kind="csv",
        status="done",
        rows_total=count,
        rows_imported=count,
    )
    db.session.add(imported)
    db.session.flush()
    for line, row in enumerate(rows, start=2):
        add_row(TABLES, imported.id, line, row)
    db.session.execute(sa.delete(ShelfActive).where(ShelfActive.branch_id == branch_id))
    db.session.add(ShelfActive(branch_id=branch_id, shop_id=user.shop_id, import_id=imported.id))
    db.session.commit()
    return imported.id
