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
from operator import itemgetter
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
# A shared string ends once: "</si>", "<si/>"; a prefixed one ("<x:si>...</x:si>") counts twice, which errs safe.
_SHARED_STRING_ENDS = (b"</si>", b"<si/>", b":si>", b":si/>")
_CELL_TAGS = (b"<c ", b"<c>", b"<c/>", b":c ")
# A row's or a cell's reference: r="7", r="AB7" (short: never cut by a buffer's end, see SCAN_OVERLAP).
_REFERENCE = re.compile(rb'\sr="([A-Z]{0,3})(\d{1,7})"')
_LETTERS, _NUMBER = itemgetter(0), itemgetter(1)
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


def rows(data: bytes) -> Iterator[list[Any]]:
    """The first sheet's rows as calamine reads them (column A first, blank rows kept), once checked (`inspect`)."""
    with _opened(data) as archive:
        _checked(archive)
    yield from _calamine_rows(data)


def first_rows(data: bytes, first: int) -> tuple[list[list[Any]], Extent]:
    """The first sheet's `first` rows, read from a copy of the workbook cut after them, and the sheet's extent."""
    with _opened(data) as archive:
        sheet, extent = _checked(archive)
        cut = _cut_workbook(archive, sheet, first)
    return list(_calamine_rows(cut))[:first], extent


def _checked(archive: zipfile.ZipFile) -> tuple[str, Extent]:
    check_sizes(archive.infolist())
    sheet = first_sheet(archive)
    return sheet, inspect(archive, sheet)


def inspect(archive: zipfile.ZipFile, sheet: str) -> Extent:
    """Refuse a workbook whose strings or cells are too many to read, before anything of it is read whole; the first
    sheet's extent."""
    strings = _shared_strings_member(archive)
    if strings is not None and _count(archive, strings, _SHARED_STRING_ENDS) > MAX_SHARED_STRINGS:
        raise _refusal(
            "xlsx_too_large",
            _(
                "This Excel file holds too many texts (at most %(count)s): save the list as CSV.",
                count=format_decimal(MAX_SHARED_STRINGS),
            ),
        )
    # Every sheet, not only the one found first: a workbook whose first sheet is named in a way not followed here is
    # still checked before calamine reads the sheet it takes as its first.
    others = {name for name in archive.namelist() if name.startswith("xl/worksheets/") and name.endswith(".xml")}
    extents = {name: sheet_extent(archive, name) for name in sorted(others | {sheet})}
    if max(extent.cells for extent in extents.values()) > MAX_CELLS:
        raise _refusal(
            "xlsx_too_large",
            _(
                "This Excel list has too many cells (at most %(count)s): save it as CSV.",
                count=format_decimal(MAX_CELLS),
            ),
        )
    return extents[sheet]


def check_sizes(entries: list[zipfile.ZipInfo]) -> None:
    """Refuse a zip whose entries declare too much unpacked data, or pack absurdly tightly."""
    unpacked = sum(entry.file_size for entry in entries)
    tight = any(
        entry.file_size > RATIO_FROM_BYTES and entry.file_size > MAX_RATIO * max(entry.compress_size, 1)
        for entry in entries
    )
    if unpacked > MAX_UNPACKED_BYTES or tight:
        raise _refusal("xlsx_too_large", _("This Excel file unpacks to too much data (at most 200 MB)."))


def sheet_extent(archive: zipfile.ZipFile, sheet: str) -> Extent:
    """The last row and column any row or cell names, and the cells calamine would hold for them (at least one a cell
    tag, for cells written without a reference)."""
    last_row = 0
    columns: set[bytes] = set()
    tags = 0
    for buffer, cut in _chunks(archive, sheet):
        references = _REFERENCE.findall(buffer)  # a million a 50 MB sheet: no Python code runs per reference
        if references:
            columns.update(map(_LETTERS, references))
            last_row = max(last_row, max(map(int, map(_NUMBER, references))))
        tags += _counted(buffer, cut, _CELL_TAGS)
    last_column = max((_column_number(found) for found in columns if found), default=1)
    return Extent(rows=last_row, cells=max(last_row * last_column, tags))


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
    """Every match of `pattern` in a member, with where its buffer starts in the member (`_chunks`)."""
    base = 0
    for buffer, cut in _chunks(archive, member):
        for match in pattern.finditer(buffer):
            if match.start() < cut:
                yield base, match
        base += cut


def _chunks(archive: zipfile.ZipFile, member: str) -> Iterator[tuple[bytes, int]]:
    """A member read in overlapping buffers, none kept, with where the next buffer starts in this one: what starts
    before that point is this buffer's, what starts after it is read again whole in the next one."""
    try:
        with archive.open(member) as stream:
            pending = b""
            while chunk := stream.read(SCAN_CHUNK):
                buffer = pending + chunk
                cut = max(len(buffer) - SCAN_OVERLAP, 0)
                yield buffer, cut
                pending = buffer[cut:]
            if pending:
                yield pending, len(pending)
    except (zipfile.BadZipFile, OSError, EOFError, ValueError, NotImplementedError):
        raise unreadable() from None


def _counted(buffer: bytes, cut: int, needles: tuple[bytes, ...]) -> int:
    """The needles starting before `cut` (those after it are counted in the next buffer)."""
    return sum(buffer.count(needle, 0, cut + len(needle) - 1) for needle in needles)


def _count(archive: zipfile.ZipFile, member: str, needles: tuple[bytes, ...]) -> int:
    return sum(_counted(buffer, cut, needles) for buffer, cut in _chunks(archive, member))


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
    except Exception:  # calamine raises its own errors, and others, on a broken file
        raise unreadable() from None
    try:
        sheet = workbook.get_sheet_by_index(0)
        padding = [""] * sheet.start[1] if sheet.start else []  # calamine's rows start at the first used column
        for row in sheet.iter_rows():
            yield padding + row
    except Exception:
        raise unreadable() from None
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
    if type(value) is str:  # most cells, and calamine's empty ones: first (a million cells a list)
        return value.strip()
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
