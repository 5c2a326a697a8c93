"""An order's lines as an Excel sheet (openpyxl, write-only): what the supplier reads, and what a manager downloads.

Every text cell is written as text, never as a formula: a supplier's code or a part's name that begins with "=" is
shown as it is, not run by the supplier's Excel.
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from decimal import Decimal

from flask_babel import gettext as _
from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.worksheet._write_only import WriteOnlyWorksheet

from app.orders.models import SupplierOrderLine

CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
KURUS = Decimal("0.01")
MONEY_FORMAT = "#,##0.00"


def header() -> list[str]:
    return [
        _("Supplier's code"), _("Brand"), _("OEM number"), _("Part"), _("Quantity"), _("Unit cost"), _("Total"),
    ]  # fmt: skip


def line_total(line: SupplierOrderLine) -> Decimal | None:
    return None if line.unit_cost is None else (line.quantity * line.unit_cost).quantize(KURUS)


def workbook(lines: Iterable[SupplierOrderLine]) -> bytes:
    """The XLSX file: a header row, then one row per line (the costs net TRY, without KDV)."""
    book = Workbook(write_only=True)
    sheet = book.create_sheet(_("Order"))
    sheet.append([_text(sheet, title) for title in header()])
    for line in lines:
        sheet.append(
            [
                _text(sheet, line.offer_code or ""),
                _text(sheet, line.brand or ""),
                _text(sheet, line.oem_code or ""),
                _text(sheet, line.name),
                _number(sheet, line.quantity, "0.##"),
                _number(sheet, line.unit_cost, MONEY_FORMAT),
                _number(sheet, line_total(line), MONEY_FORMAT),
            ]
        )
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def _text(sheet: WriteOnlyWorksheet, value: str) -> WriteOnlyCell:
    cell = WriteOnlyCell(sheet, value=value)
    cell.data_type = "s"  # openpyxl reads a leading "=" as a formula
    return cell


def _number(sheet: WriteOnlyWorksheet, value: Decimal | None, number_format: str) -> WriteOnlyCell | None:
    if value is None:
        return None
    cell = WriteOnlyCell(sheet, value=value)
    cell.number_format = number_format
    return cell
