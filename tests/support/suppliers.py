"""A shop's supplier with its list in use written straight into its tables, as a finished import leaves it (the
import job has its own tests): the lines, each number a line answers to by its search key, and the list marked in use;
and a day's TCMB rates."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

from app.extensions import db
from app.suppliers.currency.models import CurrencyRate
from app.suppliers.models import Supplier, SupplierActive, SupplierImport, SupplierLine, SupplierNumber
from tests.support.list_rows import ListTables, add_row

# A line's fields and the kind of number each gives; oe is a list of numbers.
NUMBER_FIELDS = {"own": "own", "oem": "oem", "ean": "ean"}
TABLES = ListTables(SupplierLine, SupplierNumber, "line_id", NUMBER_FIELDS, {"oe": "oe"}, ("stock_text",))


def supplier_list(user, name: str, lines: list[dict[str, Any]], **terms: Any) -> tuple[int, dict[str, int]]:
    """A supplier of the user's shop (`terms`: Supplier's columns) whose list in use holds `lines` (own, oem, ean, oe:
    a list of numbers, brand, name, price, currency, stock, stock_text); its id and each line's id by its own code."""
    supplier = Supplier(shop_id=user.shop_id, user_id=user.id, name=name, **terms)
    db.session.add(supplier)
    db.session.flush()
    imported = SupplierImport(
        shop_id=user.shop_id, supplier_id=supplier.id, filename="liste.csv", file_kind="csv", status="done"
    )
    db.session.add(imported)
    db.session.flush()
    ids = {}
    for number, row in enumerate(lines, start=2):
        line = add_row(TABLES, imported.id, number, row)
        ids[row.get("own") or str(line.id)] = line.id
    db.session.add(SupplierActive(supplier_id=supplier.id, shop_id=user.shop_id, import_id=imported.id))
    db.session.commit()
    return supplier.id, ids


def rate(currency: str, try_per_unit: str, on: date) -> None:
    db.session.add(CurrencyRate(currency=currency, rate_date=on, try_per_unit=Decimal(try_per_unit)))
    db.session.commit()
