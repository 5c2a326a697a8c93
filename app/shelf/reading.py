"""Reading a dealer's list as their stock program exports it: CSV (UTF-8 with or without BOM, else Windows-1254; `;`,
`,` or tab, chosen by the header) or XLSX (`app.shelf.xlsx`, within checked limits), into rows of text; the header
row among the first rows, the column mapping it suggests, and a refusal when no column holds part numbers.

Everything here is pure: bytes in, rows out, refusals as ApiError with a Turkish message. The import job and the
preview read the same way, so what the dealer maps is what gets imported.
"""

from __future__ import annotations

import codecs
import csv
import io
import re
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import chain, islice
from typing import Any

from flask_babel import gettext as _

from app.core.errors import ApiError
from app.core.text import fold, fold_code
from app.shelf import xlsx, xmlrows

HEADER_SCAN_ROWS = 30
PREVIEW_ROWS = 20
MAX_COLUMNS = 100
ZIP_MAGIC = b"PK\x03\x04"
OLE_MAGIC = b"\xd0\xcf\x11\xe0"  # Excel 97-2003 (.xls)
DELIMITERS = (";", ",", "\t")
PART_NUMBER_KEY = (2, 40)  # letters and digits in a part number (app.core.text.fold_code): "A1" to a long EAN
PART_NUMBER_PIECES = 6  # "0 986 452 041" is four; a sentence is no part number
PART_NUMBER_DIGITS = 5  # "0986452041", "7701208265"; "12", "1250" are counts and prices
NOT_IN_PART_NUMBERS = (";", ",", "\t", "|")
SNIFF_BYTES = 64 * 1024
DECODE_CHUNK = 1024 * 1024

FIELDS = ("oem", "own_code", "brand", "name", "price", "currency", "stock", "aftermarket", "replaced_by")
SCALAR_FIELDS = tuple(field for field in FIELDS if field != "aftermarket")

# The words a header cell names a field by, folded (app.core.text.fold). A cell naming several picks the longest
# word ("Stok Kodu" is the own code, "Stok" the stock).
HEADER_WORDS = {
    "oem": (
        "oem",
        "oem no",
        "oe no",
        "oe numarasi",
        "orijinal no",
        "orjinal no",
        "orijinal numara",
        "parca no",
        "parca numarasi",
        "original no",
        "part no",
        "part number",
        "oem number",
    ),
    "own_code": ("stok kodu", "kodunuz", "urun kodu", "malzeme kodu", "kod", "own code", "sku", "item code"),
    "brand": ("marka", "uretici", "brand", "manufacturer"),
    "name": (
        "urun adi",
        "aciklama",
        "stok adi",
        "malzeme adi",
        "parca adi",
        "urun",
        "isim",
        "ismi",
        "stok ismi",
        "malzeme ismi",
        "urun ismi",
        "name",
        "description",
    ),
    "price": ("fiyat", "birim fiyat", "satis fiyati", "liste fiyati", "satis fiat", "price", "unit price"),
    "currency": ("para birimi", "doviz", "doviz cinsi", "currency", "pb"),
    "stock": (
        "stok",
        "miktar",
        "adet",
        "mevcut",
        "stok miktari",
        "bakiye",
        "fiili stok",
        "kalan",
        "eldeki",
        "stock",
        "quantity",
        "qty",
    ),
    "aftermarket": (
        "muadil",
        "esdeger",
        "muadil no",
        "esdeger no",
        "muadiller",
        "uretici kodu",
        "uretici no",
        "uretici parca no",
        "aftermarket",
        "cross",
    ),
    "replaced_by": ("yerine", "yeni no", "yeni numara", "yerine gecen", "replaced by", "successor", "new number"),
}
# Columns stock programs write beside the list that name no field, though a shorter word in them does ("Ürün Grubu" is
# no name, "Grup Kodu" no code, "Birim" the unit and not the price).
NO_FIELD_WORDS = ("urun grubu", "stok grubu", "grup kodu", "grup", "birim", "kdv orani", "kdv")
_WORD_FIELDS = sorted(
    [(word, field) for field, words in HEADER_WORDS.items() for word in words]
    + [(word, None) for word in NO_FIELD_WORDS],
    key=lambda pair: -len(pair[0]),
)
# A word stands alone, or with a number after it ("Fiyat1") or, five letters or more, with the Turkish possessive
# ("Satış Fiyatı", "Malzeme Açıklaması", "Miktarı": folded, -i -u -si -su); "Grup Kodu" is not "kod".
POSSESSIVE = "(?:s?[iu])?"
_WORD_RE = {
    word: re.compile(rf"(?<![0-9a-z]){re.escape(word)}{POSSESSIVE if len(word) >= 5 else ''}(?![a-z])")
    for word, _field in _WORD_FIELDS
}


@dataclass(frozen=True)
class Preview:
    """What the dealer sees before mapping: the header (or column numbers), the first rows, a guessed mapping."""

    header: list[str]
    header_row: int | None  # 0-based index among the rows; None when no row names a known column
    rows: list[list[str]]
    columns: int
    guessed: dict[str, Any]
    rows_estimate: int


def refusal(code: str, message: str, status: int = 422) -> ApiError:
    return ApiError(code, message, status)


def file_kind(filename: str, data: bytes, *, xml: bool = False) -> str:
    """csv or xlsx (or xml when taken), by content first (a renamed file is read as what it is); anything else is
    refused."""
    if not data.strip():
        raise refusal("empty_file", _("The file is empty."), 400)
    if data.startswith(ZIP_MAGIC):
        return "xlsx"
    if xml and xmlrows.looks_like_xml(data):
        return "xml"
    if data.startswith(OLE_MAGIC) or filename.lower().endswith(".xls"):
        raise refusal("old_excel", _("Excel 97-2003 (.xls) files are not read: save the list as .xlsx or CSV."))
    if b"\x00" in data[:65536]:
        raise refusal("not_a_list", _("This file is neither a CSV nor an Excel (.xlsx) list."))
    return "csv"


def read_rows(data: bytes, kind: str) -> Iterator[list[str]]:
    """Every row of the file as text cells (at most MAX_COLUMNS), blank rows included so line numbers hold."""
    if kind == "xml":
        return (_trimmed(row[:MAX_COLUMNS]) for row in xmlrows.rows(data))
    return _xlsx_rows(data) if kind == "xlsx" else _csv_rows(data)


def data_rows(data: bytes, kind: str) -> Iterator[tuple[int, list[str]]]:
    """The rows after the header (as the preview found it), with their line numbers in the file (1-based)."""
    rows = read_rows(data, kind)
    head = list(islice(rows, HEADER_SCAN_ROWS))
    header_row = find_header(head)
    first = header_row + 1 if header_row is not None else 0
    return enumerate(chain(head[first:], rows), start=first + 1)


# --- CSV ---------------------------------------------------------------------------------------------------------


def csv_encoding(data: bytes) -> str:
    """UTF-8 (a BOM dropped), else Windows-1254 (Turkish Excel's "CSV"); a file that is neither is refused. The whole
    file is checked, chunk by chunk, without keeping its text."""
    for encoding in ("utf-8-sig", "cp1254"):
        decoder = codecs.getincrementaldecoder(encoding)()
        try:
            for start in range(0, len(data), DECODE_CHUNK):
                decoder.decode(data[start : start + DECODE_CHUNK])
            decoder.decode(b"", final=True)
        except UnicodeDecodeError:
            continue
        return encoding
    raise refusal("bad_encoding", _("The file's characters could not be read: save it as CSV (UTF-8) or as .xlsx."))


def sniff_delimiter(sample: str) -> str:
    """The delimiter the list is written with, from its first lines: the one whose header names the most known columns
    (a header cell holding another delimiter twice is never one column), else the one that splits the rows widest
    and most alike (rows that leave trailing empty cells out count by their own width); `;` on a tie, then `,`."""
    lines = _sample_lines(sample)
    return max(DELIMITERS, key=lambda delimiter: _delimiter_score(lines, delimiter))


def _sample_lines(sample: str) -> list[str]:
    lines = sample.splitlines()
    if len(lines) > 1 and not sample.endswith(("\n", "\r")):
        lines.pop()  # cut short by the sample's end
    return [line for line in lines[: HEADER_SCAN_ROWS + PREVIEW_ROWS] if line.strip()]


def _delimiter_score(lines: list[str], delimiter: str) -> tuple[bool, int, int, int]:
    try:
        rows = list(csv.reader(lines, delimiter=delimiter))
    except csv.Error:
        return (False, 0, 0, 0)
    header = find_header(rows)
    header_cells = rows[header] if header is not None else rows[0] if rows else []
    named = len({field for field in map(header_field, header_cells) if field})
    whole_cells = not any(_holds_a_delimiter_twice(cell, delimiter) for cell in header_cells)
    return (whole_cells, named if named > 1 else 0, _consistency(rows), -DELIMITERS.index(delimiter))


def _holds_a_delimiter_twice(cell: str, delimiter: str) -> bool:
    return any(cell.count(other) >= 2 for other in DELIMITERS if other != delimiter)


def _consistency(rows: list[list[str]]) -> int:
    """Rows split in two or more cells, weighted by their usual width (the median: ragged rows barely move it)."""
    widths = sorted(len(row) for row in rows if len(row) > 1)
    if not widths:
        return 0
    return len(widths) * (widths[len(widths) // 2] - 1)


def _csv_rows(data: bytes) -> Iterator[list[str]]:
    if b"\x00" in data:  # NUL is NUL in both encodings: a binary file
        raise refusal("not_a_list", _("This file is neither a CSV nor an Excel (.xlsx) list."))
    encoding = csv_encoding(data)
    delimiter = sniff_delimiter(data[:SNIFF_BYTES].decode(encoding, errors="ignore"))
    # Decoded as it is read: a 50 MB file is not held as text a second time.
    reader = csv.reader(io.TextIOWrapper(io.BytesIO(data), encoding=encoding, newline=""), delimiter=delimiter)
    try:
        for row in reader:
            yield _trimmed([cell.strip() for cell in row[:MAX_COLUMNS]])
    except csv.Error:
        raise refusal("bad_csv", _("The CSV file is malformed near line %(line)d.", line=reader.line_num)) from None


# --- XLSX --------------------------------------------------------------------------------------------------------


def _xlsx_rows(data: bytes) -> Iterator[list[str]]:
    return map(_text_row, xlsx.rows(data))


def _text_row(row: list[Any]) -> list[str]:
    return _trimmed([xlsx.cell_text(value) for value in row[:MAX_COLUMNS]])


def _trimmed(row: list[str]) -> list[str]:
    """Without its empty cells at the end (a sheet pads each row to its widest)."""
    while row and not row[-1]:
        row.pop()
    return row


# --- header and mapping --------------------------------------------------------------------------------------------


def header_field(cell: str) -> str | None:
    """The field a header cell names, by its longest known word."""
    folded = " ".join(fold(cell).replace("_", " ").replace(".", " ").split())
    for word, field in _WORD_FIELDS:
        if _WORD_RE[word].search(folded):
            return field
    return None


def find_header(rows: list[list[str]]) -> int | None:
    """The row among the first ones that names the most known columns (the first of equals); None if none names any."""
    best, best_count = None, 0
    for index, row in enumerate(rows[:HEADER_SCAN_ROWS]):
        count = len({field for field in map(header_field, row) if field})
        if count > best_count:
            best, best_count = index, count
    return best


def guess_mapping(header: list[str]) -> dict[str, Any]:
    """Each field's column by its header (the first that names it); aftermarket takes every column naming it."""
    mapping: dict[str, Any] = dict.fromkeys(SCALAR_FIELDS)
    mapping["aftermarket"] = []
    for index, cell in enumerate(header):
        field = header_field(cell)
        if field == "aftermarket":
            mapping["aftermarket"].append(index)
        elif field and mapping[field] is None:
            mapping[field] = index
    return mapping


def preview(data: bytes, kind: str) -> Preview:
    """Read the start of the file: header, first rows and guessed mapping; the whole file's encoding is checked."""
    first = HEADER_SCAN_ROWS + PREVIEW_ROWS
    if kind == "xlsx":  # read from a copy cut after these rows; the sheet's last row is the estimate
        found, extent = xlsx.first_rows(data, first)
        head, last_row = [_text_row(row) for row in found], extent.rows
    else:
        head, last_row = list(islice(read_rows(data, kind), first)), 0
    header_row = find_header(head)
    body = head[header_row + 1 :] if header_row is not None else head
    rows = [row for row in body if any(row)][:PREVIEW_ROWS]
    columns = max((len(row) for row in head), default=0)
    if not columns or not (rows or header_row is not None):
        raise refusal("empty_file", _("The file has no rows."), 400)
    numbers = number_columns(rows, columns)
    if rows and not numbers:
        raise refusal(
            "no_part_numbers",
            _(
                "No column of this list holds part numbers (an OEM number or your own code). Check that it is saved "
                "as CSV separated by ';' or ',' or as .xlsx, with one part per row."
            ),
        )
    if header_row is not None:
        header = [cell or _("Column %(number)d", number=index + 1) for index, cell in enumerate(head[header_row])]
    else:
        header = [_("Column %(number)d", number=index + 1) for index in range(columns)]
    header += [_("Column %(number)d", number=index + 1) for index in range(len(header), columns)]
    return Preview(
        header=header,
        header_row=header_row,
        rows=[row + [""] * (columns - len(row)) for row in rows],
        columns=columns,
        guessed=_numbers_checked(guess_mapping(header) if header_row is not None else guess_mapping([]), numbers),
        rows_estimate=estimate_rows(data, kind, header_row, last_row),
    )


def looks_like_part_number(cell: str) -> bool:
    """A cell a part number could be: a digit in it, five digits at least when only digits (a count or a price is
    none), a few pieces at most, no delimiter of a list nor decimal comma."""
    key = fold_code(cell)
    return (
        PART_NUMBER_KEY[0] <= len(key) <= PART_NUMBER_KEY[1]
        and any(char.isdigit() for char in key)
        and not (key.isdigit() and len(key) < PART_NUMBER_DIGITS)
        and len(cell.split()) <= PART_NUMBER_PIECES
        and not any(mark in cell for mark in NOT_IN_PART_NUMBERS)
    )


def number_columns(rows: list[list[str]], columns: int) -> set[int]:
    """The columns whose filled cells in the preview mostly look like part numbers."""
    found = set()
    for column in range(columns):
        cells = [row[column] for row in rows if column < len(row) and row[column]]
        if cells and sum(map(looks_like_part_number, cells)) * 2 > len(cells):
            found.add(column)
    return found


def _numbers_checked(mapping: dict[str, Any], numbers: set[int]) -> dict[str, Any]:
    """A guessed number column whose cells are no part numbers is not suggested."""
    for field in ("oem", "own_code"):
        if mapping[field] is not None and mapping[field] not in numbers:
            mapping[field] = None
    return mapping


def estimate_rows(data: bytes, kind: str, header_row: int | None, last_row: int) -> int:
    """Rows to import, for the progress bar: a CSV's lines, a sheet's last row (corrected at the end)."""
    skip = (header_row + 1) if header_row is not None else 0
    if kind == "csv":
        return max(data.count(b"\n") + (not data.endswith(b"\n")) - skip, 0)
    return max(last_row - skip, 0)
