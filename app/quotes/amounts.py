"""Quantities, prices, rates and names as a dealer types them, checked before anything is stored.

A form sends text as a Turkish clerk writes it ("1.250,50", "1250,5", "₺ 1.250", "3"), the API a JSON number or the
same text. Refused with a Turkish message: anything not a number, NaN and infinities, negative or absurd amounts,
more digits than a column holds.
"""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any, cast

from flask_babel import gettext as _

from app.core.errors import ApiError
from app.core.validation import UNSTORABLE, text_field

KURUS = Decimal("0.01")
PRICE_MAX = Decimal(1_000_000_000)  # a unit price above a billion lira is a typing error
QUANTITY_MAX = Decimal(100_000)
RATE_MAX = Decimal(100)
RAW_MAX_LENGTH = 40  # longer text is no amount (and Decimal() of a huge string is slow)
CURRENCY_MARKS = re.compile(r"(?i)₺|\btl\b|\btry\b|\s")
GROUPED_THOUSANDS = re.compile(r"^\d{1,3}(\.\d{3})+$")  # "1.250" or "1.250.000": dots group thousands


def price(value: Any) -> Decimal | None:
    """A unit price from 0 to a billion lira in kuruş; empty is no price (None)."""
    return _amount(value, _("Unit price"), PRICE_MAX, allow_zero=True, optional=True)


def quantity(value: Any) -> Decimal:
    """A quantity above 0, at most QUANTITY_MAX, to two decimals (litres of oil, metres of hose)."""
    return cast(Decimal, _amount(value, _("Quantity"), QUANTITY_MAX, allow_zero=False, optional=False))


def kdv_rate(value: Any) -> Decimal:
    """A KDV rate from 0 to 100 %."""
    return cast(Decimal, _amount(value, _("KDV rate"), RATE_MAX, allow_zero=True, optional=False))


def text(value: Any, label: str, max_length: int, *, required: bool = False) -> str:
    """A text field with its blanks collapsed (app.core.validation.text_field's checks, and no characters a database
    cannot keep); a name's HTML is kept as text (templates escape it)."""
    if isinstance(value, str) and UNSTORABLE.search(value):
        raise ApiError("invalid_characters", _("%(field)s contains characters that are not allowed.", field=label), 400)
    return " ".join(text_field({"value": value}, "value", label, max_length=max_length, required=required).split())


def _amount(value: Any, label: str, maximum: Decimal, *, allow_zero: bool, optional: bool) -> Decimal | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        if optional:
            return None
        raise ApiError("missing_field", _("%(field)s is required.", field=label), 400)
    number = _decimal(value)
    if number is None or not number.is_finite():
        raise ApiError("invalid_amount", _("%(field)s must be a number, e.g. 1.250,50.", field=label), 400)
    if number < 0 or (number == 0 and not allow_zero) or number > maximum:
        low = "0" if allow_zero else _("more than 0")
        raise ApiError(
            "amount_out_of_range",
            _("%(field)s must be from %(low)s to %(max)s.", field=label, low=low, max=f"{maximum:,}".replace(",", ".")),
            400,
        )
    return number.quantize(KURUS, ROUND_HALF_UP)


def _decimal(value: Any) -> Decimal | None:
    """The number in a JSON value or a clerk's text; None when it is none."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return Decimal(value) if abs(value) < 10**15 else Decimal("Infinity")
    if isinstance(value, float):
        return Decimal(repr(value)) if value == value else None  # NaN is not equal to itself
    if not isinstance(value, str) or len(value) > RAW_MAX_LENGTH:
        return None
    cleaned = CURRENCY_MARKS.sub("", value)
    try:
        return Decimal(_normalised(cleaned))
    except InvalidOperation:
        return None


def _normalised(text: str) -> str:
    """ "1.250,50" -> "1250.50", "1,250.50" -> "1250.50", "1250,5" -> "1250.5", "1.250" -> "1250"; the last of `,` and
    `.` is the decimal mark when both are there."""
    if not re.fullmatch(r"[+-]?[\d.,]+", text):
        return "x"  # letters, exponents, "NaN", "Infinity": not an amount a clerk types
    comma, dot = text.rfind(","), text.rfind(".")
    if comma >= 0 and dot >= 0:
        thousands, decimal = (".", ",") if comma > dot else (",", ".")
        return text.replace(thousands, "").replace(decimal, ".")
    if comma >= 0:
        return text.replace(",", ".") if text.count(",") == 1 else "x"
    if GROUPED_THOUSANDS.match(text.lstrip("+-")):
        return text.replace(".", "")
    return text
