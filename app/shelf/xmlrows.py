"""An XML price list read as rows of text: the element repeated under one parent (the shallowest that repeats: a
feed's `<urun>`, not the `<depo>` inside each) is a row, its child elements the columns, their tag names the header
(the first row). Namespaces are dropped from the names; a child with elements of its own reads as their texts joined.

Safe by construction: a file declaring a DOCTYPE or an entity is refused before parsing (no entity expansion, no
external fetch: "billion laughs" and XXE), expat reads the rest, and each row's elements are let go once read, so a
50 MB feed is never held as a tree. Refusals are ApiError with a Turkish message, as the CSV and XLSX readers give."""

from __future__ import annotations

import hashlib
import io
import re
import threading
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Iterator

from flask_babel import gettext as _

from app.core.errors import ApiError

MAX_COLUMNS = 100
MAX_DEPTH = 32
KEPT_LAYOUTS = 8
_DECLARATIONS = re.compile(rb"<!\s*(DOCTYPE|ENTITY)", re.IGNORECASE)
_START = re.compile(rb"\s*(<\?xml|<[A-Za-z_])")
_BOMS = (b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")

Path = tuple[str, ...]
_LAYOUTS: dict[bytes, tuple[Path, tuple[str, ...]]] = {}  # by the file's digest, the oldest dropped first
_LAYOUTS_LOCK = threading.Lock()


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


def _layout(data: bytes) -> tuple[Path, list[str]]:
    """The row element's path and its columns, read once per file (the preview and the job read a file again)."""
    digest = hashlib.blake2b(data, digest_size=16).digest()
    found = _LAYOUTS.get(digest)
    if found is None:
        found = _read_layout(data)
        with _LAYOUTS_LOCK:
            while len(_LAYOUTS) >= KEPT_LAYOUTS:
                del _LAYOUTS[next(iter(_LAYOUTS))]
            _LAYOUTS[digest] = found
    return found[0], list(found[1])


def _read_layout(data: bytes) -> tuple[Path, tuple[str, ...]]:
    """In one pass: the path of the row element, the shallowest that repeats under one parent, else the root's first
    child; and the child tag names of the elements at each path, in the order they first appear (at most
    MAX_COLUMNS), those of the row element being the columns."""
    counts: Counter[Path] = Counter()
    children: dict[Path, dict[str, None]] = {}
    paths: list[Path] = []
    first_child: Path | None = None
    for event, element in _events(data):
        if event == "start":
            parent = paths[-1] if paths else ()
            tag = _tag(element)
            named = children.setdefault(parent, {})
            if len(named) < MAX_COLUMNS:
                named.setdefault(tag)
            paths.append((*parent, tag))
            if len(paths) > MAX_DEPTH:
                raise _refusal(_("The XML file is nested too deeply."))
            if len(paths) == 2 and first_child is None:
                first_child = paths[-1]
        else:
            counts[paths.pop()] += 1
            element.clear()
    repeated = [row for row, count in counts.items() if count > 1 and len(row) > 1]
    found = min(repeated, key=len, default=first_child)
    if found is None:
        raise ApiError("empty_file", _("The file has no rows."), 400)
    return found, tuple(children.get(found, {}))


def _text(element: ET.Element) -> str:
    if not len(element):  # a plain cell: its text alone
        return " ".join((element.text or "").split())
    return " ".join(" ".join(part.split()) for part in element.itertext() if part.strip())


def _row_elements(data: bytes, row_path: Path) -> Iterator[ET.Element]:
    path: list[str] = []
    parents: list[ET.Element] = []
    *row_parent, row_tag = row_path
    for event, element in _events(data):
        if event == "start":
            path.append(_tag(element))
            parents.append(element)
            continue
        tag = path.pop()
        parents.pop()
        if tag == row_tag and path == row_parent:
            yield element
            element.clear()
            if parents:
                parents[-1].remove(element)  # the tree never grows beyond one row


def rows(data: bytes) -> Iterator[list[str]]:
    """The header (the columns' tag names), then each row's cells as text."""
    row_path, columns = _layout(data)
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
