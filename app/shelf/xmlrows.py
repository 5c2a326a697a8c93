"""An XML price list read as rows of text: the element repeated under one parent (the shallowest that repeats: a
feed's `<urun>`, not the `<depo>` inside each) is a row, its child elements the columns, their tag names the header
(the first row). Namespaces are dropped from the names; a child with elements of its own reads as their texts joined.

Safe by construction: a file declaring a DOCTYPE or an entity is refused before parsing (no entity expansion, no
external fetch: "billion laughs" and XXE), expat reads the rest, and each row's elements are let go once read, so a
50 MB feed is never held as a tree. Refusals are ApiError with a Turkish message, as the CSV and XLSX readers give."""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Iterator

from flask_babel import gettext as _

from app.core.errors import ApiError

MAX_COLUMNS = 100
MAX_DEPTH = 32
_DECLARATIONS = re.compile(rb"<!\s*(DOCTYPE|ENTITY)", re.IGNORECASE)
_START = re.compile(rb"\s*(<\?xml|<[A-Za-z_])")
_BOMS = (b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")

Path = tuple[str, ...]


def _refusal(message: str) -> ApiError:
    return ApiError("bad_xml", message, 422)


def looks_like_xml(data: bytes) -> bool:
    """Whether the file starts as an XML document (after a byte order mark)."""
    for bom in _BOMS:
        if data.startswith(bom):
            return bom != _BOMS[0] or bool(_START.match(data[len(bom) :]))
    return bool(_START.match(data[:1024]))


def _tag(element: ET.Element) -> str:
    return element.tag.rsplit("}", 1)[-1] if isinstance(element.tag, str) else ""


def _events(data: bytes) -> Iterator[tuple[str, ET.Element]]:
    if _DECLARATIONS.search(data.replace(b"\x00", b"")):  # UTF-16's NULs dropped: its ASCII marks read too
        raise _refusal(_("XML files with a DOCTYPE or entity declarations are not read."))
    try:
        # defusedxml is not installed: its one guard here, no DOCTYPE (so no entity of ours), is the check above.
        yield from ET.iterparse(io.BytesIO(data), events=("start", "end"))  # noqa: S314
    except ET.ParseError as error:
        line = error.position[0] if error.position else 0
        raise _refusal(_("The XML file is malformed near line %(line)d.", line=line)) from None
    except (LookupError, ValueError):  # an encoding Python does not know
        raise _refusal(_("The XML file's characters could not be read: save it as UTF-8.")) from None


def _row_path(data: bytes) -> Path:
    """The path of the row element: the shallowest that repeats under one parent, else the root's first child."""
    counts: Counter[Path] = Counter()
    path: list[str] = []
    first_child: Path | None = None
    for event, element in _events(data):
        if event == "start":
            path.append(_tag(element))
            if len(path) > MAX_DEPTH:
                raise _refusal(_("The XML file is nested too deeply."))
            if len(path) == 2 and first_child is None:
                first_child = tuple(path)
        else:
            counts[tuple(path)] += 1
            path.pop()
            element.clear()
    repeated = [row for row, count in counts.items() if count > 1 and len(row) > 1]
    found = min(repeated, key=len, default=first_child)
    if found is None:
        raise ApiError("empty_file", _("The file has no rows."), 400)
    return found


def _text(element: ET.Element) -> str:
    return " ".join(" ".join(part.split()) for part in element.itertext() if part.strip())


def _columns(data: bytes, row_path: Path) -> list[str]:
    """The child tag names of the rows, in the order they first appear (at most MAX_COLUMNS)."""
    columns: dict[str, None] = {}
    for element in _row_elements(data, row_path):
        for child in element:
            if len(columns) < MAX_COLUMNS:
                columns.setdefault(_tag(child))
    return list(columns)


def _row_elements(data: bytes, row_path: Path) -> Iterator[ET.Element]:
    path: list[str] = []
    parents: list[ET.Element] = []
    for event, element in _events(data):
        if event == "start":
            path.append(_tag(element))
            parents.append(element)
            continue
        path.pop()
        parents.pop()
        if tuple([*path, _tag(element)]) == row_path:
            yield element
            element.clear()
            if parents:
                parents[-1].remove(element)  # the tree never grows beyond one row


def rows(data: bytes) -> Iterator[list[str]]:
    """The header (the columns' tag names), then each row's cells as text."""
    row_path = _row_path(data)
    columns = _columns(data, row_path)
    yield list(columns)
    index = {name: position for position, name in enumerate(columns)}
    for element in _row_elements(data, row_path):
        cells = [""] * len(columns)
        for child in element:
            position = index.get(_tag(child))
            if position is not None:
                joined = _text(child)
                cells[position] = (
                    f"{cells[position]} / {joined}" if cells[position] and joined else cells[position] or joined
                )
        yield cells
