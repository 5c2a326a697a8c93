"""The shop's suppliers' offers on the catalog's part rows (app.suppliers.offers): read once for a page's numbers,
beside the kept rows (`offers`, keyed by the folded number, so a drawing, a search and a where-used panel share the
shape), and the line the row shows of them: "3 teklif · en ucuz 1.100,44 ₺ Anadolu · en hızlı bugün Ege", opening to
each offer with its price, stock, delivery and where an equivalent came from.

The offers differ per shop and by the hour (a rate, a cut-off): they are never in the kept part views; a kept
fragment has them in its context, so its key carries them and the day they were read on.
"""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from flask_babel import format_date
from flask_babel import gettext as _

from app.auth.models import User
from app.catalog.on_shelf import count_text, price_text, search_key
from app.suppliers.currency.services import istanbul_today
from app.suppliers.offers import Lists, offers_for_codes
from app.suppliers.presenters import offers_view


def offers_on_rows(user: User | None, parts: list[dict[str, Any]], listed: Lists) -> dict[str, Any] | None:
    """The offers of the rows' numbers for `user`'s shop (`offers_of_codes`)."""
    codes = {part["oemCode"] for part in parts if part["oemCode"] and not part.get("reference")}
    return offers_of_codes(user, codes, listed)


def offers_of_codes(user: User | None, codes: set[str], listed: Lists | None) -> dict[str, Any] | None:
    """{"day": the Istanbul day the offers were priced on, "byNumber": {folded number: [offer views, best first]}};
    None for no user, no code, no supplier list (`listed`, as the rows read it: app.suppliers.offers.lists_column; None:
    asked) or no offer."""
    if user is None or (listed is not None and not listed.in_use) or not codes:
        return None
    found = offers_for_codes(user.shop_id, codes, listed=listed)
    return {"day": istanbul_today().isoformat(), "byNumber": offers_view(found)} if found else None


def offers_for(offers: dict[str, Any] | None, code: str | None) -> list[dict[str, Any]]:
    """A row's offers from a page's `offers` (a template global)."""
    if not offers or not code:
        return []
    return offers["byNumber"].get(search_key(code), [])


def offer_line(offers: list[dict[str, Any]], day: str) -> dict[str, Any]:
    """What the row shows of its offers (a template global, called inside the kept fragment)."""
    today = date.fromisoformat(day)
    cheapest = next((offer for offer in offers if offer["cheapest"]), None)
    fastest = next((offer for offer in offers if offer["fastest"]), None)
    summary = [_("%(num)d offers", num=len(offers)) if len(offers) > 1 else _("1 offer")]
    if cheapest is not None:
        summary.append(_("cheapest %(price)s %(supplier)s", price=_price(cheapest), supplier=cheapest["supplierName"]))
    elif offers[0]["price"] is not None:
        summary.append(f"{_price(offers[0])} {offers[0]['supplierName']}")
    if fastest is not None:
        when = _arrival(fastest["arrivesOn"], today)
        summary.append(_("fastest %(when)s %(supplier)s", when=when, supplier=fastest["supplierName"]))
    return {
        "summary": summary,
        "inStock": any(offer["inStock"] for offer in offers),
        "rows": [_row(offer, today) for offer in offers],
    }


def _row(offer: dict[str, Any], today: date) -> dict[str, Any]:
    item = " ".join(part for part in (offer["brand"], offer["ownCode"]) if part)
    return {
        "lineId": offer["lineId"],
        "supplier": offer["supplierName"],
        "item": item or offer["name"] or "",
        "name": offer["name"] if item else None,
        "price": _price_with_terms(offer),
        "rate": _rate(offer),
        "stock": _stock(offer),
        "inStock": offer["inStock"],
        "delivery": _delivery(offer, today),
        "via": _via(offer),
        "cheapest": offer["cheapest"],
        "fastest": offer["fastest"],
    }


def _price(offer: dict[str, Any]) -> str:
    return price_text(Decimal(offer["price"]), "TRY") if offer["price"] is not None else _("no price")


def _price_with_terms(offer: dict[str, Any]) -> str:
    if offer["price"] is None:
        return _("no price")
    tax = _("incl. KDV") if offer["withKdv"] else _("excl. KDV")
    return f"{_price(offer)} ({tax})"


def _rate(offer: dict[str, Any]) -> str | None:
    """The list price and the rate it was converted by, for a foreign currency."""
    if offer["currency"] == "TRY" or offer["listPrice"] is None:
        return None
    listed = price_text(Decimal(offer["listPrice"]), offer["currency"])
    if offer["rateDate"] is None:
        return _("%(price)s, no TCMB rate yet", price=listed)
    rate_day = format_date(date.fromisoformat(offer["rateDate"]), "dd.MM.yyyy")
    note = _("%(price)s at TCMB %(date)s", price=listed, date=rate_day)
    return _("%(note)s, old rate", note=note) if offer["rateStale"] else note


def _stock(offer: dict[str, Any]) -> str:
    if offer["stock"] is not None and offer["stock"] > 0:
        return _("In stock %(count)s", count=count_text(offer["stock"]))
    if offer["stockText"]:
        return offer["stockText"]
    return _("Out of stock") if offer["stock"] == 0 else _("stock not given")


def _delivery(offer: dict[str, Any], today: date) -> str | None:
    if offer["arrivesOn"] is None:
        return offer["delivery"]
    when = _arrival(offer["arrivesOn"], today)
    return f"{when} · {offer['delivery']}" if offer["delivery"] else when


def _arrival(arrives_on: str, today: date) -> str:
    day = date.fromisoformat(arrives_on)
    if day == today:
        return _("today")
    if day == today + timedelta(days=1):
        return _("tomorrow")
    return format_date(day, "d MMMM EEEE")


def _via(offer: dict[str, Any]) -> str | None:
    """Where an equivalent's link came from; None for the row's own number."""
    if offer["via"] is None:
        return None
    sources = {
        "catalog": _("the catalog's supersession"),
        "supplier": _("a supplier's OE field"),
        "shelf": _("your stock list"),
        "member": _("a member's confirmation"),
    }
    return _(
        "equivalent %(number)s, from %(source)s",
        number=offer["number"].upper(),
        source=sources.get(offer["via"], offer["via"]),
    )
