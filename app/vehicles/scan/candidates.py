"""VIN candidates from any text a reader gave (a barcode's payload, OCR text, the ruhsat's "Şase No" field).

A run of 17 characters becomes a VIN once the letters a VIN never holds are read as the digits they stand for
(O and Q as 0, I as 1). The other confusions of OCR (S/5, B/8, Z/2, G/6) are both valid VIN characters, so they are
tried only where they make a reading better: a WMI we know, a check digit that holds where the region uses one
(North America), a VIN the catalog already stores. The search is bounded: at most one or two changed characters per
reading and a capped number of readings, never every combination.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from itertools import combinations

from app.sources.wmi import identify
from app.vehicles.answers import VIN_PATTERN

VIN_LENGTH = 17
CHECK_DIGIT_INDEX = 8
# Letters a VIN never holds, and the digit they are a misreading of.
FORBIDDEN = {"O": "0", "Q": "0", "I": "1"}
# Pairs OCR confuses where both are VIN characters: tried in either direction.
CONFUSIONS = {"S": "5", "5": "S", "B": "8", "8": "B", "Z": "2", "2": "Z", "G": "6", "6": "G"}
# ISO 3779: the last four characters of the serial are digits (the last three even for the smallest makers), so a
# confusable letter there is read as its digit, and a reading whose last three are not digits is no VIN (a run of
# words such as "ARAC TESCIL BELGESI" is 17 letters long too).
SERIAL_DIGITS_FROM = 13
SERIAL_DIGITS_REQUIRED = 14
LETTER_DIGITS = {"S": "5", "B": "8", "Z": "2", "G": "6"}
# Characters that may sit inside a printed VIN (VW prints a space after the 9th character; labels use dashes).
SEPARATORS = re.compile(r"^[ \t\-.]{1,2}$")
RUN = re.compile(r"[A-Z0-9]+")
MAX_JOINED_TOKENS = 4
MAX_READINGS = 64  # 17-character readings looked at per answer (a page of OCR text holds few)
MAX_CANDIDATES = 5
MAX_KNOWN_VARIANTS = 1  # changed characters tried against the catalog's stored VINs (at most 18 readings each)

SOURCES = ("barcode", "ruhsat", "text")

_TRANSLITERATION = {
    **{str(digit): digit for digit in range(10)},
    **dict(zip("ABCDEFGH", range(1, 9), strict=True)),
    **dict(zip("JKLMN", range(1, 6), strict=True)),
    "P": 7,
    "R": 9,
    **dict(zip("STUVWXYZ", range(2, 10), strict=True)),
}
_WEIGHTS = (8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2)


@dataclass(frozen=True)
class Read:
    """Text one reader gave: `source` is barcode, ruhsat or text; `format` the barcode's symbology, if any."""

    text: str
    source: str
    format: str | None = None


@dataclass(frozen=True)
class Candidate:
    vin: str
    source: str
    format: str | None
    corrected: bool
    known_wmi: bool
    check_digit: str  # valid | invalid | not_used
    known: bool = False
    order: int = field(default=0, compare=False)  # where its reading came in the text (earlier ranks higher on ties)
    changes: int = field(default=0, compare=False)  # characters changed beyond the forbidden letters

    @property
    def exact_barcode(self) -> bool:
        """A barcode's own text, unchanged, that passes the VIN rule: the label says which car this is, so no guess
        (a stored VIN one confusion away included) may rank above it."""
        return self.source == "barcode" and not self.corrected and self.check_digit != "invalid"

    def as_dict(self) -> dict[str, object]:
        answer: dict[str, object] = {"vin": self.vin, "source": self.source}
        if self.format:
            answer["format"] = self.format
        answer.update(corrected=self.corrected, knownWmi=self.known_wmi, checkDigit=self.check_digit, known=self.known)
        return answer


def is_vin(text: str) -> bool:
    """The project's own rule (the decode's): 17 characters of the VIN alphabet."""
    return VIN_PATTERN.fullmatch(text) is not None


def uses_check_digit(vin: str) -> bool:
    """North America (WMI starting 1-5) makes the 9th character a check digit; Europe, Turkey and Asia do not."""
    return vin[0] in "12345"


def check_digit_of(vin: str) -> str:
    total = sum(_TRANSLITERATION[char] * weight for char, weight in zip(vin, _WEIGHTS, strict=True))
    remainder = total % 11
    return "X" if remainder == 10 else str(remainder)


def check_digit_state(vin: str) -> str:
    if not uses_check_digit(vin):
        return "not_used"
    return "valid" if vin[CHECK_DIGIT_INDEX] == check_digit_of(vin) else "invalid"


def knows_wmi(vin: str) -> bool:
    return identify(vin) is not None


# --- readings: 17-character runs in the text ---------------------------------------------------------------------


def readings(text: str) -> list[str]:
    """The 17-character runs a text may hold, in reading order: whole runs, runs split by a space or a dash, and
    each 17-character window of a longer run (a barcode's leading "I" import mark, text glued to the VIN)."""
    found: list[str] = []
    for line in _fold(text).splitlines():
        tokens = list(RUN.finditer(line))
        for start, token in enumerate(tokens):
            found.extend(_windows(token.group()))
            found.extend(_joined(line, tokens, start))
    return list(dict.fromkeys(found))[:MAX_READINGS]


def _fold(text: str) -> str:
    """Upper case with the dotless and dotted i both read as I (which then reads as 1)."""
    return text.replace("ı", "I").replace("i", "I").replace("İ", "I").upper()


def _windows(run: str) -> list[str]:
    if len(run) < VIN_LENGTH:
        return []
    return [run[start : start + VIN_LENGTH] for start in range(len(run) - VIN_LENGTH + 1)]


def _joined(line: str, tokens: list[re.Match[str]], start: int) -> list[str]:
    """A VIN printed in pieces ("WVWZZZ1KZ 6W000001"): consecutive short tokens, one or two separators apart."""
    joined = tokens[start].group()
    for previous, token in zip(tokens[start:], tokens[start + 1 : start + MAX_JOINED_TOKENS], strict=False):
        if len(joined) >= VIN_LENGTH or not SEPARATORS.match(line[previous.end() : token.start()]):
            break
        joined += token.group()
        if len(joined) == VIN_LENGTH:
            return [joined]
    return []


def without_forbidden(reading: str) -> str:
    """Letters a VIN never holds read as their digit, and confusable letters in the serial's last four as theirs."""
    head = "".join(FORBIDDEN.get(char, char) for char in reading[:SERIAL_DIGITS_FROM])
    tail = "".join(LETTER_DIGITS.get(char, FORBIDDEN.get(char, char)) for char in reading[SERIAL_DIGITS_FROM:])
    return head + tail


# --- variants: the confusions tried where they help ------------------------------------------------------------


def variants(base: str) -> list[tuple[str, int]]:
    """`base` and the readings one confusion away that give a known WMI or a valid check digit, with how many
    characters each changed. Two confusions are tried in the WMI only (three characters, at most six readings)."""
    found = [(base, 0)]
    if not knows_wmi(base):
        found.extend(_wmi_fixes(base))
    if check_digit_state(base) == "invalid":
        found.extend(
            (variant, 1)
            for variant in _single_changes(base, range(VIN_LENGTH))
            if check_digit_state(variant) == "valid"
        )
    return found


def _wmi_fixes(base: str) -> list[tuple[str, int]]:
    fixes = []
    positions = [index for index in range(3) if base[index] in CONFUSIONS]
    for count in (1, 2):
        for chosen in combinations(positions, count):
            variant = _changed(base, chosen)
            if knows_wmi(variant):
                fixes.append((variant, count))
    return fixes


def _confusable(vin: str, index: int) -> bool:
    """Whether a confusion may be tried here: never a letter in place of a serial digit."""
    return vin[index] in CONFUSIONS and not (index >= SERIAL_DIGITS_FROM and vin[index].isdigit())


def _single_changes(vin: str, positions: Iterable[int]) -> list[str]:
    return [_changed(vin, (index,)) for index in positions if _confusable(vin, index)]


def _changed(vin: str, positions: Iterable[int]) -> str:
    chars = list(vin)
    for index in positions:
        chars[index] = CONFUSIONS[chars[index]]
    return "".join(chars)


def near_readings(base: str) -> list[str]:
    """Every reading at most MAX_KNOWN_VARIANTS confusions from `base`: asked of the catalog in one query."""
    positions = [index for index in range(VIN_LENGTH) if _confusable(base, index)]
    found = []
    for count in range(1, MAX_KNOWN_VARIANTS + 1):
        found.extend(_changed(base, chosen) for chosen in combinations(positions, count))
    return found


# --- candidates, ranked ----------------------------------------------------------------------------------------


def _distance(base: str, variant: str) -> int:
    return sum(one != other for one, other in zip(base, variant, strict=True))


def _plausible(vin: str) -> bool:
    """A VIN by the decode's rule that is not a bare number (an id, a phone or a product number) and ends in digits."""
    return is_vin(vin) and not vin.isdigit() and vin[SERIAL_DIGITS_REQUIRED:].isdigit()


def candidates(
    reads: Iterable[Read], known_vins: Callable[[set[str]], set[str]] = lambda _vins: set()
) -> list[Candidate]:
    """The VIN candidates of `reads`, best first (at most MAX_CANDIDATES). `known_vins` gets every reading worth
    asking about at once and answers those the catalog stores."""
    found: dict[str, Candidate] = {}
    bases: list[tuple[str, Read, int, bool]] = []
    for read in reads:
        for reading in readings(read.text):
            base = without_forbidden(reading)
            if _plausible(base):
                bases.append((base, read, len(bases), base != reading))
    asked = {variant for base, *_ in bases for variant in (base, *near_readings(base))}
    known = known_vins(asked) if asked else set()
    for base, read, order, forced in bases:
        tried = variants(base) + [
            (variant, _distance(base, variant)) for variant in near_readings(base) if variant in known
        ]
        for vin, changes in tried:
            if _plausible(vin):
                _keep(found, _candidate(vin, read, order, forced or changes > 0, changes, vin in known))
    return sorted(filter(_worth_showing, found.values()), key=rank_key)[:MAX_CANDIDATES]


def _worth_showing(candidate: Candidate) -> bool:
    """A North American reading whose check digit fails and whose WMI nobody knows is noise, not a VIN."""
    return candidate.known or candidate.known_wmi or candidate.check_digit != "invalid"


def _candidate(vin: str, read: Read, order: int, corrected: bool, changes: int, known: bool) -> Candidate:
    return Candidate(
        vin=vin,
        source=read.source,
        format=read.format,
        corrected=corrected,
        known_wmi=knows_wmi(vin),
        check_digit=check_digit_state(vin),
        known=known,
        order=order,
        changes=changes,
    )


def _keep(found: dict[str, Candidate], candidate: Candidate) -> None:
    kept = found.get(candidate.vin)
    if kept is None or rank_key(candidate) < rank_key(kept):
        found[candidate.vin] = candidate


def rank_key(candidate: Candidate) -> tuple:
    """Best first: an exact barcode read that passes the VIN rule, then a VIN the catalog stores, a known WMI, a check
    digit that is not wrong, then a barcode over the ruhsat's field over loose text, fewer changed characters, earlier
    in the text. Confusion variants of a barcode's text are guesses: they come after the exact read."""
    return (
        not candidate.exact_barcode,
        not candidate.known,
        not candidate.known_wmi,
        candidate.check_digit == "invalid",
        SOURCES.index(candidate.source),
        candidate.changes,
        candidate.order,
    )
