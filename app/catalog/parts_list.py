"""A leaf's parts list to take away (app.catalog.exports): the leaf it is read from, the CSV file and its name.

The CSV is made for Excel as Turkish counters run it: cells separated by `;` (a Turkish Excel reads `,` as the
decimal mark and splits on `;`), UTF-8 announced by a byte order mark (without it Excel reads Windows-1254 and
garbles ç, ğ, ı, ş). No `sep=;` line: Excel then ignores the byte order mark. A cell that Excel would take for a
formula is prefixed with an apostrophe, so upstream text never runs as one (CSV injection).
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from typing import Any

from flask_babel import gettext as _

from app.accounts.models import User
from app.catalog import services
from app.catalog.fit.presenters import fit_label
from app.catalog.models import Category
from app.core.errors import ApiError
from app.vehicles.models import Vehicle

SEPARATOR = ";"
BYTE_ORDER_MARK = "\ufeff"
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
NAME_BREAKS = re.compile(r"[^\w-]+")  # everything but letters, digits, `_` and `-` separates the file name's words
TURKISH_TO_ASCII = str.maketrans("çğıİöşüÇĞÖŞÜ", "cgiIosuCGOSU")  # NFKD alone drops ı and keeps İ's dot apart
NAME_MAX_LENGTH = 120


def leaf_detail(vehicle: Vehicle, category: Category, user: User) -> dict[str, Any]:
    """The leaf's detail with its parts, as its page shows it; refused for a group (it has no parts list) and when
    the parts could not be loaded."""
    if not category.is_leaf:
        raise ApiError("not_a_leaf", _("This group has no parts list of its own: open one of its pictures."), 404)
    detail = services.category_detail(vehicle, category, user)
    if detail["loadError"]:
        message = _("The parts of this group could not be loaded from the catalog just now.")
        raise ApiError("parts_unavailable", message, 503)
    return detail


def csv_text(parts: list[dict[str, Any]]) -> str:
    """The parts (as app.catalog.services.part_view gives them) as CSV for Excel: the byte order mark, a header in
    the request's language, one line per row; the model codes column only when a row has model codes; last, whether
    the row fits the vehicle ("Uyar", "Uymaz: …", "Belki: …")."""
    with_models = any(part["modelCodes"] for part in parts)
    answers = {True: _("Yes"), False: _("No")}
    buffer = io.StringIO()
    buffer.write(BYTE_ORDER_MARK)
    writer = csv.writer(buffer, delimiter=SEPARATOR, lineterminator="\r\n")
    writer.writerow(_header(with_models))
    writer.writerows([safe_cell(cell) for cell in _cells(part, with_models, answers)] for part in parts)
    return buffer.getvalue()


def _header(with_models: bool) -> list[str]:
    header = [
        _("Position"), _("OEM code"), _("Part"), _("Quantity"), _("Remark"), _("Available"), _("Reference picture"),
    ]  # fmt: skip
    return [*header, *([_("Model codes")] if with_models else []), _("Fits this vehicle")]


def _cells(part: dict[str, Any], with_models: bool, answers: dict[bool, str]) -> list[str]:
    """One row as the table shows it: a reference row has no code or quantity of its own and its remark is the picture
    it names. The quantity is a bare number, so Excel can add it up."""
    reference = part["reference"]
    quantity = part["quantity"]
    cells = [
        part["position"] or "",
        "" if reference else part["oemCode"],
        part["label"],
        "" if reference or quantity is None else str(quantity),
        "" if reference else part["remark"] or "",
        answers[not part["unavailable"]],
        reference["code"] if reference else "",
    ]
    return [*cells, *([", ".join(part["modelCodes"])] if with_models else []), fit_label(part)]


def safe_cell(value: str) -> str:
    """The cell, prefixed with an apostrophe when Excel would read it as a formula."""
    return f"'{value}" if value.startswith(FORMULA_STARTS) else value


def download_names(*words: str | None) -> tuple[str, str]:
    """The CSV file's name from `words` (the vehicle, the category, its picture number), and its ASCII stand-in for
    the clients that cannot read a UTF-8 name (Content-Disposition's filename beside filename*)."""
    text = " ".join(word for word in words if word)
    plain = unicodedata.normalize("NFKD", text.translate(TURKISH_TO_ASCII)).encode("ascii", "ignore").decode()
    return f"{_stem(text)}.csv", f"{_stem(plain)}.csv"


def _stem(text: str) -> str:
    return "_".join(NAME_BREAKS.sub(" ", text).split())[:NAME_MAX_LENGTH].strip("_-") or "parts"
