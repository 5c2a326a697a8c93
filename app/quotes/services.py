"""A shop's quotes: the open quote of the vehicle in front of the clerk, its lines (catalog parts or free), totals
with KDV, the shared read-only link and the shop's quote settings.

A quote belongs to the shop (every member sees, edits and sends the quotes colleagues started) and carries the branch
of the member who started it. Every quote and line is read through its shop (`quote_of`, `line_of`): another shop's
id is "not found", never "forbidden", so ids say nothing of who has them. Amounts are Decimal, rounded half up to kuruş.
"""

from __future__ import annotations

import hashlib
import secrets
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

import sqlalchemy as sa
from flask_babel import gettext as _

from app.accounts.models import User
from app.catalog import names
from app.catalog import services as catalog
from app.catalog.models import Part
from app.core.db import utcnow
from app.core.errors import ApiError
from app.extensions import db
from app.quotes import amounts
from app.quotes.models import Quote, QuoteLine, QuoteProfile
from app.quotes.prices import shelf_price
from app.shops import activity
from app.shops import services as shops
from app.shops.models import Branch
from app.suppliers import markup, offers

SHARE_DAYS = 7
KURUS = Decimal("0.01")
NAME_MAX_LENGTH = 300  # as QuoteLine.name
CUSTOMER_MAX_LENGTH = 120
SHOP_NAME_MAX_LENGTH = 120
PHONE_MAX_LENGTH = 40
LINES_MAX = 200  # a quote longer than this is no quote a customer reads
LIST_MAX = 200


# --- reading ------------------------------------------------------------------------------------------------------


def quote_of(member: User, quote_id: int) -> Quote:
    """The quote `quote_id` of the member's shop; another shop's, or none, is not found."""
    quote = db.session.get(Quote, quote_id)
    if quote is None or quote.shop_id != member.shop_id:
        raise ApiError("quote_not_found", _("No such quote was found."), 404)
    return quote


def line_of(quote: Quote, line_id: int) -> QuoteLine:
    line = db.session.get(QuoteLine, line_id)
    if line is None or line.quote_id != quote.id:
        raise ApiError("quote_line_not_found", _("No such quote line was found."), 404)
    return line


def lines_of(quote: Quote) -> list[QuoteLine]:
    return list(
        db.session.scalars(
            sa.select(QuoteLine).where(QuoteLine.quote_id == quote.id).order_by(QuoteLine.sort_order, QuoteLine.id)
        )
    )


def quotes_of(member: User) -> list[tuple[Quote, list[QuoteLine]]]:
    """The shop's latest quotes (of every member), newest first, each with its lines (two queries)."""
    quotes = list(
        db.session.scalars(
            sa.select(Quote).where(Quote.shop_id == member.shop_id).order_by(Quote.updated_at.desc(), Quote.id.desc())
        ).fetchmany(LIST_MAX)
    )
    by_quote: dict[int, list[QuoteLine]] = {quote.id: [] for quote in quotes}
    if quotes:
        query = sa.select(QuoteLine).where(QuoteLine.quote_id.in_(by_quote)).order_by(QuoteLine.sort_order)
        for line in db.session.scalars(query):
            by_quote[line.quote_id].append(line)
    return [(quote, by_quote[quote.id]) for quote in quotes]


@dataclass(frozen=True)
class Totals:
    net: Decimal
    kdv: Decimal
    gross: Decimal
    kdv_rate: Decimal
    unpriced: int  # lines without a price yet: not in the totals


def line_total(line: QuoteLine) -> Decimal | None:
    if line.unit_price is None:
        return None
    return (Decimal(line.quantity) * Decimal(line.unit_price)).quantize(KURUS, ROUND_HALF_UP)


def totals(quote: Quote, lines: list[QuoteLine]) -> Totals:
    """Net (the lines' totals, each rounded), KDV at the quote's rate and gross, in kuruş."""
    priced = [total for total in map(line_total, lines) if total is not None]
    net = sum(priced, Decimal("0.00"))
    rate = Decimal(quote.kdv_rate)
    kdv = (net * rate / 100).quantize(KURUS, ROUND_HALF_UP)
    return Totals(net=net, kdv=kdv, gross=net + kdv, kdv_rate=rate, unpriced=len(lines) - len(priced))


@dataclass(frozen=True)
class Margin:
    """What a line with a supplier's cost earns: its cost (quantity × unit cost), its margin (its total less that)
    and the margin's percent of the sale (None for a sale of 0). The dealer's only: never on the customer's link."""

    cost: Decimal
    amount: Decimal
    percent: Decimal | None


def line_margin(line: QuoteLine) -> Margin | None:
    """The line's cost and margin; None for a line without a cost or without a price."""
    total = line_total(line)
    if line.unit_cost is None or total is None:
        return None
    cost = (Decimal(line.quantity) * Decimal(line.unit_cost)).quantize(KURUS, ROUND_HALF_UP)
    return Margin(cost, total - cost, _percent(total - cost, total))


def margin_totals(lines: list[QuoteLine]) -> Margin | None:
    """The cost and margin of the lines that have both a cost and a price; None when none has."""
    found = [margin for margin in map(line_margin, lines) if margin is not None]
    if not found:
        return None
    cost = sum((margin.cost for margin in found), Decimal("0.00"))
    amount = sum((margin.amount for margin in found), Decimal("0.00"))
    return Margin(cost, amount, _percent(amount, cost + amount))


def _percent(part: Decimal, whole: Decimal) -> Decimal | None:
    return (part * 100 / whole).quantize(Decimal("0.1"), ROUND_HALF_UP) if whole else None


def share_state(quote: Quote) -> str:
    """none, active, revoked or expired: what the quote's link does now."""
    if quote.share_token_hash is None:
        return "none"
    if quote.revoked_at is not None:
        return "revoked"
    if quote.expires_at is not None and quote.expires_at <= utcnow():
        return "expired"
    return "active"


def profile_of(shop_id: uuid.UUID) -> QuoteProfile:
    """The shop's quote settings (unsaved defaults when it has none)."""
    return db.session.get(QuoteProfile, shop_id) or QuoteProfile(shop_id=shop_id)


def kdv_rate_of(shop_id: uuid.UUID) -> Decimal:
    """The shop's KDV rate: its next quotes' and its offers' (one setting, kept with the offer settings)."""
    return Decimal(offers.settings_of(shop_id).kdv_rate)


def shop_name(shop_id: uuid.UUID, profile: QuoteProfile) -> str:
    """The name the shop's quotes carry: the one in the quote settings, else the shop's. Read from the quote's shop,
    never from a member's (the member who made a quote may have left for a shop of their own since)."""
    return profile.shop_name or shops.shop_name(shop_id)


@dataclass(frozen=True)
class BranchDetails:
    name: str | None
    address: str | None
    phone: str | None


def branch_details(quote: Quote) -> BranchDetails:
    """The branch a quote comes from, as it was sent (frozen with the quote) or, for a draft, as it is now."""
    if is_frozen(quote):
        return BranchDetails(quote.sent_branch_name, quote.sent_branch_address, quote.sent_branch_phone)
    branch = db.session.get(Branch, quote.branch_id) if quote.branch_id is not None else None
    if branch is None:
        return BranchDetails(None, None, None)
    return BranchDetails(branch.name, branch.address, branch.phone)


# --- writing ------------------------------------------------------------------------------------------------------


def create_quote(user: User, vehicle_id: int | None = None, customer: str = "") -> Quote:
    """A new draft, for a vehicle the dealer may open (its title and VIN kept) or for none."""
    vehicle = catalog.open_vehicle(user, vehicle_id) if vehicle_id is not None else None
    quote = Quote(
        shop_id=user.shop_id,
        branch_id=user.branch_id,
        user_id=user.id,
        vehicle_id=vehicle.id if vehicle else None,
        vin=vehicle.vin[:17] if vehicle and vehicle.vin else None,
        vehicle_title=(vehicle.title if vehicle else "")[:200],
        customer=customer or None,
        status="draft",
        kdv_rate=kdv_rate_of(user.shop_id),
    )
    db.session.add(quote)
    db.session.flush()
    return quote


def open_quote(member: User, vehicle_id: int) -> Quote | None:
    """The shop's open quote for the vehicle, started in the member's branch: its latest draft (a sent quote is the
    customer's now)."""
    return db.session.scalar(
        sa.select(Quote)
        .where(
            Quote.shop_id == member.shop_id,
            Quote.branch_id == member.branch_id,
            Quote.vehicle_id == vehicle_id,
            Quote.status == "draft",
        )
        .order_by(Quote.id.desc())
        .limit(1)
    )


def add_catalog_part(
    user: User, vehicle_id: int, part_id: int, offer_line_id: int | None = None
) -> tuple[Quote, QuoteLine]:
    """The vehicle's part added to the vehicle's open quote (created on the first add), with the supplier's offer
    `offer_line_id` when one was chosen; added again (the same part, the same offer or none), its line's quantity
    grows by the part row's quantity."""
    vehicle = catalog.open_vehicle(user, vehicle_id)
    part = catalog.part_with_code(vehicle, part_id)
    offer = _offer(user, offer_line_id) if offer_line_id is not None else None
    quote = open_quote(user, vehicle.id) or create_quote(user, vehicle.id)
    same_offer = QuoteLine.supplier_line_id == offer.line_id if offer else QuoteLine.supplier_line_id.is_(None)
    query = sa.select(QuoteLine).where(QuoteLine.quote_id == quote.id, QuoteLine.part_id == part.id, same_offer)
    line = db.session.scalars(query.order_by(QuoteLine.id)).first()
    if line is not None:
        line.quantity = _checked_quantity(Decimal(line.quantity) + _part_quantity(part))
        _touch(quote)
        return quote, line
    if offer is not None:
        return quote, _add_offer_line(user, quote, offer, part, None)
    return quote, _add_part_line(user, quote, part, None, None)


def add_offer_line(
    user: User, quote: Quote, line_id: int, part_id: int | None = None, quantity: Any = None
) -> QuoteLine:
    """A supplier's offer (a line of the shop's lists in use) as a new line: its cost now (net TRY after the
    discount, without KDV) kept, priced by the shop's markup rule; named by the quote vehicle's part `part_id` when
    given, else by the offer."""
    _editable(quote)
    offer = _offer(user, line_id)
    part = None
    if part_id is not None:
        if quote.vehicle_id is None:
            raise ApiError("quote_has_no_vehicle", _("This quote has no vehicle: add free lines to it."), 422)
        part = catalog.part_with_code(catalog.open_vehicle(user, quote.vehicle_id), part_id)
    return _add_offer_line(user, quote, offer, part, quantity)


def _offer(user: User, line_id: int) -> offers.Offer:
    offer = offers.offer_of_line(user.shop_id, line_id)
    if offer is None:
        raise ApiError(
            "offer_not_found",
            _("This offer is no longer available: the supplier's list has changed. Look at the offers again."),
            404,
        )
    return offer


def choose_offer(user: User, quote: Quote, line: QuoteLine, chosen: Callable[[], int | None]) -> QuoteLine:
    """A supplier's offer chosen for a part line already on the quote: its cost now and its marked-up price replace
    the line's supplier, cost and price (a line that is not a part's is refused). `chosen` reads the offer's line id
    from the request once the quote is known to take changes (a sent quote refuses whatever the form holds)."""
    _editable(quote)
    if line.kind != "part":
        raise ApiError("not_a_part_line", _("An offer can be chosen for a part line only."), 422)
    line_id = chosen()
    if line_id is None:
        raise ApiError("invalid_field", _("Choose an offer."), 400)
    for field, value in _offer_fields(user, _offer(user, line_id)).items():
        setattr(line, field, value)
    _touch(quote)
    return line


def _offer_fields(user: User, offer: offers.Offer) -> dict[str, Any]:
    """What a line keeps of a chosen offer: the supplier, its line and code, the cost now (net TRY after the discount,
    without KDV) and the sale price the shop's markup rule gives (none when the price has no TRY rate yet: the dealer
    sets one)."""
    price = None
    if offer.net is not None:
        price = markup.sale_price(user.shop_id, offer.supplier_id, offer.brand, offer.net)[0]
    return {
        "unit_price": price,
        "supplier_id": offer.supplier_id,
        "supplier_line_id": offer.line_id,
        "supplier_name": offer.supplier_name[:120],
        "offer_brand": (offer.brand or "")[:80] or None,
        "offer_code": (offer.own_code or "")[:80] or None,
        "unit_cost": offer.net,
    }


def _add_offer_line(user: User, quote: Quote, offer: offers.Offer, part: Part | None, quantity: Any) -> QuoteLine:
    given_quantity = amounts.quantity(quantity) if quantity is not None else None
    if part is not None:
        shown = names.fields_of(part.name, part.name_lang, part.name_tr, part.name_tr_complete, english=False)["name"]
        name, code = shown or part.label or part.oem_code, part.oem_code
    else:
        code = offer.own_code or offer.number
        name = " ".join(filter(None, (offer.brand, offer.name))) or code
    line = QuoteLine(
        kind="part",
        part_id=part.id if part else None,
        category_id=part.category_id if part else None,
        oem_code=(code or "")[:60] or None,
        name=(name or _("Supplier's offer"))[:NAME_MAX_LENGTH],
        quantity=given_quantity if given_quantity is not None else (_part_quantity(part) if part else Decimal(1)),
        **_offer_fields(user, offer),
    )
    return _append(quote, line)


def add_part_line(user: User, quote: Quote, part_id: int, quantity: Any = None, unit_price: Any = None) -> QuoteLine:
    """A part of the quote's vehicle as a new line; quantity and price default to the row's and the shelf's."""
    _editable(quote)
    if quote.vehicle_id is None:
        raise ApiError("quote_has_no_vehicle", _("This quote has no vehicle: add free lines to it."), 422)
    part = catalog.part_with_code(catalog.open_vehicle(user, quote.vehicle_id), part_id)
    return _add_part_line(user, quote, part, quantity, unit_price)


def _add_part_line(user: User, quote: Quote, part: Part, quantity: Any, unit_price: Any) -> QuoteLine:
    given_quantity = amounts.quantity(quantity) if quantity is not None else None
    price = amounts.price(unit_price) if unit_price is not None else shelf_price(user.id, part.oem_code)
    shown = names.fields_of(part.name, part.name_lang, part.name_tr, part.name_tr_complete, english=False)["name"]
    line = QuoteLine(
        kind="part",
        part_id=part.id,
        category_id=part.category_id,
        oem_code=part.oem_code[:60],
        name=(shown or part.label or part.oem_code)[:NAME_MAX_LENGTH],
        quantity=given_quantity if given_quantity is not None else _part_quantity(part),
        unit_price=price,
    )
    return _append(quote, line)


def add_free_line(quote: Quote, name: Any, quantity: Any = None, unit_price: Any = None) -> QuoteLine:
    """Labour or any other item, named by the dealer."""
    _editable(quote)
    line = QuoteLine(
        kind="free",
        name=_name(name),
        quantity=amounts.quantity(quantity) if quantity is not None else Decimal(1),
        unit_price=amounts.price(unit_price),
    )
    return _append(quote, line)


def edit_line(quote: Quote, line: QuoteLine, changes: dict[str, Any]) -> QuoteLine:
    """Change a line's quantity, unit price (None clears it) or name; the rest is left as it is. Every change is
    checked before any is made: a refused one leaves the line as it was."""
    _editable(quote)
    edits = {
        "quantity": ("quantity", amounts.quantity),
        "unitPrice": ("unit_price", amounts.price),
        "name": ("name", _name),
    }
    checked = {field: check(changes[key]) for key, (field, check) in edits.items() if key in changes}
    for field, value in checked.items():
        setattr(line, field, value)
    _touch(quote)
    return line


def _name(value: Any) -> str:
    return amounts.text(value, _("Name"), NAME_MAX_LENGTH, required=True)


def delete_line(quote: Quote, line: QuoteLine) -> None:
    _editable(quote)
    db.session.delete(line)
    _touch(quote)


def share(member: User, quote: Quote) -> str:
    """A new link for the quote (noted in the shop's activity as the member's), valid SHARE_DAYS days (an earlier
    link stops working); the token is returned once and only its SHA-256 kept. From now on the quote is frozen, the
    shop's name and phone and its branch's name, address and phone kept as they are sent."""
    token = secrets.token_urlsafe(32)
    now = utcnow()
    branch = branch_details(quote)
    profile = profile_of(quote.shop_id)
    quote.sent_shop_name, quote.sent_phone = shop_name(quote.shop_id, profile)[:SHOP_NAME_MAX_LENGTH], profile.phone
    quote.sent_branch_name, quote.sent_branch_address, quote.sent_branch_phone = (
        branch.name,
        branch.address,
        branch.phone,
    )
    quote.share_token_hash = token_hash(token)
    quote.shared_at, quote.expires_at, quote.revoked_at = now, now + timedelta(days=SHARE_DAYS), None
    quote.first_opened_at = None
    quote.status = "sent"
    _touch(quote)
    activity.record(member, "quote_sent", f"#{quote.id}")
    return token


def revoke(quote: Quote) -> None:
    """The quote's link stops working (410); a new one can be made."""
    if quote.share_token_hash is None:
        raise ApiError("quote_not_shared", _("This quote has not been shared."), 409)
    if quote.revoked_at is None:
        quote.revoked_at = utcnow()
        _touch(quote)


def shared_quote(token: str) -> Quote:
    """The quote a shared link names, by its token's hash; revoked or expired: 410. Reading it records nothing: a
    link preview's fetch reads it too (see `mark_opened`)."""
    quote = db.session.scalar(sa.select(Quote).where(Quote.share_token_hash == token_hash(token)))
    if quote is None:
        raise ApiError("quote_link_not_found", _("This quote link is not valid."), 404)
    if share_state(quote) != "active":
        raise ApiError("quote_link_gone", _("This quote is no longer available. Ask the dealer for a new one."), 410)
    return quote


def mark_opened(token: str, viewer: User | None) -> bool:
    """A person has the shared page in front of him (its beacon): the quote's first opening by anyone but a member
    of its shop is recorded (state "opened"); later ones change nothing. Whether this one recorded it."""
    quote = shared_quote(token)
    if quote.first_opened_at is not None or (viewer is not None and viewer.shop_id == quote.shop_id):
        return False
    quote.first_opened_at = utcnow()
    quote.status = "opened"
    return True


def newer_version_sent(quote: Quote) -> bool:
    """Whether a later version of the quote has been shared (its link then says a newer quote exists)."""
    newer_sent = sa.and_(Quote.version > quote.version, Quote.shared_at.is_not(None))
    return bool(db.session.scalar(sa.select(sa.literal(True)).where(_series(quote), newer_sent).limit(1)))


def _series(quote: Quote) -> sa.ColumnElement[bool]:
    """The quote's versions: the series' first quote and every version of it (the shop's own)."""
    first = quote.version_of or quote.id
    return sa.and_(Quote.shop_id == quote.shop_id, sa.or_(Quote.id == first, Quote.version_of == first))


def is_frozen(quote: Quote) -> bool:
    """A quote once shared is what the customer was sent: it is changed on a new version only."""
    return quote.status != "draft"


def new_version(quote: Quote) -> Quote:
    """A draft copy of a sent quote, its lines with it, as the series' next version; a draft version already made is
    answered again instead of a second one. A draft is its own newest version."""
    if not is_frozen(quote):
        return quote
    found = db.session.scalars(sa.select(Quote).where(_series(quote)).order_by(Quote.version.desc())).all()
    draft = next((other for other in found if other.status == "draft" and other.version > quote.version), None)
    if draft is not None:
        return draft
    copy = Quote(
        shop_id=quote.shop_id,
        branch_id=quote.branch_id,
        user_id=quote.user_id,
        vehicle_id=quote.vehicle_id,
        vin=quote.vin,
        vehicle_title=quote.vehicle_title,
        customer=quote.customer,
        status="draft",
        kdv_rate=quote.kdv_rate,
        version_of=quote.version_of or quote.id,
        version=found[0].version + 1,
    )
    db.session.add(copy)
    db.session.flush()
    for line in lines_of(quote):
        db.session.add(QuoteLine(quote_id=copy.id, **{key: getattr(line, key) for key in LINE_COPIED}))
    db.session.flush()
    return copy


LINE_COPIED = (
    "kind",
    "part_id",
    "category_id",
    "oem_code",
    "name",
    "quantity",
    "unit_price",
    "sort_order",
    "supplier_id",
    "supplier_line_id",
    "supplier_name",
    "offer_brand",
    "offer_code",
    "unit_cost",
)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def save_profile(shop_id: uuid.UUID, data: dict[str, Any]) -> QuoteProfile:
    """The shop's name and phone on its quotes, and its KDV rate (0-100 %): its next quotes' and its offers'."""
    profile = db.session.get(QuoteProfile, shop_id) or QuoteProfile(shop_id=shop_id)
    profile.shop_name = amounts.text(data.get("shopName"), _("Shop name"), SHOP_NAME_MAX_LENGTH) or None
    profile.phone = amounts.text(data.get("phone"), _("Phone"), PHONE_MAX_LENGTH) or None
    rate = amounts.kdv_rate(data.get("kdvRate"))
    db.session.add(profile)
    markup.save_settings(shop_id, {"kdvRate": rate})
    db.session.flush()
    return profile


def set_quote_rate(quote: Quote, rate: Any) -> None:
    _editable(quote)
    quote.kdv_rate = amounts.kdv_rate(rate)
    _touch(quote)


def _part_quantity(part: Part) -> Decimal:
    return Decimal(part.quantity) if part.quantity and part.quantity > 0 else Decimal(1)


def _checked_quantity(value: Decimal) -> Decimal:
    return amounts.quantity(str(value))


def _append(quote: Quote, line: QuoteLine) -> QuoteLine:
    count, last = db.session.execute(
        sa.select(sa.func.count(), sa.func.max(QuoteLine.sort_order)).where(QuoteLine.quote_id == quote.id)
    ).one()
    if count >= LINES_MAX:
        raise ApiError("quote_full", _("A quote can have at most %(num)d lines.", num=LINES_MAX), 422)
    line.quote_id = quote.id
    line.sort_order = (last or 0) + 1
    db.session.add(line)
    db.session.flush()
    _touch(quote)
    return line


def _editable(quote: Quote) -> None:
    if is_frozen(quote):
        raise ApiError(
            "quote_sent",
            _("This quote was sent to the customer and stays as it was sent. To change it, make a new version."),
            409,
        )


def _touch(quote: Quote) -> None:
    quote.updated_at = utcnow()
