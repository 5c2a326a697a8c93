"""Which known part numbers a distributor's price-list line answers to, and why: pure functions, no database.

Automatic matches are exact only, each with its reason:
- `oem_column`: the line's OEM column, or one of the numbers in it, has the known key (`fold_code`);
- `oe_field`: one of the numbers its OE field states (`oe_numbers`, rules in `app.suppliers.oe_fields`) has it;
- `ean`: its EAN is a valid GTIN (check digit verified by python-stdnum) equal to a known one.
A near-miss (another index letter, two digits swapped, a digit short) is never automatic: it can only come back as a
suggestion, which a manager confirms or rejects before any offer is shown.

Suggestions compare the line's numbers that are not known exactly with the candidates a caller gives (say, the
known keys sharing a number's first characters: the whole catalog is too many) by rapidfuzz's optimal string
alignment (a swap of two neighbours is one edit). A candidate is worth asking about when it starts as the number
does (a different maker's prefix is another part) and is one edit away (two on a number of 14 characters or more);
`brand_hint` when the brand named before the number makes numbers of the candidate's shape, else `similar_number`.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass

from rapidfuzz import process
from rapidfuzz.distance import OSA
from stdnum import ean as gtin
from stdnum.exceptions import ValidationError

from app.core.text import fold_code
from app.suppliers.makers import families_of_key, family_of
from app.suppliers.oe_fields import OeNumber, oe_numbers

__all__ = [
    "BRAND_HINT",
    "EAN",
    "OEM_COLUMN",
    "OE_FIELD",
    "SIMILAR_NUMBER",
    "Match",
    "OeNumber",
    "Suggestion",
    "column_numbers",
    "exact_matches",
    "oe_numbers",
    "stated_numbers",
    "suggestions",
    "valid_gtin",
]

OEM_COLUMN = "oem_column"
OE_FIELD = "oe_field"
EAN = "ean"
SIMILAR_NUMBER = "similar_number"
BRAND_HINT = "brand_hint"

SUGGESTION_THRESHOLD = 85.0  # percent similarity: one edit on 7 to 13 characters, two from 14
SUGGESTION_LIMIT = 5
SUGGESTION_MIN_LENGTH = 7  # shorter numbers are one edit away from too many others
SAME_START = 2  # leading characters a suggestion shares with the number (the maker's prefix, the VAG type)
_GTIN_LENGTHS = {8, 12, 13, 14}
_ONE_TOKEN = re.compile(r"[0-9A-Za-z][0-9A-Za-z.\-]{0,39}")


@dataclass(frozen=True, slots=True)
class Match:
    """A known number the line answers to exactly: its key, the reason, and the text it was read from."""

    key: str
    reason: str
    written: str


@dataclass(frozen=True, slots=True)
class Suggestion:
    """A known number close to one the line states, for a manager to confirm or reject; score in percent."""

    key: str
    score: float
    reason: str
    written: str


def valid_gtin(text: str | None) -> str | None:
    """The GTIN (EAN-8, UPC-12, EAN-13, GTIN-14) when its check digit is right, else None. A UPC and a GTIN-14 with
    a leading zero are the EAN-13 they stand for (a zero added or dropped), so that one product has one key."""
    if not text:
        return None
    number = _checked_gtin(text)
    if number is None or len(number) not in _GTIN_LENGTHS:
        return None
    if len(number) == 12 or (len(number) == 14 and number.startswith("0")):
        return number.zfill(14)[1:]
    return number


def _checked_gtin(text: str) -> str | None:
    if text.isascii() and text.isdigit():  # nothing to compact: stdnum's cleaning is most of its time
        valid = len(text) in _GTIN_LENGTHS and gtin.calc_check_digit(text[:-1]) == text[-1]
        return text if valid else None
    try:
        return gtin.validate(text)
    except ValidationError:
        return None


def stated_numbers(*, oe_text: str = "", oem_column: str = "") -> list[tuple[str, OeNumber]]:
    """Each number the line states with where: its OEM column (whole, and each number in it) first, then its OE
    field."""
    column = [(OEM_COLUMN, number) for number in column_numbers(oem_column)]
    return column + [(OE_FIELD, number) for number in oe_numbers(oe_text)]


def column_numbers(oem_column: str) -> list[OeNumber]:
    """The numbers an OEM column states: the column whole when it is one token, then each number read in it."""
    column = oe_numbers(oem_column)
    # A column of one token is one number, even of a shape the OE reader does not take ("MD-050-227"); never more
    # than one token, as a note would be glued on ("1K0129620D (2)" is no 1K0129620D2).
    whole = oem_column.strip()
    if _ONE_TOKEN.fullmatch(whole) and all(number.key != fold_code(whole) for number in column):
        column.insert(0, OeNumber(fold_code(whole), whole, None))
    return column


def exact_matches(
    *,
    oe_text: str = "",
    oem_column: str = "",
    ean: str = "",
    known_keys: Collection[str],
    known_eans: Collection[str] = frozenset(),
) -> list[Match]:
    """The known numbers the line states exactly, once each with its first reason. `known_keys` are `fold_code` keys,
    `known_eans` GTINs as `valid_gtin` gives them (sets: each is looked up, never walked)."""
    matches: dict[str, Match] = {}
    for reason, number in stated_numbers(oe_text=oe_text, oem_column=oem_column):
        if number.key in known_keys and number.key not in matches:
            matches[number.key] = Match(number.key, reason, number.written)
    line_gtin = valid_gtin(ean)
    if line_gtin and line_gtin in known_eans and line_gtin not in matches:
        matches[line_gtin] = Match(line_gtin, EAN, ean.strip())
    return list(matches.values())


def suggestions(
    *,
    oe_text: str = "",
    oem_column: str = "",
    candidates: Iterable[str],
    limit: int = SUGGESTION_LIMIT,
    threshold: float = SUGGESTION_THRESHOLD,
) -> list[Suggestion]:
    """Candidates close to a number the line states but not equal to any: best first, at most `limit`."""
    candidates = {fold_code(candidate) for candidate in candidates}
    stated = [number for _reason, number in stated_numbers(oe_text=oe_text, oem_column=oem_column)]
    others = candidates - {number.key for number in stated}
    best: dict[str, Suggestion] = {}
    for number in stated:
        if number.key in candidates or len(number.key) < SUGGESTION_MIN_LENGTH:
            continue
        for suggestion in _close_to(number, others, threshold):
            if suggestion.key not in best or _rank(suggestion) < _rank(best[suggestion.key]):
                best[suggestion.key] = suggestion
    return sorted(best.values(), key=_rank)[:limit]


def _close_to(number: OeNumber, candidates: set[str], threshold: float) -> list[Suggestion]:
    close = process.extract(
        number.key,
        [key for key in candidates if key[:SAME_START] == number.key[:SAME_START]],
        scorer=OSA.normalized_similarity,
        score_cutoff=threshold / 100,
        limit=None,
    )
    return [Suggestion(key, round(score * 100, 1), _reason_of(number, key), number.written) for key, score, _ in close]


def _reason_of(number: OeNumber, candidate: str) -> str:
    family = family_of(number.brand)
    return BRAND_HINT if family and family in families_of_key(candidate) else SIMILAR_NUMBER


def _rank(suggestion: Suggestion) -> tuple[float, bool, str]:
    return (-suggestion.score, suggestion.reason != BRAND_HINT, suggestion.key)
