"""The parsers that read a part's applicability from its sources' texts into the tree of `conditions`.

Parsing never raises. A blank field gives no condition; an option-code expression or a date field that cannot be
read gives `NotUnderstood`, which the evaluator answers with maybe ("rule not understood"); a remark's text that no
remark rule knows gives no condition.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from app.catalog.fit.conditions import All, Any, Condition, DateRange, Not, NotUnderstood, OneOf, has_option
from app.catalog.fit.facts import BODY_STYLE, ENGINE_CODE, GEARBOX_CODE, MODEL_CODE, BuildDate, normalized
from app.catalog.fit.remarks import parse_remark
from app.core.text import fold

# Option codes as the portal writes them --------------------------------------------------------------------------

_OPTION_TOKEN = re.compile(r"\s*(?:(?P<code>[A-Z0-9]+)|(?P<op>[+/,!()]))")


def parse_options(text: str | None) -> Condition | None:
    """An option-code expression: "+" AND, "/" or "," OR, "!" NOT, parentheses; None when blank.

    "/" binds tighter than "+", as the portal writes alternatives within one option family joined to the next
    family by "+": "1KD+!1KE/1KF" is 1KD and (not 1KE, or 1KF).
    """
    if not text or not text.strip():
        return None
    tokens = _option_tokens(text.upper())
    if tokens is None:
        return NotUnderstood(text)
    parser = _OptionParser(tokens)
    condition = parser.conjunction()
    if condition is None or parser.position != len(tokens):
        return NotUnderstood(text)
    return condition


def _option_tokens(text: str) -> list[str] | None:
    tokens, position = [], 0
    text = text.rstrip()
    while position < len(text):
        match = _OPTION_TOKEN.match(text, position)
        if match is None:
            return None
        tokens.append(match.group("code") or match.group("op"))
        position = match.end()
    return tokens


class _OptionParser:
    """Recursive descent over the tokens; each method returns None where the text breaks the grammar."""

    def __init__(self, tokens: list[str]) -> None:
        self.tokens = tokens
        self.position = 0

    def _peek(self) -> str | None:
        return self.tokens[self.position] if self.position < len(self.tokens) else None

    def _items(self, operators: set[str], item: Callable[[], Condition | None]) -> list[Condition] | None:
        first = item()
        if first is None:
            return None
        items = [first]
        while self._peek() in operators:
            self.position += 1
            following = item()
            if following is None:
                return None
            items.append(following)
        return items

    def conjunction(self) -> Condition | None:
        items = self._items({"+"}, self.disjunction)
        return None if items is None else (items[0] if len(items) == 1 else All(tuple(items)))

    def disjunction(self) -> Condition | None:
        items = self._items({"/", ","}, self.unary)
        return None if items is None else (items[0] if len(items) == 1 else Any(tuple(items)))

    def unary(self) -> Condition | None:
        symbol = self._peek()
        if symbol is None:
            return None
        self.position += 1
        if symbol == "!":
            inner = self.unary()
            return None if inner is None else Not(inner)
        if symbol == "(":
            inner = self.conjunction()
            if inner is None or self._peek() != ")":
                return None
            self.position += 1
            return inner
        return has_option(symbol) if symbol.isalnum() else None


# Date ranges ------------------------------------------------------------------------------------------------------

_DATE = re.compile(r"\b(?:(\d{1,2})[./])?((?:19|20)\d{2})\b")
_FROM_WORD = re.compile(r"\b(from|since|ab|seit|itibaren|den|dan|ten|tan)\b|>")
_TO_WORD = re.compile(r"\b(to|until|till|bis|kadar|ye|ya)\b|<")
_DASHES = ("-", "–")


def parse_dates(text: str | None) -> Condition | None:
    """A build-date range: "06.2015-11.2017", "from 06.2015", "to 11.2017", "ab 06/2015", "11.2017'ye kadar".

    A year alone starts with its January and ends with its December ("2015-2017"). None when the text is blank;
    `NotUnderstood` when it cannot be read as a range.
    """
    if not text or not text.strip():
        return None
    folded = fold(text)
    matches = list(_DATE.finditer(folded))
    try:
        if len(matches) == 2:
            start, end = _month(matches[0], as_end=False), _month(matches[1], as_end=True)
            if start <= end:
                return DateRange(start, end)
        elif len(matches) == 1:
            return _open_range(folded, matches[0]) or NotUnderstood(text)
    except ValueError:  # a month out of range
        pass
    return NotUnderstood(text)


def _open_range(folded: str, match: re.Match[str]) -> DateRange | None:
    before, after = folded[: match.start()], folded[match.end() :]
    words = f"{before} {after}"
    # "06.2015-" is open at the end, "-11.2017" at the start.
    says_from = bool(_FROM_WORD.search(words)) or after.strip().startswith(_DASHES)
    says_to = bool(_TO_WORD.search(words)) or before.strip().endswith(_DASHES)
    if says_from == says_to:
        return None
    return DateRange(start=_month(match, as_end=False)) if says_from else DateRange(end=_month(match, as_end=True))


def _month(match: re.Match[str], *, as_end: bool) -> BuildDate:
    month = match.group(1)
    return BuildDate(int(match.group(2)), int(month) if month else (12 if as_end else 1))


# Code sets ---------------------------------------------------------------------------------------------------------

_CODE_SEPARATORS = re.compile(r"[\s,;/]+")


def codes(fact: str, values: str | Iterable[str] | None) -> OneOf | None:
    """The fact is one of these codes ("CJZA, CZCA" or a list); None when there are none."""
    if isinstance(values, str):
        values = _CODE_SEPARATORS.split(values)
    kept = frozenset(str(normalized(value)) for value in values or () if value and value.strip())
    return OneOf(fact, kept) if kept else None


def applicability(
    *,
    options: str | None = None,
    dates: str | None = None,
    model_codes: str | Iterable[str] | None = None,
    engine_codes: str | Iterable[str] | None = None,
    gearbox_codes: str | Iterable[str] | None = None,
    body_styles: str | Iterable[str] | None = None,
    remark: str | None = None,
) -> All:
    """One part's applicability from what its sources say: every stated condition must hold."""
    conditions = [
        parse_options(options),
        parse_dates(dates),
        codes(MODEL_CODE, model_codes),
        codes(ENGINE_CODE, engine_codes),
        codes(GEARBOX_CODE, gearbox_codes),
        codes(BODY_STYLE, body_styles),
        *parse_remark(remark),
    ]
    return All(tuple(condition for condition in conditions if condition is not None))
