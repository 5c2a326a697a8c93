"""One line of a supplier's list, through the chosen mapping, as a line ready to insert and the numbers it answers
to (its own code, its OEM column, the numbers in its OE text, a valid EAN), or the reason it cannot be imported. The
cells are read by the stock list's rules (app.shelf.rows): the same prices, currencies, lengths and refusals."""

from __future__ import annotations

from typing import Any

from app.core.text import fold, fold_code
from app.shelf.rows import (
    BRAND_LENGTH,
    CODE_LENGTH,
    NAME_LENGTH,
    Item,
    RowError,
    cell_of,
    currency_for,
    limited,
    price_of,
    stock_of,
)
from app.suppliers.matching import oe_numbers, valid_gtin

FIELDS = ("own_code", "oem", "oe", "ean", "brand", "name", "price", "currency", "stock")
OE_LENGTH = 1000
STOCK_TEXT_LENGTH = 40
# Stock as distributors write it in words: there is some (no count), there is none.
IN_STOCK_WORDS = ("var", "mevcut", "stokta", "evet", "yes", "in stock", "available", "+")
NO_STOCK_WORDS = ("yok", "hayir", "no", "out of stock", "tukendi", "-")
TABLE_COLUMNS = (
    "import_id",
    "line",
    "own_code",
    "brand",
    "name",
    "price",
    "currency",
    "stock",
    "stock_text",
    "ean",
    "oem_code",
    "oe_text",
)


def _stock(text: str) -> tuple[int | None, str | None]:
    """A count, or the words as written ("Var", "Yok", "10+") with a count when the words say none."""
    try:
        return stock_of(text), None
    except RowError:
        folded = " ".join(fold(text).split())
        if folded in NO_STOCK_WORDS:
            return 0, text[:STOCK_TEXT_LENGTH]
        if folded in IN_STOCK_WORDS or any(char.isdigit() for char in folded):
            return None, text[:STOCK_TEXT_LENGTH]
        raise


def _numbers(own: str | None, oem: str | None, oe_text: str | None, ean: str | None) -> list[tuple[str, str]]:
    found = [("own", fold_code(own or "")), ("oem", fold_code(oem or ""))]
    found += [("oe", number.key) for number in oe_numbers(oe_text or "")]
    found += [("ean", ean or "")]
    numbers: dict[tuple[str, str], None] = {}
    for kind, key in found:
        if len(key) > CODE_LENGTH:
            raise RowError("too_long")
        if key:
            numbers.setdefault((kind, key))
    return list(numbers)


def line_from_row(mapping: dict[str, Any], row: list[str], line: int) -> Item | None:
    """The line a row holds (None for a blank row); RowError with the reason when it cannot be imported."""
    if not any(row):
        return None
    own = limited(cell_of(row, mapping.get("own_code")), CODE_LENGTH)
    oem = limited(cell_of(row, mapping.get("oem")), CODE_LENGTH)
    if not (own and fold_code(own)) and not (oem and fold_code(oem)):
        raise RowError("no_number")
    oe_text = limited(cell_of(row, mapping.get("oe")), OE_LENGTH)
    ean = valid_gtin(cell_of(row, mapping.get("ean")) or None)
    price_text = cell_of(row, mapping.get("price"))
    stock, stock_text = _stock(cell_of(row, mapping.get("stock")))
    values = {
        "line": line,
        "own_code": own,
        "brand": limited(cell_of(row, mapping.get("brand")), BRAND_LENGTH),
        "name": limited(cell_of(row, mapping.get("name")), NAME_LENGTH),
        "price": price_of(price_text),
        "currency": currency_for(cell_of(row, mapping.get("currency")), price_text),
        "stock": stock,
        "stock_text": stock_text,
        "ean": ean,
        "oem_code": oem,
        "oe_text": oe_text,
    }
    return Item(values=values, numbers=_numbers(own, oem, oe_text, ean))
