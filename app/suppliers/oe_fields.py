"""The OE numbers a distributor's free-text OE field states ("VW 1K0-129-620D / 1K0129620D, AUDI 8P0 129 620").

How a field is read:
- Segments. `, ; | * + & / ( ) [ ] :`, line breaks, tabs, a dash between spaces and two spaces or more always part
  two numbers; a single space may be inside one ("8P0 129 620") or between two ("1K0129620D 1K0129620E").
- Words. A brand's name in any case and spelling (Turkish dotted İ too: "CİTROEN", "MERCEDES-BENZ", "VAG"; the
  names in `app.suppliers.makers`) is the brand hint of the numbers after it, until the next one; numbers before any
  name take the first one after them, and a name alone in brackets after numbers of its maker's shape names them
  ("06A 115 561 C (VAG)"). Labels ("OE", "Orijinal No", a word before a colon), notes ("sol", "adet", "L=245mm")
  end a run of pieces without being read.
- Pieces. The rest: runs of pieces between words, a dash inside a token parting pieces too ("1K0-129-620D",
  "1444626-2544303"). A run is cut into numbers by each maker's known shape (`makers.SHAPES`), where spaced or
  dashed groups are one number only in that maker's grouping (VAG 3-3-3 and its index letters, Mercedes A 3-3-2-2,
  BMW 2-2-1-3-3 or 2-2-7, Ford 1-3-3, Renault 2-2-3-3, Opel/GM 2-2-3 or 2-3-3, PSA 2-3-3-2 and 4.2, Toyota and
  Hyundai 5-5, Bosch 1-3-3-3, ...) and with short groups before the last one; a single letter after any maker's
  number is its index (`makers.INDEX`: "8201 845 706 A" is 8201845706A, never 8201845706). Of the ways to cut a
  run, the one whose numbers cover the most pieces wins, then the one with fewer numbers, then the one read from the
  left: two numbers that each stand whole are never glued, as no shape joins whole numbers. A token of no maker's
  shape is a number of its own (the fallback) when it has 5 letters or digits or more, one of them a digit; shorter
  pieces nothing takes in are dropped (counts, sizes, years).
- Keys. Each number's key is `app.core.text.fold_code`, the one the catalog and the shelf lists use.

Reading a number cut short is the error the rules are built against: it is a near-miss of the real one ("1K0 129
620 D" read as 1K0129620), which an exact match would take. Reading a note glued on only loses the number.

The work is bounded: the first `MAX_TEXT` characters are read, and at most `MAX_NUMBERS` numbers returned.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, replace
from functools import lru_cache

from app.core.text import fold_code
from app.suppliers.makers import ANY_WRITTEN, BRAND_OF, WRITTEN, brand_of, families_of_key, family_of

MAX_TEXT = 2_000
MAX_NUMBERS = 50
MAX_PIECES = 6  # in one number: Mercedes' "A 000 180 26 09" has five
MAX_PIECE = 40  # characters; a longer piece is no number
FALLBACK_MIN = 5
DASHED_FALLBACK_MIN = 8
MAX_INNER_GROUP = 6  # characters in a spaced number's group but its last ("1K0129 620 D", "11 42 7953129")

_SEGMENT_BREAKS = re.compile(r"([,;|*+&/\\()\[\]{}<>:\n\r\t]+|\s[-–—]+\s|\s{2,})")
_PIECE_TRIM = ".-_'\"#!?~`´"


@dataclass(frozen=True, slots=True)
class OeNumber:
    """A number an OE field states: its search key, the text as written, the brand named before it (a car maker's
    or an aftermarket one, normalised: "VW", "MERCEDES", "SACHS"), or None."""

    key: str
    written: str
    brand: str | None


# Short words that are never a piece of a number, even in upper case ("SOL" is no VAG index), longer ones never are
# (an index has three letters at most). Kept to the notes feeds write: a real index read as a note ("1K0 615 301 AD"
# read as 1K0615301) would match another number.
_NOT_PIECES = frozenset(
    ("oe", "oem", "no", "orj", "ref", "kod", "sol", "sag", "on", "ust", "alt", "ic", "dis", "set", "kit", "tek", "lh")
    + ("rh", "ve", "ile", "yok", "var")
    # and longer ones, which a dash may join to a number ("42717-6067R-ARKA")
    + ("arka", "adet", "takim", "yeni", "eski", "kutu", "orijinal", "stok", "stokta")
)

_SPACED_INDEX = re.compile(r"\d[ \-][A-Z]{1,3}$", re.IGNORECASE)


def oe_numbers(text: str) -> list[OeNumber]:
    """The numbers an OE field states, in order, each once (by key), with the brand hint before it."""
    return list(_read(text[: MAX_TEXT + 1]))


@lru_cache(maxsize=16_384)  # a price list repeats its OE fields: the same OEM part under several brands
def _read(text: str) -> tuple[OeNumber, ...]:
    numbers: dict[str, OeNumber] = {}
    since_brand: list[str] = []  # the keys read since the last maker's name
    brand = None
    for kind, value in _words_and_runs(_cleaned(text)):
        if kind == "run":
            since_brand += _read_run(value, brand, numbers)
            continue
        for key in since_brand:
            if _named_by(numbers[key], value, bracketed_after=kind == "bracketed_brand"):
                numbers[key] = replace(numbers[key], brand=value)
        since_brand, brand = [], value
    return tuple(numbers.values())


def _read_run(pieces: tuple[str, ...], brand: str | None, numbers: dict[str, OeNumber]) -> list[str]:
    new_keys = []
    for written in _numbers_of_run(pieces, family_of(brand)):
        key = fold_code(written)
        if key and key not in numbers and len(numbers) < MAX_NUMBERS:
            numbers[key] = OeNumber(key, written, brand)
            new_keys.append(key)
    return new_keys


def _named_by(number: OeNumber, brand: str, *, bracketed_after: bool) -> bool:
    """Whether a maker's name after a number is its hint: when nothing named one before it, or when the name is in
    brackets right after numbers of its maker's shape ("AUDI 1J0 567 332 M; A 651 404 37 41 (Mercedes)")."""
    return number.brand is None or (bracketed_after and family_of(brand) in families_of_key(number.key))


def _cleaned(text: str) -> str:
    if len(text) > MAX_TEXT:
        # Cut back to the last break: a number cut short could be another one ("06A115561B" → "06A115561").
        breaks = list(_SEGMENT_BREAKS.finditer(text, 0, MAX_TEXT + 1))
        text = text[: breaks[-1].start()] if breaks else ""
    text = unicodedata.normalize("NFC", text)
    if text.replace("\n", "").replace("\r", "").replace("\t", "").isprintable():
        return text
    # Control and format characters (NUL, zero-width space, no-break space...) read as spaces.
    return "".join(" " if unicodedata.category(char)[0] in "CZ" and char not in "\n\r\t" else char for char in text)


def _words_and_runs(text: str):
    """("brand", name) for a maker's name, ("bracketed_brand", name) for one alone in brackets, ("run", pieces) for
    each run of pieces between words and breaks."""
    parts = _SEGMENT_BREAKS.split(text)  # segments at even places, the breaks between them at odd ones
    for index in range(0, len(parts), 2):
        before, after = parts[index - 1] if index else "", parts[index + 1] if index + 1 < len(parts) else ""
        yield from _segment_read(parts[index], after.startswith(":"), "(" in before and ")" in after)


@lru_cache(maxsize=65_536)  # feeds repeat their segments ("SEAT 04L 196 512 C") across different fields
def _segment_read(segment: str, labelled: bool, in_brackets: bool) -> tuple[tuple[str, object], ...]:
    tokens = [token.strip(_PIECE_TRIM) for token in segment.split()]
    brands = [brand_of(token) for token in tokens]
    if tokens and labelled and not brands[-1] and fold_code(tokens[-1]).isalpha():
        tokens.pop()  # a label ("L: 1045", "Ref:"), not an index of the number before it
    if tokens and all(brands) and in_brackets:
        return tuple(("bracketed_brand", brand) for brand in dict.fromkeys(brands))
    return tuple(_tokens_read(tokens))


def _tokens_read(tokens: list[str]):
    run: list[str] = []  # each piece after its joiner: a space between tokens, a dash inside one
    for token in tokens:
        # Letters in a dashed token with digits are a group of it ("90915-YZZJA"), unless a maker's name or a note.
        dashed_number = "-" in token and any(char.isdigit() for char in token)
        for place, piece in enumerate(token.split("-")):
            piece = piece.strip(_PIECE_TRIM)
            key = fold_code(piece)
            brand = BRAND_OF.get(key)
            if piece and (brand or not _is_piece(piece, key, dashed_number)):
                if run:
                    yield "run", tuple(run)
                run = []
                if brand:
                    yield "brand", brand
            elif piece:
                run.append(("-" if place else " ") + piece)
    if run:
        yield "run", tuple(run)


def _is_piece(token: str, key: str, dashed_number: bool) -> bool:
    if not key or len(token) > MAX_PIECE or "=" in token or "'" in token:
        return False
    return not key.isalpha() or ((len(key) <= 3 or dashed_number) and key not in _NOT_PIECES)


@lru_cache(maxsize=65_536)  # the same numbers recur in many fields, with other notes and brands around them
def _numbers_of_run(pieces: tuple[str, ...], family: str | None) -> tuple[str, ...]:
    """Cut a run of pieces into numbers: the cut whose numbers cover the most pieces, then the fewest numbers."""
    return tuple(_best_cut(pieces, family)[1])


def _best_cut(pieces: tuple[str, ...], family: str | None) -> tuple[int, list[str]]:
    best: list[tuple[int, list[str]]] = [(0, [])] * (len(pieces) + 1)
    for start in range(len(pieces) - 1, -1, -1):
        options = []
        for end in range(start + 1, min(len(pieces), start + MAX_PIECES) + 1):
            written = "".join(pieces[start:end])[1:]
            if len(written) > MAX_PIECE:
                break
            score = _score(written, end - start, family)
            if score is not None:
                options.append((score + best[end][0], [written, *best[end][1]]))
        # The piece dropped comes last: of two cuts worth as much, the one read from the left wins ("2 805 851 2012",
        # a Ford number and a year, not 805 851 20 12).
        options.append(best[start + 1])
        best[start] = max(options, key=lambda option: option[0])
    return best[0]


def _score(written: str, count: int, family: str | None) -> int | None:
    """How much a candidate number is worth: 10 a piece covered, 1 less a number; None when it is no number."""
    if not ANY_WRITTEN.fullmatch(written):
        return _fallback_score(written, count)
    if count > 1 and not _short_groups(written):
        return None
    hinted = family in WRITTEN and WRITTEN[family].fullmatch(written) is not None
    score = 10 * count - 1 + hinted
    # A VAG index letter written apart loses a tie to a Mercedes "A" that follows ("1K0129620 A 000 180 26 09").
    return score - 2 if count > 1 and _SPACED_INDEX.search(written) else score


def _short_groups(written: str) -> bool:
    """Whether the groups of a spaced number are short but the last: a shape's optional separators would otherwise
    read "71355632 96" (a Fiat number and a note) as Mercedes' 713 556 32 96. A trailing index does not count
    ("1K0129620 D")."""
    groups = written.split(" ")  # a dash inside a token joins on purpose ("1K0129-620D")
    inner = groups[:-2] if groups[-1].isalpha() else groups[:-1]
    return all(len(fold_code(group)) <= MAX_INNER_GROUP for group in inner)


def _fallback_score(written: str, count: int) -> int | None:
    """A number of no maker's shape is one token, its dashes kept ("AB123-45678-XY"), worth less than a shaped one
    (a lone piece is worth little, so that it does not outweigh the shape it could be part of); never read across a
    dash from a piece with no digit ("Focus II-31922 3K960"), around shaped pieces ("L: 1045-1613T5", "2317874-2503669":
    two Ford numbers; "28113-11861-96 kW") or when short ("77 55 349 899-x2")."""
    if " " in written:
        return None
    key = fold_code(written)
    if len(key) < (FALLBACK_MIN if count == 1 else DASHED_FALLBACK_MIN) or not any(char.isdigit() for char in key):
        return None
    pieces = written.split("-")
    if count > 1 and (not any(char.isdigit() for char in pieces[0]) or _has_shaped_part(pieces)):
        return None
    return 10 * count - 8


def _has_shaped_part(pieces: list[str]) -> bool:
    """Whether some of a dashed token's pieces, side by side, have a maker's shape ("28113-11861-96")."""
    spans = ((start, end) for start in range(len(pieces)) for end in range(start + 1, len(pieces) + 1))
    return any(ANY_WRITTEN.fullmatch("-".join(pieces[start:end])) for start, end in spans if end - start < len(pieces))
