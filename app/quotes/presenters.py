"""What the quote pages, the shared page and the API show of a quote: its JSON view, amounts in Turkish format, the
WhatsApp message, the CSV file and the drawings' thumbnails."""

from __future__ import annotations

import csv
import io
from decimal import Decimal
from typing import Any
from urllib.parse import quote as url_quote
from urllib.parse import urljoin

import sqlalchemy as sa
from babel.numbers import format_decimal
from flask import request, url_for
from flask_babel import force_locale
from flask_babel import gettext as _

from app.catalog import store
from app.catalog.models import Category
from app.catalog.parts_list import BYTE_ORDER_MARK, SEPARATOR, download_names, safe_cell
from app.extensions import db
from app.quotes import services
from app.quotes.models import Quote, QuoteLine
from app.storage import current_storage

WHATSAPP = "https://wa.me/?text="


def money(value: Decimal | None) -> str:
    """ "3.450,00 ₺", as a Turkish customer reads an amount (whatever the dealer's interface language)."""
    return "" if value is None else f"{format_decimal(value, '#,##0.00', locale='tr')} ₺"


def number(value: Decimal | None) -> str:
    """A quantity as Turkish text: "2", "1,5"."""
    return "" if value is None else format_decimal(value, "#,##0.##", locale="tr")


def _branch_view(branch: services.BranchDetails) -> dict[str, Any]:
    return {"name": branch.name, "address": branch.address, "phone": branch.phone}


def quote_view(quote: Quote, lines: list[QuoteLine]) -> dict[str, Any]:
    """The API's quote: its facts, state, lines and totals (amounts as decimal strings, "1250.50")."""
    totals = services.totals(quote, lines)
    return {
        "id": quote.id,
        "vehicleId": quote.vehicle_id,
        "vin": quote.vin,
        "vehicleTitle": quote.vehicle_title,
        "customer": quote.customer,
        "status": quote.status,
        "version": quote.version,
        "versionOf": quote.version_of,
        "branch": _branch_view(services.branch_details(quote)),
        "share": {
            "state": services.share_state(quote),
            "sharedAt": _iso(quote.shared_at),
            "expiresAt": _iso(quote.expires_at),
            "revokedAt": _iso(quote.revoked_at),
            "firstOpenedAt": _iso(quote.first_opened_at),
        },
        "kdvRate": str(totals.kdv_rate),
        "lines": [line_view(line) for line in lines],
        "totals": {
            "net": str(totals.net),
            "kdv": str(totals.kdv),
            "gross": str(totals.gross),
            "unpriced": totals.unpriced,
        },
        "margin": _margin_view(services.margin_totals(lines)),
        "createdAt": _iso(quote.created_at),
        "updatedAt": _iso(quote.updated_at),
    }


def line_view(line: QuoteLine) -> dict[str, Any]:
    total = services.line_total(line)
    return {
        "id": line.id,
        "kind": line.kind,
        "partId": line.part_id,
        "categoryId": line.category_id,
        "oemCode": line.oem_code,
        "name": line.name,
        "quantity": str(line.quantity),
        "unitPrice": None if line.unit_price is None else str(line.unit_price),
        "total": None if total is None else str(total),
        "offer": _offer_view(line),
        "margin": _margin_view(services.line_margin(line)),
    }


def _offer_view(line: QuoteLine) -> dict[str, Any] | None:
    """The supplier's offer the line was priced from, as it was then (the dealer's only)."""
    if line.supplier_line_id is None and line.unit_cost is None:
        return None
    return {
        "supplierId": line.supplier_id,
        "supplierName": line.supplier_name,
        "lineId": line.supplier_line_id,
        "brand": line.offer_brand,
        "code": line.offer_code,
        "unitCost": None if line.unit_cost is None else str(line.unit_cost),
    }


def _margin_view(margin: services.Margin | None) -> dict[str, Any] | None:
    """A line's or the quote's cost and margin (the dealer's only); None without a cost."""
    if margin is None:
        return None
    percent = None if margin.percent is None else str(margin.percent)
    return {"cost": str(margin.cost), "amount": str(margin.amount), "percent": percent}


def whatsapp_url(shop: str, quote: Quote, lines: list[QuoteLine], link: str) -> str:
    """wa.me with a short Turkish summary: "<shop>: <vehicle> için teklif, toplam … (KDV dahil): <link>"."""
    gross = money(services.totals(quote, lines).gross)
    vehicle = quote.vehicle_title or _("your vehicle")
    with force_locale("tr"):
        if shop:
            text = _("%(shop)s: quote for %(vehicle)s, total %(total)s (VAT included): %(link)s",
                     shop=shop, vehicle=vehicle, total=gross, link=link)  # fmt: skip
        else:
            text = _("Quote for %(vehicle)s, total %(total)s (VAT included): %(link)s",
                     vehicle=vehicle, total=gross, link=link)  # fmt: skip
    return WHATSAPP + url_quote(text, safe="")


def shared_url(token: str) -> str:
    return url_for("quotes_views.shared", token=token, _external=True)


def thumbnails(lines: list[QuoteLine]) -> dict[int, str]:
    """The drawings' pictures of the part lines, by category id (one query for the categories, one for the keys)."""
    ids = {line.category_id for line in lines if line.category_id}
    if not ids:
        return {}
    categories = list(db.session.scalars(sa.select(Category).where(Category.id.in_(ids))))
    keys = store.thumbnails(categories)
    storage = current_storage() if keys else None
    return {category_id: storage.url(key) for category_id, key in keys.items()} if storage else {}


def csv_file(quote: Quote, lines: list[QuoteLine]) -> tuple[bytes, str, str]:
    """The quote as CSV for a Turkish Excel (app.catalog.parts_list's way: `;`, BOM, formula cells defused) with its
    file names (UTF-8 and ASCII)."""
    totals = services.totals(quote, lines)
    buffer = io.StringIO()
    buffer.write(BYTE_ORDER_MARK)
    writer = csv.writer(buffer, delimiter=SEPARATOR, lineterminator="\r\n")
    writer.writerow([_("OEM code"), _("Item"), _("Quantity"), _("Unit price"), _("Total")])
    for line in lines:
        total = services.line_total(line)
        price = number_cell(line.unit_price)
        cells = [line.oem_code or "", line.name, number(line.quantity), price, number_cell(total)]
        writer.writerow([safe_cell(cell) for cell in cells])
    writer.writerow(["", _("Net"), "", "", number_cell(totals.net)])
    writer.writerow(["", _("KDV %(rate)s %%", rate=number(totals.kdv_rate)), "", "", number_cell(totals.kdv)])
    writer.writerow(["", _("Total (KDV included)"), "", "", number_cell(totals.gross)])
    name, ascii_name = download_names(_("Quote"), str(quote.id), quote.vehicle_title)
    return buffer.getvalue().encode(), name, ascii_name


def number_cell(value: Decimal | None) -> str:
    """An amount Excel adds up in Turkish: decimal comma, no thousands mark."""
    return "" if value is None else format_decimal(value, "0.00", locale="tr")


def _iso(value: Any) -> str | None:
    return value.isoformat() if value is not None else None


def preview_card(quote: Quote, shop: str, totals: services.Totals) -> dict[str, str]:
    """The shared page's Open Graph card (WhatsApp, Telegram, iMessage draw it from these): the shop, the vehicle and
    the total, in Turkish as the customer reads it; nothing personal (no customer's name, no phone)."""
    gross = money(totals.gross)
    with force_locale("tr"):
        title = f"{_('Quote')} · {shop}" if shop else _("Quote")
        if quote.vehicle_title:
            description = _("%(vehicle)s · total %(total)s (VAT included)", vehicle=quote.vehicle_title, total=gross)
        else:
            description = _("Total %(total)s (VAT included)", total=gross)
    image = urljoin(request.host_url, url_for("static", filename="img/quote-card.png"))  # 600 x 315, a preview card
    return {"title": title, "description": description, "image": image}
