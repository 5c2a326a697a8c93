"""Conditions written in a part's remark ("for vehicles with air conditioning", "LHD", "not for 4MOTION"), read by
a list of rules that is easy to extend. Text no rule knows states nothing: it is not an error.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from app.catalog.fit.conditions import Condition, DateRange, NotUnderstood, OneOf, fact_is, has_option
from app.catalog.fit.facts import (
    AIRCON,
    AUTOMATIC,
    AWD,
    BRAKE_CODE,
    DOORS,
    DRIVE_SIDE,
    GEARBOX_KIND,
    LHD,
    MANUAL,
    RHD,
    BuildDate,
)
from app.core.text import fold


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


def _months(match: re.Match[str]) -> list[BuildDate]:
    numbers = [int(group) for group in match.groups() if group and group.isdigit()]
    return [BuildDate(year, month) for month, year in zip(numbers[::2], numbers[1::2], strict=True)]


def _dated(build: Callable[[list[BuildDate]], DateRange]) -> Callable[[re.Match[str]], Condition]:
    """A date rule's condition; a month out of range ("13.2015") is a rule not understood, never an error."""

    def condition(match: re.Match[str]) -> Condition:
        try:
            return build(_months(match))
        except ValueError:
            return NotUnderstood(match.group(0))

    return condition


_MONTH = r"(\d{1,2})[./]((?:19|20)\d{2})"
_AIRCON_WORDS = r"(air[\s-]?conditioning|a/c|klimaanlage|klima)"
_VEHICLES_WITH = r"(\s+(vehicles|cars|fahrzeuge)(\s+(with|mit))?)?"
_AWD_WORDS = r"(4\s?motion|all[\s-]wheel[\s-]drive|awd|quattro|4x4|allrad(antrieb)?|xdrive|dort\s+ceker)"

# Order matters: a rule's match hides its text from the rules after it, so the negative forms come first
# ("without air conditioning" must not also read as "with air conditioning").
REMARK_RULES: list[RemarkRule] = [
    # build dates as the catalogs print them: "06.2015-11.2017", "from 06.2015", "up to 11.2017", "06.2015 itibaren"
    _rule(rf"\b{_MONTH}\s*[-\u2013]\s*{_MONTH}\b", _dated(lambda months: DateRange(months[0], months[1]))),
    _rule(
        rf"\b(?:from|since|ab|seit)\s+{_MONTH}\b|\b{_MONTH}(?:'?\s*(?:den|dan|ten|tan))?\s+itibaren\b",
        _dated(lambda months: DateRange(start=months[0])),
    ),
    _rule(
        rf"\b(?:up\s+to|until|till|to|bis)\s+{_MONTH}\b|\b{_MONTH}(?:'?\s*(?:ye|ya|e|a))?\s+(?:tarihine\s+)?kadar\b",
        _dated(lambda months: DateRange(end=months[0])),
    ),
    _rule(r"\bpr(?:-code)?\s*:\s*([0-9a-z]{3})\b", lambda match: has_option(match.group(1))),
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
