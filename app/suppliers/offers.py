"""A shop's offers for part numbers: the lines of its suppliers' lists in use that answer to each number or to one of
its direct equivalents (app.equivalents.groups.neighbours), priced as the shop buys them: the list price less the
supplier's discount (its brand's when set), in TRY at the Central Bank's rate, with or without KDV as the shop set,
with the stock and the supplier's delivery promise for now; the cheapest and the fastest marked.

A page asks once for all its numbers (`offers_for_codes`): one query for the links, one for the lines, one for the
suppliers' terms, one for the rates; the offers are then kept in the process until something they are made of
changes (app.suppliers.offer_cache). An offer chosen for a quote is read again by its line (`offer_of_line`), so the
cost kept is the one the shop would pay now, and another shop's line is never found.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import date, datetime, time, timedelta
from decimal import ROUND_HALF_UP, Decimal
from functools import cached_property
from typing import Any

import sqlalchemy as sa

from app.auth.models import User
from app.core.text import fold, fold_code
from app.equivalents.groups import neighbours
from app.extensions import db
from app.suppliers import offer_cache
from app.suppliers.currency.services import (
    HOME_CURRENCY,
    ISTANBUL,
    KURUS,
    RateOnDay,
    convert,
    is_working_day,
    rates_on,
)
from app.suppliers.lines import LineView, line_in_use, lines_for_keys
from app.suppliers.models import OfferSettings, Supplier, SupplierActive, SupplierBrandDiscount

HUNDRED = Decimal(100)
DEFAULT_KDV_RATE = Decimal("20.00")


@dataclass(frozen=True)
class Offer:
    """One supplier line offered for a number. `number` is the folded number the line answers to: the asked one, or
    an equivalent's (`via` then names the link's source: catalog, supplier, shelf or member). Prices are in TRY:
    `net` after the discount without KDV (the cost a quote keeps), `shown` as the shop reads them (`with_kdv`)."""

    supplier_id: int
    supplier_name: str
    line_id: int
    number: str
    via: str | None
    match: str  # what the number matched on the line: own, oem, oe or ean
    own_code: str | None
    brand: str | None
    name: str | None
    list_price: Decimal | None
    currency: str
    discount: Decimal
    net: Decimal | None
    shown: Decimal | None
    with_kdv: bool
    rate: Decimal | None
    rate_date: date | None
    rate_stale: bool
    stock: int | None
    stock_text: str | None
    in_stock: bool | None  # None: the list does not say
    delivery: str | None  # the supplier's promise as written
    arrives_on: date | None  # by the order cut-off, ordered now; None without a cut-off
    cheapest: bool = False
    fastest: bool = False

    @cached_property
    def view(self) -> dict[str, Any]:
        """The offer as the API and the pages read it (camelCase; amounts as decimal strings, days as ISO dates),
        made once: an offer is kept across requests (app.suppliers.offer_cache), so its view is never changed."""
        return {
            "supplierId": self.supplier_id,
            "supplierName": self.supplier_name,
            "lineId": self.line_id,
            "number": self.number,
            "via": self.via,
            "match": self.match,
            "ownCode": self.own_code,
            "brand": self.brand,
            "name": self.name,
            "listPrice": _amount(self.list_price),
            "currency": self.currency,
            "discountPercent": str(self.discount),
            "net": _amount(self.net),
            "price": _amount(self.shown),
            "withKdv": self.with_kdv,
            "rate": str(self.rate) if self.rate is not None else None,
            "rateDate": self.rate_date.isoformat() if self.rate_date else None,
            "rateStale": self.rate_stale,
            "stock": self.stock,
            "stockText": self.stock_text,
            "inStock": self.in_stock,
            "delivery": self.delivery,
            "arrivesOn": self.arrives_on.isoformat() if self.arrives_on else None,
            "cheapest": self.cheapest,
            "fastest": self.fastest,
        }


@dataclass(frozen=True)
class _Terms:
    name: str
    discount: Decimal
    brand_discounts: dict[str, Decimal]
    delivery: str | None
    cutoff: time | None


@dataclass(frozen=True)
class _Pricing:
    """What prices a page's offers: the rates of the day, the shop's KDV choice, the moment in Istanbul."""

    rates: dict[str, RateOnDay]
    with_kdv: bool
    kdv_rate: Decimal
    now: datetime


@dataclass(frozen=True)
class Lists:
    """What a statement read beside its rows of the shop's supplier lists (`lists_column`, `listed_in`): whether one
    is in use, and the offers' epoch (app.suppliers.offer_cache), under which offers computed now may be kept."""

    in_use: bool
    epoch: int | None = None


def offers_for_codes(
    shop_id: uuid.UUID, codes: Iterable[str], *, listed: Lists | None = None, now: datetime | None = None
) -> dict[str, tuple[Offer, ...]]:
    """Each code (folded: app.core.text.fold_code) with its offers, best first (in stock, then cheapest); a code
    without offers is left out. Nothing more is read for a shop without a supplier list in use: `listed` says whether
    it has one when the caller read it beside its rows (`lists_column`), else it is asked. Offers priced now are kept
    in the process under the epoch read (app.suppliers.offer_cache); a given `now` neither reads nor keeps them."""
    keys = {fold_code(code) for code in codes} - {""}
    if not keys:
        return {}
    listed = listed if listed is not None else _lists_of(shop_id)
    if not listed.in_use:
        return {}
    kept = offer_cache.cache()
    if kept is None or now is not None or listed.epoch is None or offer_cache.written_here(db.session()):
        return _present(_computed(shop_id, keys, now).offers)
    moment = istanbul_now()
    found = kept.kept(shop_id, keys, listed.epoch, moment)
    missing = keys - found.keys()
    if missing:
        computed = _computed(shop_id, missing, moment)
        fresh = {key: computed.offers.get(key, ()) for key in missing}
        kept.keep(shop_id, fresh, listed.epoch, _good_until(computed.cutoffs, moment))
        found.update(fresh)
    return _present(found)


@dataclass(frozen=True)
class _Computed:
    offers: dict[str, tuple[Offer, ...]]
    cutoffs: tuple[time, ...]  # of the suppliers the offers came from: a delivery day changes at each


def istanbul_now() -> datetime:
    """The moment offers are priced at, in Istanbul."""
    return datetime.now(ISTANBUL)


def _computed(shop_id: uuid.UUID, keys: set[str], now: datetime | None) -> _Computed:
    links = neighbours(keys, shop_id)
    asked = keys | {edge.there for edges in links.values() for edge in edges}
    lines = lines_for_keys(shop_id, asked)
    if not lines:
        return _Computed({}, ())
    views = [view for found in lines.values() for view in found]
    terms = _terms({view.supplier_id for view in views})
    pricing = _pricing(shop_id, views, now)
    offers = {key: _offers_of(key, links.get(key, ()), lines, terms, pricing) for key in keys}
    cutoffs = tuple({one.cutoff for one in terms.values() if one.cutoff is not None})
    return _Computed(offers, cutoffs)


def _present(found: dict[str, tuple[Offer, ...]]) -> dict[str, tuple[Offer, ...]]:
    """The numbers that have offers."""
    return {key: offers for key, offers in found.items() if offers}


def _good_until(cutoffs: Iterable[time], now: datetime) -> datetime:
    """The next moment offers computed `now` may differ by the clock alone: a supplier's cut-off today, or midnight."""
    midnight = datetime.combine(now.date() + timedelta(days=1), time(0), ISTANBUL)
    later = [datetime.combine(now.date(), cutoff, ISTANBUL) for cutoff in cutoffs]
    return min([moment for moment in later if moment > now] + [midnight])


def offer_of_line(shop_id: uuid.UUID, line_id: int, *, now: datetime | None = None) -> Offer | None:
    """The offer of one line of the shop's lists in use, priced now; None when the line is not the shop's or no
    longer in use."""
    view = line_in_use(shop_id, line_id)
    if view is None:
        return None
    terms = _terms({view.supplier_id})
    return _offer(view, fold_code(view.own_code or ""), None, terms[view.supplier_id], _pricing(shop_id, [view], now))


def settings_of(shop_id: uuid.UUID) -> OfferSettings:
    """The shop's offer settings, its defaults (without KDV, 20 %) when it set none."""
    settings = db.session.get(OfferSettings, shop_id)
    return settings or OfferSettings(shop_id=shop_id, with_kdv=False, kdv_rate=DEFAULT_KDV_RATE)


def lists_column(user_id: sa.ColumnElement[Any] | None = None) -> sa.Label[Any]:
    """The offers' epoch when the member's shop has a supplier list in use, else null, as an uncorrelated subquery a
    statement of the catalog reads beside its rows (`listed_in` reads it back): a shop without one costs a page no
    statement for offers, one with them none for offers kept. `user_id` defaults to the bound parameter `user_id`."""
    user = user_id if user_id is not None else sa.bindparam("user_id")
    shop = sa.select(User.shop_id).where(User.id == user).scalar_subquery()
    return _epoch_if_listed(shop).label("supplier_lists")


def listed_in(row: sa.Row | None) -> Lists:
    """The shop's supplier lists as a row read them with `lists_column`."""
    epoch = row.supplier_lists if row is not None else None
    return Lists(in_use=epoch is not None, epoch=epoch or None)


def _epoch_if_listed(shop: Any) -> sa.ColumnElement[Any]:
    listed = sa.exists().where(SupplierActive.shop_id == shop)
    return sa.case((listed, sa.func.coalesce(offer_cache.epoch_column(), 0)), else_=sa.null())


def _lists_of(shop_id: uuid.UUID) -> Lists:
    return listed_in(db.session.execute(_LISTS_OF_SHOP, {"shop_id": shop_id}).first())


_LISTS_OF_SHOP = sa.select(_epoch_if_listed(sa.bindparam("shop_id", type_=sa.Uuid)).label("supplier_lists"))


def _offers_of(key: str, edges: Iterable, lines: dict[str, list[LineView]], terms, pricing: _Pricing) -> tuple:
    made: dict[int, Offer] = {}
    for view in lines.get(key, ()):
        made.setdefault(view.line_id, _offer(view, key, None, terms[view.supplier_id], pricing))
    for edge in edges:
        for view in lines.get(edge.there, ()):
            made.setdefault(view.line_id, _offer(view, edge.there, edge.source, terms[view.supplier_id], pricing))
    return _marked(sorted(made.values(), key=_best_first))


def _best_first(offer: Offer) -> tuple:
    return (offer.in_stock is False, offer.shown is None, offer.shown or 0, offer.supplier_name, offer.line_id)


def _marked(offers: list[Offer]) -> tuple[Offer, ...]:
    """The cheapest and the fastest of the offers that are not out of stock, marked when there is a choice: the
    fastest arrives before every other (an offer without a delivery day is not known to be faster)."""
    if len(offers) < 2:
        return tuple(offers)
    available = [offer for offer in offers if offer.in_stock is not False]
    priced = [offer for offer in available if offer.shown is not None]
    cheapest = min(priced, key=lambda offer: offer.shown).line_id if priced else None
    days = sorted(offer.arrives_on for offer in available if offer.arrives_on is not None)
    first_alone = days[0] if days and days[1:2] != days[:1] else None  # no other arrives that day
    fastest_id = next((offer.line_id for offer in available if first_alone and offer.arrives_on == first_alone), None)
    return tuple(
        replace(offer, cheapest=offer.line_id == cheapest, fastest=offer.line_id == fastest_id)
        if offer.line_id in (cheapest, fastest_id)
        else offer
        for offer in offers
    )


def _offer(view: LineView, number: str, via: str | None, terms: _Terms, pricing: _Pricing) -> Offer:
    discount = terms.brand_discounts.get(" ".join(fold(view.brand or "").split()), terms.discount)  # services.brand_key
    converted = convert(view.price, view.currency, pricing.rates, pricing.now.date()) if view.price else None
    net = _less(converted.amount, discount) if converted is not None and converted.amount is not None else None
    shown = _with_kdv(net, pricing.kdv_rate) if net is not None and pricing.with_kdv else net
    return Offer(
        supplier_id=view.supplier_id,
        supplier_name=terms.name,
        line_id=view.line_id,
        number=number,
        via=via,
        match=view.kind,
        own_code=view.own_code,
        brand=view.brand,
        name=view.name,
        list_price=view.price,
        currency=view.currency or HOME_CURRENCY,
        discount=discount,
        net=net,
        shown=shown,
        with_kdv=pricing.with_kdv,
        rate=converted.rate if converted is not None and converted.currency != HOME_CURRENCY else None,
        rate_date=converted.rate_date if converted is not None and converted.currency != HOME_CURRENCY else None,
        rate_stale=bool(converted is not None and converted.stale),
        stock=view.stock,
        stock_text=view.stock_text,
        in_stock=_in_stock(view),
        delivery=terms.delivery,
        arrives_on=arrival(terms.cutoff, pricing.now),
    )


def _amount(value: Decimal | None) -> str | None:
    return f"{value:.2f}" if value is not None else None


def _less(amount: Decimal, discount: Decimal) -> Decimal:
    return (amount * (HUNDRED - discount) / HUNDRED).quantize(KURUS, ROUND_HALF_UP)


def _with_kdv(amount: Decimal, rate: Decimal) -> Decimal:
    return (amount * (HUNDRED + rate) / HUNDRED).quantize(KURUS, ROUND_HALF_UP)


def _in_stock(view: LineView) -> bool | None:
    if view.stock is not None:
        return view.stock > 0
    return True if view.stock_text else None  # "Var", "10+": a count of none is stored as 0


def arrival(cutoff: time | None, now: datetime) -> date | None:
    """The day an order placed `now` (Istanbul time) arrives by the supplier's cut-off: today on a working day
    before the cut-off, else the next working day; None without a cut-off."""
    if cutoff is None:
        return None
    today = now.date()
    if is_working_day(today) and now.time() < cutoff:
        return today
    day = today + timedelta(days=1)
    while not is_working_day(day):
        day += timedelta(days=1)
    return day


def _terms(supplier_ids: set[int]) -> dict[int, _Terms]:
    columns = (Supplier.id, Supplier.name, Supplier.discount_percent, Supplier.delivery_promise, Supplier.order_cutoff)
    suppliers = db.session.execute(sa.select(*columns).where(Supplier.id.in_(supplier_ids))).all()
    brand_discounts: dict[int, dict[str, Decimal]] = {}
    query = sa.select(
        SupplierBrandDiscount.supplier_id, SupplierBrandDiscount.brand_key, SupplierBrandDiscount.discount_percent
    ).where(SupplierBrandDiscount.supplier_id.in_(supplier_ids))
    for supplier_id, brand_key, discount in db.session.execute(query):
        brand_discounts.setdefault(supplier_id, {})[brand_key] = Decimal(discount)
    return {
        row.id: _Terms(
            row.name,
            Decimal(row.discount_percent or 0),
            brand_discounts.get(row.id, {}),
            row.delivery_promise,
            _cutoff_time(row.order_cutoff),
        )
        for row in suppliers
    }


def _cutoff_time(text: str | None) -> time | None:
    try:
        return time.fromisoformat(text) if text else None
    except ValueError:
        return None


def _pricing(shop_id: uuid.UUID, views: list[LineView], now: datetime | None) -> _Pricing:
    now = (now or istanbul_now()).astimezone(ISTANBUL)
    foreign = any((view.currency or HOME_CURRENCY).upper() != HOME_CURRENCY for view in views)
    settings = settings_of(shop_id)
    return _Pricing(rates_on(now.date()) if foreign else {}, settings.with_kdv, Decimal(settings.kdv_rate), now)
