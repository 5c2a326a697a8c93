"""The rule-based EN→TR translator of catalog names (rules in docs/decisions.md, "Turkish catalog names").

A name is split at its commas; each part is read word by word, longest dictionary term first. In a part, positions
and other locations come first, modifiers keep their place before the nouns, and the last noun is the head: it takes
the possessive when a noun comes before it (izafet: "oil filter housing" → "yağ filtresi gövdesi"). A comma part that
is only a location moves in front ("brake pad set, front axle" → "ön aks fren balata seti"). Codes, numbers, sizes,
acronyms, brand names and the Turkish 'see table' phrasing stay as they are; words the dictionary does not know stay
in English and are reported, so the caller can mark the name.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Protocol

from app.translation import morphology
from app.translation.dictionary import Term, builtin_terms, builtin_version

REFERENCE_PHRASE = re.compile(r"(?:bk\.\s*tablo:|bakınız\s+tablo,\s*konum:)\s*(?:\d{3}-\d{3})?", re.IGNORECASE)
COMMA = re.compile(r",(?!\d)")
AND = re.compile(r"\s(?:and|&)\s", re.IGNORECASE)
CLAUSES = (  # (pattern of a trailing clause, Turkish with {x}, whether it goes before the rest)
    (re.compile(r"\bfor vehicles without (.+)$", re.I), "{x} bulunmayan araçlar için", True),
    (re.compile(r"\bfor vehicles with (.+)$", re.I), "{x} bulunan araçlar için", True),
    (re.compile(r"\bfor (.+)$", re.I), "{x} için", True),
    (re.compile(r"(?:^|\s)(?:without|w/o) (.+)$", re.I), "{x} olmadan", False),
    (re.compile(r"(?:^|\s)(?:with|w/) (.+)$", re.I), "{x} ile", False),
    (re.compile(r"(?:^|\s)(?:incl\.?|including) (.+)$", re.I), "{x} dahil", False),
)
DATES = (
    (re.compile(r"^from (\d{1,2}[./]\d{2,4})$", re.I), "{x} tarihinden itibaren"),
    (re.compile(r"^(?:up to|until) (\d{1,2}[./]\d{2,4})$", re.I), "{x} tarihine kadar"),
)
BRANDS = frozenset(
    [
        "vw",
        "volkswagen",
        "audi",
        "skoda",
        "seat",
        "cupra",
        "bmw",
        "mini",
        "mercedes",
        "mercedes-benz",
        "renault",
        "dacia",
        "toyota",
        "lexus",
        "fiat",
        "alfa",
        "lancia",
        "jeep",
        "ford",
        "hyundai",
        "kia",
        "opel",
        "vauxhall",
        "peugeot",
        "citroën",
        "citroen",
        "ds",
        "nissan",
        "honda",
        "mazda",
        "mitsubishi",
        "suzuki",
        "subaru",
        "volvo",
        "porsche",
        "golf",
        "passat",
        "polo",
        "tiguan",
        "clio",
        "megane",
        "corolla",
        "yaris",
        "egea",
        "focus",
        "fiesta",
        "i20",
        "astra",
        "corsa",
        "308",
        "208",
        "duster",
    ]
)
TURKISH_LETTERS = frozenset("ğĞşŞıİ")
UNCHANGED_WORDS = frozenset({"pr:", "&", "-", "/", "+", "x", "mm", "cm", "ml", "kg", "nm", "v", "w", "a", "ah"})


class RateLimitedError(Exception):
    """The machine-translation provider asks to wait `retry_after` seconds."""

    def __init__(self, retry_after: float) -> None:
        super().__init__(f"rate limited; retry after {retry_after} s")
        self.retry_after = retry_after


class TranslationProvider(Protocol):
    def translate_terms(self, terms: list[str]) -> dict[str, str]: ...


@dataclass(frozen=True)
class Translation:
    source: str
    text: str
    unknown: tuple[str, ...] = ()

    @property
    def complete(self) -> bool:
        return not self.unknown


@dataclass
class _Unit:
    text: str
    kind: str  # noun, modifier, location, raw (kept as written) or unknown
    term: Term | None = None
    plural: bool = False


@dataclass
class _Part:
    text: str
    unknown: list[str] = field(default_factory=list)
    location: bool = False  # only qualifiers: moved in front of the name
    rank: int = 0  # 0: locations only, 1: with other modifiers (after the locations)


class Translator:
    def __init__(self, extra_terms: Iterable[Term] = (), provider: TranslationProvider | None = None) -> None:
        extra = list(extra_terms)
        self._terms = {term.english: term for term in builtin_terms()}
        self._terms.update({term.english: term for term in extra})
        self._longest = max(len(english.split()) for english in self._terms)
        nouns = (term.turkish for term in self._terms.values() if term.kind == "noun")
        self._turkish_words = frozenset(noun for noun in nouns if " " not in noun)
        self.provider = provider
        signature = hashlib.sha256(repr(sorted((t.english, t.turkish, t.kind, t.possessive) for t in extra)).encode())
        self.version = (
            builtin_version() + (f"-{signature.hexdigest()[:8]}" if extra else "") + ("-mt" if provider else "")
        )
        self._extra = extra
        self.translate = lru_cache(maxsize=50_000)(self._translate)

    def knows(self, token: str) -> bool:
        return token.lower() in self._terms or self._singular(token.lower()) is not None

    def _translate(self, text: str) -> Translation:
        result = self._dictionary_only(text)
        if result.unknown and self.provider is not None:
            found = self.provider.translate_terms(list(result.unknown))
            if found:
                learned = [Term(word.lower(), turkish) for word, turkish in found.items() if turkish]
                result = Translator([*self._extra, *learned])._dictionary_only(text)
        return result

    def _dictionary_only(self, text: str) -> Translation:
        source = " ".join(text.split())
        if not source:
            return Translation(text, text)
        body, reference = source, ""
        if match := REFERENCE_PHRASE.search(source):
            body, reference = source[: match.start()].rstrip(" ,;"), source[match.start() :]
        parts = [self._part(chunk.strip()) for chunk in COMMA.split(body) if chunk.strip()]
        leading = sorted((part for index, part in enumerate(parts) if index and part.location), key=lambda p: p.rank)
        rest = [part for part in parts if part not in leading]
        words = " ".join(part.text for part in [*leading, *rest[:1]])
        translated = ", ".join(chunk for chunk in [words, *(part.text for part in rest[1:]), reference] if chunk)
        unknown = tuple(dict.fromkeys(word for part in parts for word in part.unknown))
        return Translation(text, _styled(translated, body or source), unknown)

    def _part(self, chunk: str) -> _Part:
        for pattern, turkish in DATES:
            if match := pattern.match(chunk):
                return _Part(turkish.format(x=match.group(1)))
        for pattern, turkish, before in CLAUSES:
            match = pattern.search(chunk)
            if match and (head := chunk[: match.start()].strip()) != chunk:
                clause = self._part(match.group(1))
                rest = self._part(head) if head else _Part("")
                said = turkish.format(x=clause.text)
                text = f"{said} {rest.text}" if before else f"{rest.text}, {said}"
                return _Part(text.strip(" ,"), [*rest.unknown, *clause.unknown])
        if len(sides := AND.split(chunk)) > 1 and all(side.strip() for side in sides):
            parts = [self._part(side.strip()) for side in sides]
            return _Part(" ve ".join(part.text for part in parts), [word for part in parts for word in part.unknown])
        return self._phrase(chunk.split())

    def _phrase(self, words: list[str]) -> _Part:
        units = self._units(words)
        nouns = [index for index, unit in enumerate(units) if unit.kind in {"noun", "raw", "unknown"}]
        head = nouns[-1] if nouns else None
        texts = []
        for index, unit in enumerate(units):
            compound = head is not None and index == head and len(nouns) > 1
            texts.append(_inflected(unit, compound, self._turkish_words) if unit.term else unit.text)
        front = [text for text, unit in zip(texts, units, strict=True) if unit.kind == "location"]
        others = [text for text, unit in zip(texts, units, strict=True) if unit.kind != "location"]
        unknown = [unit.text.lower() for unit in units if unit.kind == "unknown"]
        # A part of only qualifiers moves in front of the name: locations first, then the other modifiers.
        qualifier = bool(units) and all(unit.kind in {"location", "modifier"} for unit in units)
        rank = 1 if qualifier and any(unit.kind == "modifier" for unit in units) else 0
        return _Part(" ".join([*front, *others]), unknown, qualifier, rank)

    def _units(self, words: list[str]) -> list[_Unit]:
        units, index = [], 0
        keys = [word.lower().strip("()[]\"'") for word in words]
        while index < len(words):
            for size in range(min(self._longest, len(words) - index), 0, -1):
                phrase = keys[index : index + size]
                term = self._terms.get(" ".join(phrase))
                plural = term is None and size > 1 and (term := self._plural_of(phrase)) is not None
                if term is not None:
                    units.append(_Unit(term.turkish, term.kind, term, plural=plural))
                    index += size
                    break
            else:
                units.append(self._word(words[index], keys[index]))
                index += 1
        return units

    def _word(self, word: str, key: str) -> _Unit:
        singular = self._singular(key)
        if singular is not None and singular.kind == "noun":
            return _Unit(singular.turkish, "noun", singular, plural=True)
        if _kept(word, key):
            return _Unit(word, "raw")
        return _Unit(word, "unknown")

    def _plural_of(self, phrase: list[str]) -> Term | None:
        """The noun term of a phrase whose last word is in the plural ("brake discs")."""
        for singular in _singular_forms(phrase[-1]):
            term = self._terms.get(" ".join([*phrase[:-1], singular]))
            if term is not None and term.kind == "noun":
                return term
        return None

    def _singular(self, key: str) -> Term | None:
        return next((term for form in _singular_forms(key) if (term := self._terms.get(form))), None)


def _singular_forms(word: str) -> Iterator[str]:
    """What an English plural may be the plural of: batteries → battery, boxes → box, discs → disc."""
    for cut, add in (("ies", "y"), ("es", ""), ("s", "")):
        if word.endswith(cut) and len(word) > len(cut) + 2:
            yield word[: -len(cut)] + add


def _kept(word: str, key: str) -> bool:
    """Codes, numbers, sizes, acronyms, brand and model names, signs: written the same in Turkish."""
    return (
        any(char.isdigit() for char in word)
        or key in BRANDS
        or key in UNCHANGED_WORDS
        or not any(char.isalpha() for char in word)
        or (word.isupper() and len(word) <= 5)  # ABS, EGR, LED, PR
        or word.startswith("{")
        or any(char in TURKISH_LETTERS for char in word)  # a Turkish word already ("Diğer")
    )


def _inflected(unit: _Unit, compound: bool, known_words: frozenset[str]) -> str:
    """A dictionary word as it stands: the head of a compound takes the possessive (not when the term is a compound
    itself, which carries its own), a plural takes -lar/-ler."""
    term = unit.term
    base = term.turkish
    single = " " not in base
    if unit.plural:
        if not single:
            return morphology.compound_plural(base, known_words)
        if compound:
            return morphology.plural_possessive(base, like=term.possessive)
        return morphology.plural(base, like=term.possessive)
    if compound and (term.possessive or single):
        return term.possessive or morphology.possessive(base)
    return base


def _styled(text: str, source: str) -> str:
    """The Turkish in the source's case style: OIL FILTER → YAĞ FİLTRESİ, Oil filter → Yağ filtresi."""
    letters = [char for char in source if char.isalpha()]
    if len(letters) > 3 and all(char.isupper() for char in letters):
        return morphology.upper(text)
    if letters and source.lstrip("{([ ")[:1].isupper():
        return morphology.capitalize(text)
    return text


@lru_cache(maxsize=1)
def default_translator() -> Translator:
    return Translator()


def dictionary_version() -> str:
    return builtin_version()
