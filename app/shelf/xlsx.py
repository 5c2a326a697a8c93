"""Reading an XLSX list within bounded memory, with python-calamine (Rust's calamine).

calamine reads a sheet whole (it has no row stream): the shared strings (about 60 bytes a string) and every cell of
the sheet's used range (about 100 bytes a cell with its text). So nothing is handed to it before the zip has been
checked from what it declares and from one streamed pass over its XML, keeping nothing: the unpacked size, how
tightly each entry packs, how many shared strings there are and how many cells the sheet spans. The preview reads a
copy of the workbook whose first sheet is cut after its first rows; the import job reads the sheet whole.
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from flask_babel import format_decimal
from flask_babel import gettext as _

from app.core.errors import ApiError

MAX_UNPACKED_BYTES = 200 * 1024 * 1024
MAX_RATIO = 200  # real sheets pack 5-30 times; a bomb packs thousands of times
RATIO_FROM_BYTES = 10 * 1024 * 1024  # small entries may pack tightly without harm
MAX_SHARED_STRINGS = 1_500_000  # about 90 MB in calamine (fewer than the cells a sheet may span)
MAX_CELLS = 4_000_000  # about 400 MB in calamine: 400,000 rows of 10 columns (a larger list comes as CSV)
SCAN_CHUNK = 1024 * 1024
SCAN_OVERLAP = 32  # longer than any pattern below: a match cut by a chunk's end is found in the next

FIRST_SHEET = "xl/worksheets/sheet1.xml"
_SHEET_REF = re.compile(rb'<(?:\w{1,8}:)?sheet\s[^>]*?\b\w{1,8}:id="([^"]{1,64})"')
_RELATIONSHIP = re.compile(rb"<(?:\w{1,8}:)?Relationship\s([^>]*)>")
_ATTRIBUTE = re.compile(rb'(\w{1,16})="([^"]*)"')
_SHARED_STRING = re.compile(rb"<(?:\w{1,8}:)?si[\s>/]")
_CELL_OR_ROW = re.compile(rb'<(?:\w{1,8}:)?(?:(c)|row)\s[^>]*?\br="([A-Z]{0,3})(\d{1,7})"|<(?:\w{1,8}:)?(c)[\s>/]')
_ROW_END = re.compile(rb"</(?:\w{1,8}:)?row>|<(?:\w{1,8}:)?row\s[^>]*/>")
_SHEET_DATA = re.compile(rb"<(\w{1,8}:)?sheetData[\s>/]")
EMPTY_SHEET = (
    b'<?xml version="1.0" encoding="UTF-8"?>'
    b'<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData/></worksheet>'
)


@dataclass(frozen=True)
class Extent:
    """What the first sheet spans: its last row (1-based) and the cells calamine would hold for it."""

    rows: int
    cells: int


def _refusal(code: str, message: str) -> ApiError:
    return ApiError(code, message, 422)


def not_a_list() -> ApiError:
    return _refusal("not_a_list", _("This file is neither a CSV nor an Excel (.xlsx) list."))


def unreadable() -> ApiError:
    return _refusal("bad_xlsx", _("This Excel file could not be read: save it again as .xlsx or CSV."))


def rows(data: bytes, *, first: int | None = None) -> Iterator[list[Any]]:
    """The first sheet's rows as calamine reads them (column A first, blank rows kept); only the `first` rows when
    given, read from a cut copy of the workbook. Checked first (`inspect`)."""
    with _opened(data) as archive:
        check_sizes(archive.infolist())
        sheet = first_sheet(archive)
        inspect(archive, sheet)
        source = data if first is None else _cut_workbook(archive, sheet, first)
    yield from _calamine_rows(source)


def inspect(archive: zipfile.ZipFile, sheet: str) -> Extent:
    """Refuse a workbook whose strings or cells are too many to read, before anything of it is read whole."""
    strings = _shared_strings_member(archive)
    if strings is not None and _count(archive, strings, _SHARED_STRING) > MAX_SHARED_STRINGS:
        raise _refusal(
            "xlsx_too_large",
            _(
                "This Excel file holds too many texts (at most %(count)s): save the list as CSV.",
                count=format_decimal(MAX_SHARED_STRINGS),
            ),
        )
    extent = sheet_extent(archive, sheet)
    if extent.cells > MAX_CELLS:
        raise _refusal(
            "xlsx_too_large",
            _(
                "This Excel list has too many cells (at most %(count)s): save it as CSV.",
                count=format_decimal(MAX_CELLS),
            ),
        )
    return extent


def check_sizes(entries: list[zipfile.ZipInfo]) -> None:
    """Refuse a zip whose entries declare too much unpacked data, or pack absurdly tightly."""
    unpacked = sum(entry.file_size for entry in entries)
    tight = any(
        entry.file_size > RATIO_FROM_BYTES and entry.file_size > MAX_RATIO * max(entry.compress_size, 1)
        for entry in entries
    )
    if unpacked > MAX_UNPACKED_BYTES or tight:
        raise _refusal("xlsx_too_large", _("This Excel file unpacks to too much data (at most 200 MB)."))


def extent_of(data: bytes) -> Extent:
    with _opened(data) as archive:
        return sheet_extent(archive, first_sheet(archive))


def sheet_extent(archive: zipfile.ZipFile, sheet: str) -> Extent:
    """The last row and column any cell or row names (a cell without a reference counts one cell)."""
    last_row = last_column = unnamed = 0
    for _base, match in _scan(archive, sheet, _CELL_OR_ROW):
        if match.group(4):
            unnamed += 1
            continue
        last_row = max(last_row, int(match.group(3)))
        if match.group(1):
            last_column = max(last_column, _column_number(match.group(2)))
    return Extent(rows=last_row, cells=max(last_row * max(last_column, 1), unnamed))


def _column_number(letters: bytes) -> int:
    number = 0
    for letter in letters:
        number = number * 26 + letter - 64
    return number


def first_sheet(archive: zipfile.ZipFile) -> str:
    """The first sheet's part, as the workbook lists its sheets (calamine's first sheet too)."""
    names = set(archive.namelist())
    try:
        ref = _SHEET_REF.search(archive.read("xl/workbook.xml"))
        relationships = archive.read("xl/_rels/workbook.xml.rels")
    except (KeyError, zipfile.BadZipFile, OSError, EOFError, ValueError):
        raise unreadable() from None
    for found in _RELATIONSHIP.finditer(relationships):
        attributes = dict(_ATTRIBUTE.findall(found.group(1)))
        if ref and attributes.get(b"Id") == ref.group(1):
            target = attributes.get(b"Target", b"").decode("utf-8", "replace")
            path = target.lstrip("/") if target.startswith("/") else f"xl/{target}"
            if path in names:
                return path
    if FIRST_SHEET in names:
        return FIRST_SHEET
    raise unreadable()


def _shared_strings_member(archive: zipfile.ZipFile) -> str | None:
    return next((name for name in archive.namelist() if name.lower().endswith("sharedstrings.xml")), None)


def _scan(archive: zipfile.ZipFile, member: str, pattern: re.Pattern[bytes]) -> Iterator[tuple[int, re.Match[bytes]]]:
    """Every match of `pattern` in a member with where its buffer starts in the member, read in chunks (none kept): a
    match starting in a chunk's last bytes is left for the next buffer, which starts with them."""
    try:
        with archive.open(member) as stream:
            pending, base = b"", 0
            while chunk := stream.read(SCAN_CHUNK):
                buffer = pending + chunk
                cut = max(len(buffer) - SCAN_OVERLAP, 0)
                for match in pattern.finditer(buffer):
                    if match.start() < cut:
                        yield base, match
                pending, base = buffer[cut:], base + cut
            for match in pattern.finditer(pending):
                yield base, match
    except (zipfile.BadZipFile, OSError, EOFError, ValueError, NotImplementedError):
        raise unreadable() from None


def _count(archive: zipfile.ZipFile, member: str, pattern: re.Pattern[bytes]) -> int:
    return sum(1 for _match in _scan(archive, member, pattern))


def _cut_workbook(archive: zipfile.ZipFile, sheet: str, first: int) -> bytes:
    """The workbook with its first sheet cut after `first` rows and the other sheets empty (stored, not packed)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as copy:
        for entry in archive.infolist():
            if entry.filename == sheet:
                copy.writestr(entry.filename, _cut_sheet(archive, sheet, first))
            elif entry.filename.startswith("xl/worksheets/") and entry.filename.endswith(".xml"):
                copy.writestr(entry.filename, EMPTY_SHEET)
            else:
                copy.writestr(entry.filename, archive.read(entry.filename))
    return out.getvalue()


def _cut_sheet(archive: zipfile.ZipFile, sheet: str, first: int) -> bytes:
    end = _end_of_row(archive, sheet, first)
    if end is None:
        return archive.read(sheet)  # no more rows than that
    with archive.open(sheet) as stream:
        head = stream.read(end)
    found = _SHEET_DATA.search(head)
    prefix = (found.group(1) or b"") if found else b""
    return head + b"</" + prefix + b"sheetData></" + prefix + b"worksheet>"


def _end_of_row(archive: zipfile.ZipFile, sheet: str, number: int) -> int | None:
    """Where the `number`th row ends in the sheet's XML, None if it has fewer rows."""
    for count, (base, match) in enumerate(_scan(archive, sheet, _ROW_END), start=1):
        if count == number:
            return base + match.end()
    return None


def _calamine_rows(source: bytes) -> Iterator[list[Any]]:
    from python_calamine import CalamineWorkbook  # loaded by an XLSX read only

    try:
        workbook = CalamineWorkbook.from_filelike(io.BytesIO(source))
        sheet = workbook.get_sheet_by_index(0)
    except Exception:  # calamine raises its own errors, and others, on a broken file
        raise unreadable() from None
    try:
        padding = [""] * sheet.start[1] if sheet.start else []  # calamine's rows start at the first used column
        for row in sheet.iter_rows():
            yield padding + row
    finally:
        workbook.close()


@dataclass(frozen=True)
class _Opened:
    archive: zipfile.ZipFile

    def __enter__(self) -> zipfile.ZipFile:
        return self.archive

    def __exit__(self, *_exc: object) -> None:
        self.archive.close()


def _opened(data: bytes) -> _Opened:
    try:
        return _Opened(zipfile.ZipFile(io.BytesIO(data)))
    except (zipfile.BadZipFile, ValueError, OSError, EOFError):
        raise not_a_list() from None


def cell_text(value: Any) -> str:
    """A cell as the dealer sees it: whole numbers without ".0", dates as YYYY-MM-DD, nothing as ""."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, float):
        # A decimal comma, as the list shows it in Turkish Excel and as parse_number reads it ("12,125", never the
        # thousands of "12.125").
        return str(int(value)) if value.is_integer() else format(Decimal(repr(value)), "f").replace(".", ",")
    if isinstance(value, datetime | date):
        return value.date().isoformat() if isinstance(value, datetime) else value.isoformat()
    return str(value).strip()
