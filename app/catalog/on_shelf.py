"""The dealer's shelf list on the catalog's part rows (app.shelf.lookup): each row's `shelf` (null when the list
does not carry its number), added to a page of part views at once, and the line the parts table shows of it
("Rafta 3 · 1.250,50 ₺ · kodunuz X", which number matched, "yerine: B (Rafta 2 · …)").

Numbers are written the Turkish way whatever the page's language: they are the dealer's own prices, as his stock
program and his customers write them. The symbols are Babel's for the Turkish locale; the digits are grouped by
Python's format, since Babel's formatting of each price was a sixth of a hundred-row page.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from decimal import Decimal
from functools import cache, lru_cache
from typing import Any

from babel.numbers import get_currency_symbol, get_decimal_symbol, get_group_symbol
from flask_babel import get_locale
from flask_babel import gettext as _

from app.core.text import fold_code
from app.shelf import lookup

NUMBER_LOCALE = "tr"


def add_shelf(
    user_id: uuid.UUID | None, parts: list[dict[str, Any]], in_use: lookup.ListInUse | None, others: bool = False
) -> None:
    """Set each coded part view's `shelf` from one lookup for the whole page; `in_use` is the list in use of the
    member's branch as his rows were read with it (None: no list). When other branches of his shop have a list
    (`others`, read beside the rows: `lookup.others_listed`), the shelf also says what each branch holds
    (`branches`, his own first); a row only another branch carries gets that branch's row."""
    if user_id is None:
        return
    others = [listed for listed in lookup.shop_lists(user_id) if listed.in_use != in_use] if others else []
    if in_use is None and not others:
        return
    keyed = [(search_key(part["oemCode"]), part) for part in parts if part["oemCode"] and not part.get("reference")]
    asked = {key: part["oemCode"] for key, part in keyed}
    views = lookup.views_for_keys(asked, in_use)
    if not others:
        for key, part in keyed:
            part["shelf"] = views.get(key)
        return
    own = lookup.own_branch_name(user_id) if in_use is not None else None
    by_branch = [(own, views)] if in_use is not None else []
    by_branch += [(listed.name, lookup.views_for_keys(asked, listed.in_use)) for listed in others]
    for key, part in keyed:
        part["shelf"] = _with_branches(key, by_branch)


def shelf_lists_key(user_id: uuid.UUID | None, others: bool) -> list[Any]:
    """What the shelf of a page's rows depends on beyond the member's own list: the other branches' lists in use."""
    if not others:
        return []
    return [[listed.name, listed.in_use.import_id, listed.in_use.activated_at] for listed in lookup.shop_lists(user_id)]


def _with_branches(key: str, by_branch: list[tuple[str | None, dict[str, dict[str, Any]]]]) -> dict[str, Any] | None:
    """The first branch's row of the number (the member's own branch first), with every branch's stock of it."""
    held = [(name, views[key]) for name, views in by_branch if key in views]
    if not held:
        return None
    branches = [{"name": name, "stock": view["stock"]} for name, view in held]
    return {**held[0][1], "branches": branches}  # the kept views are shared: never changed


@lru_cache(maxsize=65_536)
def search_key(code: str) -> str:
    """A catalog code's search key (fold_code), kept: the same codes are on every page shown again."""
    return fold_code(code)


# --- the parts table's line ---------------------------------------------------------------------------------------


def shelf_line(shelf: dict[str, Any] | None) -> dict[str, Any] | None:
    """What the parts table shows of a row's `shelf` (None for a row without): its summary (stock, price, own code:
    pieces the table joins with " · "), how it matched and its current number. A template global: the parts tables
    call it inside the kept fragment, so a kept table costs it nothing (its `shelf` is in the fragment's key)."""
    return _texts(str(get_locale())).line(shelf) if shelf else None


@lru_cache(maxsize=8)
def _texts(_locale: str) -> _Texts:
    """The line's texts in a language, looked up once (the request's language is the one asked)."""
    return _Texts.current()


@dataclass(frozen=True)
class _Texts:
    """The line's texts in the request's language, as %-patterns."""

    on_shelf: str
    none_on_shelf: str
    your_code: str
    on_your_list: str
    replaced_by: str
    not_on_your_list: str
    matched: dict[str, str]

    @classmethod
    def current(cls) -> _Texts:
        return cls(
            on_shelf=_("On shelf %(count)s", count="%(count)s"),
            none_on_shelf=_("None on shelf"),
            your_code=_("your code %(code)s", code="%(code)s"),
            on_your_list=_("On your list"),
            replaced_by=_("replaced by: %(number)s", number="%(number)s"),
            not_on_your_list=_("not on your list"),
            matched={
                "oem": _("matched by the OEM number"),
                "own": _("matched by your code"),
                "aftermarket": _("matched by an aftermarket number"),
                "replaces": _("your row %(number)s is replaced by this part", number="%(number)s"),
            },
        )

    def line(self, shelf: dict[str, Any]) -> dict[str, Any]:
        own_code = shelf["ownCode"]
        summary = self._stock_and_price(shelf) + ([self.your_code % {"code": own_code}] if own_code else [])
        matched = shelf["matched"]
        current = shelf["current"]
        return {
            "branches": [self._branch(branch) for branch in shelf.get("branches") or ()],
            "summary": summary or [self.on_your_list],
            "inStock": bool(shelf["stock"]),
            "matched": self.matched[matched["kind"]] % {"number": matched["number"]},
            "current": self._current(current) if current else None,
        }

    @staticmethod
    def _branch(branch: dict[str, Any]) -> str:
        """Kadıköy: 2 (a branch without a stock figure: its name only)."""
        stock = branch["stock"]
        return f"{branch['name']}: {count_text(stock)}" if stock is not None else branch["name"]

    def _stock_and_price(self, item: dict[str, Any]) -> list[str]:
        shown = []
        stock = item["stock"]
        if stock is not None:
            shown.append(self.on_shelf % {"count": count_text(stock)} if stock else self.none_on_shelf)
        if item["price"] is not None:
            shown.append(price_text(Decimal(item["price"]), item["currency"] or "TRY"))
        return shown

    def _current(self, current: dict[str, Any]) -> str:
        replaced_by = self.replaced_by % {"number": current["number"]}
        details = " · ".join(self._stock_and_price(current)) or self.not_on_your_list
        return f"{replaced_by} ({details})"


def price_text(price: Decimal, currency: str) -> str:
    """1.250,50 ₺: two decimals, Turkish separators, the currency's symbol after (its code when it has none), held to
    the number by a no-break space."""
    decimal, group = _separators()
    digits = f"{price:,.2f}".replace(",", "\0").replace(".", decimal).replace("\0", group)
    return f"{digits}\N{NO-BREAK SPACE}{_currency_symbol(currency)}"


def count_text(count: int) -> str:
    """1.250: a stock count with the Turkish group separator."""
    return f"{count:,}".replace(",", _separators()[1])


@cache
def _separators() -> tuple[str, str]:
    return get_decimal_symbol(NUMBER_LOCALE), get_group_symbol(NUMBER_LOCALE)


@lru_cache(maxsize=64)
def _currency_symbol(currency: str) -> str:
    return get_currency_symbol(currency, NUMBER_LOCALE)
