"""What a converted price says of its rate, for the offers on a row: the rate, its bulletin day, and if it is old."""

from __future__ import annotations

from flask_babel import format_date, format_decimal
from flask_babel import gettext as _

from app.suppliers.currency.services import HOME_CURRENCY, PriceInTry


def rate_note(price: PriceInTry) -> str:
    """ "1 EUR = 49,6011 ₺ (TCMB 27.11.2026)", with "old rate" when stale; empty for a TRY price."""
    if price.currency == HOME_CURRENCY:
        return ""
    if price.rate is None or price.rate_date is None:
        return _("No TCMB rate for %(currency)s yet", currency=price.currency)
    note = _(
        "1 %(currency)s = %(rate)s ₺ (TCMB %(date)s)",
        currency=price.currency,
        rate=format_decimal(price.rate, format="#,##0.0000"),
        date=format_date(price.rate_date, "dd.MM.yyyy"),
    )
    return _("%(note)s, old rate", note=note) if price.stale else note
