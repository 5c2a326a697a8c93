"""One row of the dealer's file, through the chosen mapping, as a list item and the numbers it answers to, or the
reason it cannot be imported (the import lists it by line and goes on)."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from flask_babel import lazy_gettext as _l

from app.core.text import fold_code
from app.shelf.cells import currency_of, parse_number, split_numbers

MAX_PRICE = Decimal(100_000_000)
MAX_STOCK = 10_000_000
CODE_LENGTH = 60
BRAND_LENGTH = 80
NAME_LENGTH = 300
CENT = Decimal("0.01")

# Row error codes and their Turkish reasons (stored as codes, so the list reads in the dealer's language).
ROW_ERRORS = {
    "no_number": _l("No OEM number or own code."),
    "bad_price": _l("The price could not be read."),
    "negative_price": _l("The price is negative."),
    "absurd_price": _l("The price is too high (at most 100,000,000)."),
    "bad_stock": _l("The stock could not be read (a whole number)."),
    "negative_stock": _l("The stock is negative."),
    "absurd_stock": _l("The stock is too high (at most 10,000,000)."),
    "bad_currency": _l("The currency could not be read (TL, EUR, USD...)."),
    "too_long": _l("A number, brand or name is too long."),
}


class RowError(ValueError):
    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


@dataclass
class Item:
    """A row ready to insert: the item's columns and its numbers as (kind, key), each once."""

    values: dict[str, Any]
    numbers: list[tuple[str, str]] = field(default_factory=list)


def row_reason(code: str) -> str:
    return str(ROW_ERRORS.get(code, code))


def cell_of(row: list[str], column: int | None) -> str:
    return row[column].strip() if column is not None and column < len(row) else ""


def limited(text: str, length: int) -> str | None:
    if len(text) > length:
        raise RowError("too_long")
    return text or None


def price_of(text: str) -> Decimal | None:
    try:
        price = parse_number(text)
    except (ValueError, ArithmeticError):
        raise RowError("bad_price") from None
    if price is None:
        return None
    if price < 0:
        raise RowError("negative_price")
    if price > MAX_PRICE:
        raise RowError("absurd_price")
    return price.quantize(CENT, rounding=ROUND_HALF_UP)


def stock_of(text: str) -> int | None:
    try:
        stock = parse_number(text)
    except (ValueError, ArithmeticError):
        raise RowError("bad_stock") from None
    if stock is None:
        return None
    if stock != stock.to_integral_value():
        raise RowError("bad_stock")
    if stock < 0:
        raise RowError("negative_stock")
    if stock > MAX_STOCK:
        raise RowError("absurd_stock")
    return int(stock)


def currency_for(text: str, price_text: str) -> str:
    if text:
        code = currency_of(text)
        if code is None:
            raise RowError("bad_currency")
        return code
    return (currency_of(price_text) if price_text else None) or "TRY"


def item_from_row(row: list[str], mapping: dict[str, Any], line: int) -> Item | None:
    """The item a row holds (None for a blank row); RowError with the reason when it cannot be imported."""
    if not any(row):
        return None
    oem = limited(cell_of(row, mapping.get("oem")), CODE_LENGTH)
    own = limited(cell_of(row, mapping.get("own_code")), CODE_LENGTH)
    if not (oem and fold_code(oem)) and not (own and fold_code(own)):
        raise RowError("no_number")
    price_text = cell_of(row, mapping.get("price"))
    replaced_by = limited(cell_of(row, mapping.get("replaced_by")), CODE_LENGTH)
    item = Item(
        values={
            "line": line,
            "oem_code": oem,
            "own_code": own,
            "brand": limited(cell_of(row, mapping.get("brand")), BRAND_LENGTH),
            "name": limited(cell_of(row, mapping.get("name")), NAME_LENGTH),
            "price": price_of(price_text),
            "currency": currency_for(cell_of(row, mapping.get("currency")), price_text),
            "stock": stock_of(cell_of(row, mapping.get("stock"))),
            "replaced_by": replaced_by,
        }
    )
    aftermarket = [
        number for column in mapping.get("aftermarket") or () for number in split_numbers(cell_of(row, column))
    ]
    numbers = [("oem", oem), ("own", own), ("successor", replaced_by), *(("aftermarket", n) for n in aftermarket)]
    seen: set[tuple[str, str]] = set()
    for kind, number in numbers:
        key = fold_code(number) if number else ""
        if len(key) > CODE_LENGTH:
            raise RowError("too_long")
        if key and (kind, key) not in seen:
            seen.add((kind, key))
            item.numbers.append((kind, key))
    return item
