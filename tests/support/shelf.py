"""A dealer's list in use written straight into its tables, as a finished import leaves it (the import job has its
own tests): the rows, every number each answers to by its search key, and the list marked in use."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import sqlalchemy as sa

from app.core.text import fold_code
from app.extensions import db
from app.shelf.models import ShelfActive, ShelfImport, ShelfItem, ShelfNumber

# A row's fields and the kind of number each gives; aftermarket is a list of numbers.
NUMBER_FIELDS = {"oem": "oem", "own": "own", "replaced_by": "successor"}


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
        item = ShelfItem(
            import_id=imported.id,
            line=line,
            oem_code=row.get("oem"),
            own_code=row.get("own"),
            brand=row.get("brand"),
            name=row.get("name"),
            price=Decimal(str(row["price"])) if row.get("price") is not None else None,
            currency=row.get("currency", "TRY"),
            stock=row.get("stock"),
            replaced_by=row.get("replaced_by"),
        )
        db.session.add(item)
        db.session.flush()
        numbers = {(kind, fold_code(row[field])) for field, kind in NUMBER_FIELDS.items() if row.get(field)}
        numbers |= {("aftermarket", fold_code(number)) for number in row.get("aftermarket", [])}
        db.session.add_all(
            ShelfNumber(item_id=item.id, kind=kind, key=key, import_id=imported.id) for kind, key in numbers if key
        )
    db.session.execute(sa.delete(ShelfActive).where(ShelfActive.branch_id == branch_id))
    db.session.add(ShelfActive(branch_id=branch_id, shop_id=user.shop_id, import_id=imported.id))
    db.session.commit()
    return imported.id
