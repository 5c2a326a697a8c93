"""The values in a list's cells as Turkish and English stock programs write them: prices and stock ("1.250,50",
"1,250.50", "₺ 1.250,50", "3,00"), currencies ("TL", "€", "Avro") and several part numbers in one cell."""

from __future__ import annotations

import re
from decimal import Decimal

from app.core.text import fold, fold_code

_MONEY_MARKS = re.compile(r"(₺|\bTL\b|\bTRY\b|\bYTL\b|€|\bEUR\b|\$|\bUSD\b|£|\bGBP\b)", re.IGNORECASE)
_SPACES = re.compile(r"[\s\u00a0\u202f']+")
_NUMBER = re.compile(r"-?\d+(?:[.,]\d+)*")
_THOUSANDS_DOTS = re.compile(r"-?\d{1,3}(?:\.\d{3})+")
CURRENCIES = {
    "TL": "TRY",
    "₺": "TRY",
    "TRY": "TRY",
    "YTL": "TRY",
    "€": "EUR",
    "EUR": "EUR",
    "EURO": "EUR",
    "AVRO": "EUR",
    "$": "USD",
    "USD": "USD",
    "DOLAR": "USD",
    "£": "GBP",
    "GBP": "GBP",
    "STERLIN": "GBP",
}


def parse_number(text: str) -> Decimal | None:
    """A number as Turkish and English lists write it: "1.250,50", "1250,50", "1,250.50", "₺ 1.250,50", "1.250 TL".

    With both marks the last one is the decimal mark; a comma alone is decimal (Turkish first); dots alone are
    thousands only in groups of three ("1.250", "1.250.000"). None for an empty cell; ValueError when unreadable.
    """
    cleaned = _SPACES.sub("", _MONEY_MARKS.sub("", text))
    if cleaned in {"", "-", "—"}:
        return None
    if not _NUMBER.fullmatch(cleaned):
        raise ValueError(text)
    if "," in cleaned and "." in cleaned:
        decimal_mark = "," if cleaned.rfind(",") > cleaned.rfind(".") else "."
        thousands = "." if decimal_mark == "," else ","
        cleaned = cleaned.replace(thousands, "").replace(decimal_mark, ".")
    elif "," in cleaned:
        if cleaned.count(",") > 1:
            raise ValueError(text)
        cleaned = cleaned.replace(",", ".")
    elif _THOUSANDS_DOTS.fullmatch(cleaned):
        cleaned = cleaned.replace(".", "")
    elif cleaned.count(".") > 1:
        raise ValueError(text)
    return Decimal(cleaned)


def currency_of(text: str) -> str | None:
    """A currency code from a cell ("TL", "₺", "EUR", "Avro") or from the marks in a price; None when it names none."""
    word = fold(text.strip()).upper()
    if word in CURRENCIES:
        return CURRENCIES[word]
    if re.fullmatch(r"[A-Z]{3}", word):
        return word
    mark = _MONEY_MARKS.search(text)
    return CURRENCIES[mark.group(1).upper()] if mark else None


_NUMBER_SEPARATORS = re.compile(r"[,;|\n\t]+|\s{2,}|\s+/\s*|\s*/\s+")
SLASH_SPLIT_MIN = 5  # "W 719/30", "HU 719/7 X": a slash inside a number; "0986452041/F026400": two numbers


def split_numbers(cell: str) -> list[str]:
    """Several numbers in one cell, split on `,` `;` `|`, line breaks, tabs, runs of spaces and `/`. A single space
    stays (part numbers are written "0 986 452 041"), and so does a slash between short pieces ("W 719/30" is one MANN
    number): a bare slash splits only when every piece is a number of its own (5 letters or digits or more)."""
    numbers = []
    for part in _NUMBER_SEPARATORS.split(cell):
        pieces = part.split("/")
        if len(pieces) > 1 and all(len(fold_code(piece)) >= SLASH_SPLIT_MIN for piece in pieces):
            numbers.extend(pieces)
        else:
            numbers.append(part)
    return [number.strip() for number in numbers if number.strip(" /")]
