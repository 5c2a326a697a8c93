"""A part's applicability as a small expression tree, and the parsers that read it from the sources' texts.

Leaves test one fact (`OneOf`, `DateRange`) or stand for a rule that could not be read (`NotUnderstood`); `All`,
`Any` and `Not` combine them. Parsing never raises: text that says nothing gives no condition, and an option-code
expression or a date that cannot be read gives `NotUnderstood`, which the evaluator answers with maybe.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from app.catalog.fit.facts import (
    AIRCON,
    AUTOMATIC,
    AWD,
    BODY_STYLE,
    BRAKE_CODE,
    DOORS,
    DRIVE_SIDE,
    ENGINE_CODE,
    GEARBOX_CODE,
    GEARBOX_KIND,
    LHD,
    MANUAL,
    MODEL_CODE,
    RHD,
    BuildDate,
    FactValue,
    normalized,
    option_fact,
)
from app.core.text import fold


@dataclass(frozen=True)
class OneOf:
    """The fact has one of these values."""

    fact: str
    values: frozenset[FactValue]

    def __post_init__(self) -> None:
        object.__setattr__(self, "values", frozenset(normalized(value) for value in self.values))


@dataclass(frozen=True)
class DateRange:
    """The build date lies between start and end, both months included; an open end is None."""

    start: BuildDate | None = None
    end: BuildDate | None = None


@dataclass(frozen=True)
class NotUnderstood:
    """A rule the parsers could not read: no fact settles it, so it keeps the part a maybe."""

    text: str


@dataclass(frozen=True)
class All:
    """Every condition holds (no conditions: it holds)."""

    items: tuple[Condition, ...] = ()


@dataclass(frozen=True)
class Any:
    """At least one condition holds (no conditions: none does)."""

    items: tuple[Condition, ...] = ()


@dataclass(frozen=True)
class Not:
    """The condition does not hold."""

    item: Condition


Condition = OneOf | DateRange | NotUnderstood | All | Any | Not


def fact_is(fact: str, value: FactValue) -> OneOf:
    """The fact has this value."""
    return OneOf(fact, frozenset({value}))


def has_option(code: str) -> OneOf:
    """Option code `code` is fitted."""
    return fact_is(option_fact(code), True)


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


# Conditions written in a part's remark ---------------------------------------------------------------------------


@dataclass(frozen=True)
class RemarkRule:
    """A pattern over the folded remark (lower case, Turkish letters to ASCII) and the condition it means."""

    pattern: re.Pattern[str]
    condition: Condition | Callable[[re.Match[str]], Condition]

    def conditions(self, folded: str) -> list[tuple[re.Match[str], Condition]]:
        return [(match, self._condition(match)) for match in self.pattern.finditer(folded)]

    def _condition(self, match: re.Match[str]) -> Condition:
        return self.condition(match) if callable(self.condition) else self.condition


def _rule(pattern: str, condition: Condition | Callable[[re.Match[str]], Condition]) -> RemarkRule:
    return RemarkRule(re.compile(pattern), condition)


def _doors(counts: str) -> OneOf:
    return OneOf(DOORS, frozenset(int(count) for count in re.findall(r"[2-5]", counts)))


_AIRCON_WORDS = r"(air[\s-]?conditioning|a/c|klimaanlage|klima)"
_VEHICLES_WITH = r"(\s+(vehicles|cars|fahrzeuge)(\s+(with|mit))?)?"
_AWD_WORDS = r"(4\s?motion|all[\s-]wheel[\s-]drive|awd|quattro|4x4|allrad(antrieb)?|xdrive|dort\s+ceker)"

# Order matters: a rule's match hides its text from the rules after it, so the negative forms come first
# ("without air conditioning" must not also read as "with air conditioning").
REMARK_RULES: list[RemarkRule] = [
    _rule(
        rf"\b(without|w/o|ohne|not\s+for{_VEHICLES_WITH})\s+{_AIRCON_WORDS}(?!\w)|\bklimasiz\b",
        fact_is(AIRCON, False),
    ),
    _rule(rf"\b(with|mit)\s+{_AIRCON_WORDS}(?!\w)|\bklimali\b", fact_is(AIRCON, True)),
    _rule(
        rf"\b(not\s+for{_VEHICLES_WITH}|except|without|nicht\s+fur{_VEHICLES_WITH}|ohne)\s+{_AWD_WORDS}\b"
        rf"|\b{_AWD_WORDS}\s+haric\b",
        fact_is(AWD, False),
    ),
    _rule(rf"\b{_AWD_WORDS}\b", fact_is(AWD, True)),
    _rule(r"\b(lhd|left[\s-]hand[\s-]drive|linkslenker|soldan\s+direksiyon(lu)?)\b", fact_is(DRIVE_SIDE, LHD)),
    _rule(r"\b(rhd|right[\s-]hand[\s-]drive|rechtslenker|sagdan\s+direksiyon(lu)?)\b", fact_is(DRIVE_SIDE, RHD)),
    _rule(
        r"\b(manual\s+(gearbox|transmission)|schaltgetriebe|manuel\s+(sanziman|vites)|duz\s+vites)\b",
        fact_is(GEARBOX_KIND, MANUAL),
    ),
    _rule(
        r"\b(automatic\s+(gearbox|transmission)|automatikgetriebe|otomatik\s+(sanziman|vites))\b",
        fact_is(GEARBOX_KIND, AUTOMATIC),
    ),
    _rule(r"\b([2-5](\s*[/,]\s*[2-5])*)[\s-]?(doors?|turer|turig|kapi|kapili)\b", lambda match: _doors(match.group(1))),
    _rule(
        r"\b(brake\s+code|bremsen?[\s-]?code|fren\s+kodu)\s*:?\s*([0-9a-z]{3})\b",
        lambda match: fact_is(BRAKE_CODE, match.group(2)),
    ),
]


def parse_remark(text: str | None, rules: Iterable[RemarkRule] = REMARK_RULES) -> tuple[Condition, ...]:
    """The conditions a part's remark states; text no rule knows states none (it is not an error)."""
    if not text:
        return ()
    folded = fold(text)
    found: list[Condition] = []
    for rule in rules:
        for match, condition in rule.conditions(folded):
            if condition not in found:
                found.append(condition)
            folded = folded[: match.start()] + " " * (match.end() - match.start()) + folded[match.end() :]
    return tuple(found)


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
