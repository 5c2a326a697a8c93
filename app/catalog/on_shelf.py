"""The dealer's shelf list on the catalog's part rows (app.shelf.lookup): each row's `shelf` (null when the list
does not carry its number), added to a page of part views at once, and the line the parts table shows of it
("Rafta 3 · 1.250,50 ₺ · kodunuz X", which number matched, "yerine: B (Rafta 2 · …)").

Numbers are written the Turkish way whatever the page's language: they are the dealer's own prices, as his stock
program and his customers write them.
"""

from __future__ import annotations

import uuid
from decimal import Decimal
from typing import Any

from babel.numbers import format_currency, format_decimal
from flask_babel import gettext as _

from app.core.text import fold_code
from app.shelf import lookup

NUMBER_LOCALE = "tr"
PRICE_FORMAT = "#,##0.00 ¤"  # 1.250,50 ₺


def add_shelf(user_id: uuid.UUID | None, parts: list[dict[str, Any]], import_id: int | None) -> None:
    """Set each coded part view's `shelf` from one lookup for the whole page; `import_id` is the dealer's list in use
    as his rows were read with it (None: no list, and nothing is asked)."""
    if import_id is None or user_id is None:
        return
    coded = [part for part in parts if not part["reference"] and part["oemCode"]]
    hits = lookup.shelf_for(user_id, [part["oemCode"] for part in coded], import_id=import_id)
    if not hits:
        return
    for part in coded:
        hit = hits.get(fold_code(part["oemCode"]))
        if hit is not None:
            part["shelf"] = lookup.hit_view(hit)


def shelf_line(shelf: dict[str, Any] | None) -> dict[str, Any] | None:
    """What the parts table shows of a row's `shelf`: its summary, how it matched and its current number."""
    if shelf is None:
        return None
    own_code = shelf["ownCode"]
    summary = [*_stock_and_price(shelf), *([_("your code %(code)s", code=own_code)] if own_code else [])]
    current = shelf["current"]
    return {
        "summary": " · ".join(summary) or _("On your list"),
        "inStock": bool(shelf["stock"]),
        "matched": _matched_text(shelf["matched"]),
        "current": _current_text(current) if current else None,
    }


def _stock_and_price(item: dict[str, Any]) -> list[str]:
    parts = []
    stock = item["stock"]
    if stock is not None:
        count = format_decimal(stock, locale=NUMBER_LOCALE)
        parts.append(_("On shelf %(count)s", count=count) if stock else _("None on shelf"))
    if item["price"] is not None:
        parts.append(price_text(Decimal(item["price"]), item["currency"] or "TRY"))
    return parts


def price_text(price: Decimal, currency: str) -> str:
    """1.250,50 ₺ (Babel's Turkish format; a currency without a symbol keeps its code)."""
    return format_currency(price, currency, format=PRICE_FORMAT, locale=NUMBER_LOCALE, currency_digits=False)


def _matched_text(matched: dict[str, str]) -> str:
    kind = matched["kind"]
    if kind == "own":
        return _("matched by your code")
    if kind == "aftermarket":
        return _("matched by an aftermarket number")
    if kind == "replaces":
        return _("your row %(number)s is replaced by this part", number=matched["number"])
    return _("matched by the OEM number")


def _current_text(current: dict[str, Any]) -> str:
    replaced_by = _("replaced by: %(number)s", number=current["number"])
    details = _stock_and_price(current) if current["stock"] is not None or current["price"] is not None else []
    return f"{replaced_by} ({' · '.join(details)})" if details else f"{replaced_by} ({_('not on your list')})"
