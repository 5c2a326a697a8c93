"""Supplier prices in TRY: the newest stored TCMB rate on or before a day, its date, and whether it is stale.

A rate is stale when more than two working days have passed since its bulletin: Saturdays, Sundays and Turkey's
fixed-date public holidays are not working days (TCMB publishes no bulletin on them, so Friday's rate on Monday is
fresh). The religious holidays move with the lunar calendar and are not counted: a rate is called stale a day or two
early around them, never late.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from zoneinfo import ZoneInfo

import sqlalchemy as sa

from app.core.db import utcnow
from app.extensions import db
from app.sources.tcmb import Bulletin
from app.suppliers.currency.models import CurrencyRate

ISTANBUL = ZoneInfo("Europe/Istanbul")
HOME_CURRENCY = "TRY"
STALE_AFTER_WORKING_DAYS = 2
# (month, day): New Year, National Sovereignty and Children's Day, Labour Day, Youth Day, Democracy Day, Victory Day,
# Republic Day.
FIXED_HOLIDAYS = frozenset({(1, 1), (4, 23), (5, 1), (5, 19), (7, 15), (8, 30), (10, 29)})
KURUS = Decimal("0.01")
RATE_PLACES = Decimal("0.000001")  # the column's scale
MAX_AMOUNT = Decimal(10) ** 15  # past any price; keeps the arithmetic within Decimal's precision


@dataclass(frozen=True)
class RateOnDay:
    currency: str
    try_per_unit: Decimal
    rate_date: date


@dataclass(frozen=True)
class PriceInTry:
    """A price in TRY with what it was converted by; `amount` and `rate` are None when the currency has no rate."""

    currency: str
    amount: Decimal | None
    rate: Decimal | None
    rate_date: date | None
    stale: bool

    @property
    def has_rate(self) -> bool:
        return self.amount is not None


def istanbul_today() -> date:
    return datetime.now(ISTANBUL).date()


def is_working_day(day: date) -> bool:
    return day.weekday() < 5 and (day.month, day.day) not in FIXED_HOLIDAYS


def working_days_after(start: date, end: date) -> int:
    """The working days after `start` up to and including `end` (0 when `end` is not after `start`)."""
    span = (end - start).days
    if span > 60:  # far past any staleness question; no need to count
        return span
    return sum(1 for offset in range(1, span + 1) if is_working_day(start + timedelta(days=offset)))


def is_stale(rate_date: date, on: date) -> bool:
    return working_days_after(rate_date, on) > STALE_AFTER_WORKING_DAYS


def rates_on(on: date | None = None) -> dict[str, RateOnDay]:
    """Each currency's newest rate on or before `on` (today in Istanbul), in one query: for a page of prices."""
    on = on or istanbul_today()
    newest = (
        sa.select(CurrencyRate.currency, sa.func.max(CurrencyRate.rate_date).label("rate_date"))
        .where(CurrencyRate.rate_date <= on)
        .group_by(CurrencyRate.currency)
        .subquery()
    )
    rows = db.session.execute(
        sa.select(CurrencyRate.currency, CurrencyRate.try_per_unit, CurrencyRate.rate_date).join(
            newest, sa.and_(CurrencyRate.currency == newest.c.currency, CurrencyRate.rate_date == newest.c.rate_date)
        )
    )
    return {row.currency: RateOnDay(row.currency, Decimal(row.try_per_unit), row.rate_date) for row in rows}


def convert(amount: Decimal | int | str, currency: str, rates: dict[str, RateOnDay], on: date) -> PriceInTry:
    """`amount` of `currency` in TRY by `rates` (from `rates_on(on)`); TRY passes through; no rate, no amount."""
    code = (currency or "").strip().upper()
    value = _decimal(amount)
    if code == HOME_CURRENCY and value is not None:
        return PriceInTry(code, value.quantize(KURUS, ROUND_HALF_UP), Decimal(1), on, stale=False)
    rate = rates.get(code)
    if rate is None or value is None:
        return PriceInTry(code, None, None, None, stale=False)
    in_try = (value * rate.try_per_unit).quantize(KURUS, ROUND_HALF_UP)
    return PriceInTry(code, in_try, rate.try_per_unit, rate.rate_date, stale=is_stale(rate.rate_date, on))


def in_try(amount: Decimal | int | str, currency: str, on: date | None = None) -> PriceInTry:
    """`amount` of `currency` in TRY at the newest rate on or before `on` (today in Istanbul)."""
    on = on or istanbul_today()
    return convert(amount, currency, rates_on(on), on)


def _decimal(amount: Decimal | int | str) -> Decimal | None:
    try:
        value = Decimal(str(amount))
    except (InvalidOperation, ValueError):
        return None
    return value if value.is_finite() and abs(value) < MAX_AMOUNT else None


def store_bulletin(bulletin: Bulletin) -> int:
    """Write the bulletin's rates, one row per currency and day (a fetch of the same bulletin again updates them in
    place); returns how many it holds. Adds and flushes."""
    existing = {
        row.currency: row
        for row in db.session.scalars(sa.select(CurrencyRate).where(CurrencyRate.rate_date == bulletin.day))
    }
    now = utcnow()
    stored = 0
    for rate in bulletin.rates:
        if rate.try_per_unit is None or rate.code == HOME_CURRENCY:
            continue
        value = rate.try_per_unit.quantize(RATE_PLACES, ROUND_HALF_UP)
        row = existing.get(rate.code)
        if row is None:
            db.session.add(CurrencyRate(currency=rate.code, rate_date=bulletin.day, try_per_unit=value, fetched_at=now))
        else:
            row.try_per_unit, row.fetched_at = value, now
        stored += 1
    db.session.flush()
    return stored


def fetched_on(day: date) -> bool:
    """Whether any rate was fetched on `day` (an Istanbul date)."""
    start = datetime(day.year, day.month, day.day, tzinfo=ISTANBUL)
    query = sa.select(CurrencyRate.id).where(CurrencyRate.fetched_at >= start).limit(1)
    return db.session.scalar(query) is not None
