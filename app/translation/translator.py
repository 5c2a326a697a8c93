"""The rule-based EN→TR translator of catalog names (rules in docs/decisions.md, "Turkish catalog names").

A name is split at its commas (and Ford's " - "); an inverted name whose first part is a generic part noun is put
back in English order first ("Seal, oil pump", "PUMP ASSY, WATER", Hyundai's "FILTER ASSY-OIL"). Each part is read
word by word, longest dictionary term first. In a part, positions and other locations come first (front/rear, then
left/right, then the rest), modifiers keep their place before the nouns, and the last noun is the head: it takes the
possessive when a noun comes before it (izafet: "oil filter housing" → "yağ filtresi gövdesi"). "A for B" is the
compound "B A" ("Bracket f. radiator" → "radyatör braketi"), "A with B" the adjective "B-lı A" ("contalı devirdaim
pompası"). A comma part that is only a location moves in front ("brake pad set, front axle" → "ön aks fren balata
seti"). Codes, numbers, sizes, acronyms, brand names and the Turkish 'see table' phrasing stay as they are; words the
dictionary does not know stay in English and are reported, so the caller can mark the name.
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
SEPARATOR = re.compile(r",(?!\d)|\s+-\s+")  # a comma (not a decimal one) or Ford's " - "
AND = re.compile(r"\s(?:and|&)\s", re.IGNORECASE)
FOR = re.compile(r"(?:^|\s)(?:for|f\.)\s+(.+)$", re.I)
FOR_START = re.compile(r"^(?:for|f\.)\s+", re.I)
WITH = re.compile(r"(?:^|\s)(?:with|w/(?!o\b))\s*(.+)$", re.I)
CLAUSES = (  # (pattern of a trailing clause, Turkish with {x}, whether it goes before the rest)
    (re.compile(r"(?:^|\s)(?:for|f\.)\s+vehicles without (.+)$", re.I), "{x} bulunmayan araçlar için", True),
    (re.compile(r"(?:^|\s)(?:for|f\.)\s+vehicles with (.+)$", re.I), "{x} bulunan araçlar için", True),
    (FOR, "{x} için", True),
    (re.compile(r"(?:^|\s)(?:without|w/o)\s+(.+)$", re.I), "{x} olmadan", False),
    (WITH, "{x} ile", False),
    (re.compile(r"(?:^|\s)(?:incl\.?|including) (.+)$", re.I), "{x} dahil", False),
    (re.compile(r"^(?:before|upstream of) (.+)$", re.I), "{x} öncesi", False),
    (re.compile(r"^(?:after|downstream of) (.+)$", re.I), "{x} sonrası", False),
)
ASSEMBLY = frozenset({"assy", "asy"})  # Hyundai's "FILTER ASSY-OIL": the hyphen is an inverted name's comma
FUNCTIONS = frozenset({"return", "feed", "supply", "inlet", "outlet", "input", "output", "pressure", "suction"})
PIECES = frozenset({"part", "section", "half", "piece"})
KITS = frozenset({"set", "kit", "repair kit"})  # "Brake pads, set": the set of them
AFTER_NAME = frozenset({"assy", "asy", "sub-assy", "cpl.", "cpl", "compl.", "compl", "assembly"})  # "X, cpl.": X komple
LOCATION_ORDER = {"ön": 0, "arka": 0, "sol": 1, "sağ": 1, "sürücü": 1, "yolcu": 1}  # then the rest: üst, iç, dış…
COUNT = re.compile(r"^(set|kit|pack) of (\d{1,6})$", re.I)  # "Spark plug, set of 4" → "Buji, 4'lü set"
COUNT_NOUNS = {"set": "set", "kit": "set", "pack": "paket"}
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
    order: int = 2  # of its locations: 0 front/rear, 1 left/right, 2 others (upper, inner…)
    places: tuple[str, ...] = ()  # the locations its text starts with


class Translator:
    def __init__(self, extra_terms: Iterable[Term] = (), provider: TranslationProvider | None = None) -> None:
        extra = list(extra_terms)
        self._terms = {term.english: term for term in builtin_terms()}
        self._terms.update({term.english: term for term in extra})
        self._longest = max(len(english.split()) for english in self._terms)
        nouns = [term for term in self._terms.values() if term.kind == "noun" and " " not in term.turkish]
        # the dictionary's one-word Turkish nouns, with their possessive where it is irregular
        self._turkish_words = {term.turkish: term.possessive for term in nouns if term.possessive} | {
            term.turkish: None for term in nouns if not term.possessive
        }
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
        read = self._unshouted(body) if _all_capitals(body) else body
        chunks = [chunk.strip() for chunk in SEPARATOR.split(read) if chunk.strip()]
        chunks = _functions_inside(self._inverted(chunks))
        after = [chunk for index, chunk in enumerate(chunks) if index and chunk.lower() in AFTER_NAME]
        parts = [self._part(chunk) for chunk in chunks if chunk not in after]
        leading = [part for index, part in enumerate(parts) if index and part.location]
        rest = [part for part in parts if part not in leading]
        placed = bool(chunks) and self._terms.get(chunks[0].split(" ")[0].lower(), Term("", "")).kind == "location"
        first = _fronted(leading, rest[0] if rest else _Part(""), placed)
        words = " ".join([*first, *(self._part(word).text for word in after)])
        translated = ", ".join(chunk for chunk in [words, *(part.text for part in rest[1:]), reference] if chunk)
        unknown = tuple(dict.fromkeys(word for part in parts for word in part.unknown))
        return Translation(text, _styled(translated, body or source), unknown)

    def _unshouted(self, text: str) -> str:
        """An all-capital name (Toyota, Ford, Hyundai) read in lower case: its longer words are words, not acronyms
        (one of up to three letters may be one: ABS, EGR), and a hyphen after a generic part noun or ASSY is the comma
        of an inverted name ("FILTER ASSY-OIL", "BUMPER-FRONT"; a term such as "V-BELT" stays whole)."""
        words = [word if len(word) <= 3 or _kept_code(word) else word.lower() for word in text.split(" ")]
        for index, word in enumerate(words):
            left, dash, right = word.partition("-")
            term = self._terms.get(left.lower())
            noun = left.lower() in ASSEMBLY or (term is not None and term.kind == "noun")
            if dash and right and noun and word.lower() not in self._terms:
                words[index] = f"{left}, {right}"
                break
        return " ".join(words)

    def _inverted(self, chunks: list[str]) -> list[str]:
        """An inverted name back in English order: "Seal, oil pump" → "oil pump Seal", "PUMP ASSY, WATER" → "WATER
        PUMP ASSY", "Bracket, for radiator" → "radiator Bracket", "Mirror, interior" → "interior Mirror". Only when
        the whole is then known and either the first part is a generic part noun and the second names a part, or
        the English order makes a dictionary term across the comma ("Fan, radiator": "radiator fan"); two groups
        ("Clutch, gearbox") and a position ("Bumper, front") stay as they are."""
        if len(chunks) < 2:
            return chunks
        first, second = chunks[0], FOR_START.sub("", chunks[1])
        if second.lower() in KITS:  # "Piston rings, set" → "Piston ring set"
            return [f"{self._singular_phrase(first)} {second}", *chunks[2:]]
        if any(pattern.search(second) for pattern, *_ in CLAUSES) or any(p.match(second) for p, _ in DATES):
            return chunks
        if second.lower().rsplit(" ", 1)[-1] in PIECES:  # "Oil sump, lower part": a piece of it, not for it
            return chunks
        merged = f"{second} {first}"
        units, apart = self._units(merged.split()), self._units(second.split())
        if any(unit.kind == "unknown" for unit in units):
            return chunks
        across = [unit.text for unit in units] != [unit.text for unit in [*apart, *self._units(first.split())]]
        if all(unit.kind in {"location", "modifier"} for unit in apart):  # "Mirror, interior"; not "Bumper, front"
            inverted = across and all(unit.kind == "modifier" for unit in apart)
        else:
            heads = [unit for unit in self._units(first.split()) if unit.kind != "modifier"]
            generic = len(heads) == 1 and heads[0].term is not None and heads[0].term.generic and not heads[0].plural
            inverted = across or (generic and any(unit.kind in {"noun", "unknown"} or _acronym(unit) for unit in apart))
        return [merged, *chunks[2:]] if inverted else chunks

    def _part(self, chunk: str, lead: str = "") -> _Part:
        for pattern, turkish in DATES:
            if match := pattern.match(chunk):
                return _Part(turkish.format(x=match.group(1)))
        if match := COUNT.match(chunk):
            return _Part(f"{morphology.with_number(int(match.group(2)))} {COUNT_NOUNS[match.group(1).lower()]}")
        core, size = _sized(chunk)
        if size and any(pattern.search(core) for pattern, *_ in CLAUSES):
            part = self._part(core, lead)
            return _Part(f"{part.text} {size}", part.unknown, part.location, part.rank, part.order)
        for pattern, turkish, before in CLAUSES:
            match = pattern.search(chunk)
            if not match:
                continue
            head, said = chunk[: match.start()].strip(), match.group(1)
            if pattern is FOR and head and self._compounds(said):  # "Bracket f. radiator" → "radiator Bracket"
                return self._part(f"{self._singular_phrase(said)} {head}", lead)
            if pattern is WITH and (adjective := self._with_adjective(said)):
                lead = f"{lead} {adjective}".strip()
                return self._part(head, lead) if head else _Part(lead, location=True, rank=1)
            clause = self._part(said)
            rest = self._part(head, lead) if head else _Part(lead)
            said = turkish.format(x=clause.text)
            text = f"{said} {rest.text}" if before else f"{rest.text}, {said}"
            return _Part(text.strip(" ,"), [*rest.unknown, *clause.unknown])
        known = " ".join(chunk.lower().split()) in self._terms  # "crown wheel and pinion"
        if not known and len(sides := AND.split(chunk)) > 1 and all(side.strip() for side in sides):
            parts = [self._part(side.strip()) for side in sides]
            text = " ve ".join(part.text for part in parts)
            return _Part(f"{lead} {text}".strip(), [word for part in parts for word in part.unknown])
        return self._phrase(chunk.split(), lead)

    def _singular_phrase(self, phrase: str) -> str:
        """A phrase with its last word in the singular where the dictionary knows that ("wheel bolts" → "wheel
        bolt"): a noun that qualifies another is singular in Turkish ("bijon cıvatası kapağı")."""
        *words, last = phrase.split(" ")
        single = next((form for form in _singular_forms(last.lower()) if self.knows(form)), last)
        return " ".join([*words, single])

    def _compounds(self, said: str) -> bool:
        """Whether "A for B" is the compound "B A": B is a part, an assembly or an acronym (ABS), nothing else."""
        if any(pattern.search(said) for pattern, *_ in CLAUSES) or AND.search(f" {said} "):
            return False
        units = self._units(said.split())
        allowed = [unit.kind in {"noun", "modifier", "location"} or _acronym(unit) for unit in units]
        return all(allowed) and any(unit.kind == "noun" or _acronym(unit) for unit in units)

    def _with_adjective(self, said: str) -> str | None:
        """The adjective of "with X": "with gasket" → "contalı", "w/ wear sensor" → "aşınma sensörlü"."""
        units = self._units(said.split())
        if units and all(unit.kind == "modifier" for unit in units):  # "with collar": flanşlı already
            return " ".join(unit.text for unit in units)
        if not units or units[-1].kind != "noun" or any(unit.term is None for unit in units):
            return None
        *before, last = units
        term = last.term
        adjective = morphology.with_suffix(term.turkish, self._turkish_words, like=term.possessive)
        return adjective and " ".join([*(unit.text for unit in before), adjective])

    def _phrase(self, words: list[str], lead: str = "") -> _Part:
        units = _tidied(self._units(words))
        # a location that names a part ("front axle": ön aks) makes a compound too: "ön aks kirişi"
        nouns = [index for index, unit in enumerate(units) if self._noun_like(unit)]
        head = nouns[-1] if nouns else None
        texts = []
        for index, unit in enumerate(units):
            compound = head is not None and index == head and len(nouns) > 1
            texts.append(_inflected(unit, compound, self._turkish_words) if unit.term else unit.text)
        front = sorted((text for text, unit in zip(texts, units, strict=True) if unit.kind == "location"), key=_order)
        others = [text for text, unit in zip(texts, units, strict=True) if unit.kind != "location"]
        unknown = [unit.text.lower() for unit in units if unit.kind == "unknown"]
        # A part of only qualifiers moves in front of the name: locations first, then the other modifiers.
        qualifier = bool(units) and all(unit.kind in {"location", "modifier"} for unit in units)
        rank = 1 if qualifier and any(unit.kind == "modifier" for unit in units) else 0
        order = min(map(_order, front), default=2)
        text = " ".join([*front, *([lead] if lead else []), *others])
        return _Part(text, unknown, qualifier, rank, order, tuple(front))

    def _noun_like(self, unit: _Unit) -> bool:
        named = unit.kind == "location" and unit.text.rsplit(" ", 1)[-1] in self._turkish_words
        size = unit.kind == "raw" and _kept_code(unit.text)  # "Hose clamp 12-22": the clamp is the head
        return named or unit.kind in {"noun", "unknown"} or (unit.kind == "raw" and not size)

    def _units(self, words: list[str]) -> list[_Unit]:
        units, index = [], 0
        keys = [word.lower().strip("()[]\"'") for word in words]
        while index < len(words):
            for size in range(min(self._longest, len(words) - index), 0, -1):
                phrase = keys[index : index + size]
                term = self._terms.get(" ".join(phrase))
                plural = term is None and size > 1 and (term := self._plural_of(phrase)) is not None
                following = index + size < len(words)
                if term is not None and size > 1 and following and self._position_first(keys[index : index + size + 1]):
                    continue  # "front bumper cover": "front" + "bumper cover", not "front bumper" + "cover"
                if term is not None:
                    units.append(_Unit(term.turkish, term.kind, term, plural=plural))
                    index += size
                    break
            else:
                units.append(self._word(words[index], keys[index]))
                index += 1
        return units

    def _position_first(self, phrase: list[str]) -> bool:
        """Whether a phrase that starts with a position reads better as that position and a term made of the rest
        and the next word: "rear window seal" is "rear" + "window seal"."""
        first = self._terms.get(phrase[0])
        return first is not None and first.kind == "location" and " ".join(phrase[1:]) in self._terms

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


def _functions_inside(chunks: list[str]) -> list[str]:
    """ "Fuel line, return" → "Fuel return line": what a pipe or a line carries goes before its head noun."""
    functions = [chunk for chunk in chunks[1:] if chunk.lower() in FUNCTIONS]
    if not functions or " " not in chunks[0]:
        return chunks
    *words, head = chunks[0].split(" ")
    return [" ".join([*words, *functions, head]), *(chunk for chunk in chunks[1:] if chunk not in functions)]


def _tidied(units: list[_Unit]) -> list[_Unit]:
    """A word the next term already says is dropped ("brake wheel cylinder": fren + fren silindiri), and a noun after
    a number stays singular, as Turkish counts ("3 pieces": 3 parça)."""
    kept = [unit for unit, after in zip(units, [*units[1:], None], strict=True) if not _said_by(unit, after)]
    for before, unit in zip([None, *kept[:-1]], kept, strict=True):
        if unit.plural and before is not None and before.text.replace(".", "").replace(",", "").isdigit():
            unit.plural = False
    return kept


def _said_by(unit: _Unit, after: _Unit | None) -> bool:
    both = after is not None and unit.term is not None and after.term is not None and not unit.plural
    return both and after.text.startswith(unit.text + " ") and unit.kind == "noun"


def _fronted(leading: list[_Part], first: _Part, placed: bool) -> list[str]:
    """The name's first part with the qualifiers given after it in front: every location first, front/rear before
    left/right before the rest ("Handle, front door, outside LH" → "ön sol dış kapı kolu"), then the modifiers. A
    first part that starts with a position in a term of its own ("Rear silencer, left": arka susturucu) gives it up
    to the others when `placed`."""
    places = [part.text for part in leading if part.rank == 0] + list(first.places)
    body = first.text[len(" ".join(first.places)) :].strip() if first.places else first.text
    said, _, rest = body.partition(" ")
    if placed and places and not first.places and rest and LOCATION_ORDER.get(said) == 0:  # "Rear silencer, left"
        places, body = [*places, said], rest
    qualities = [part.text for part in leading if part.rank]
    return [text for text in [*sorted(places, key=_order), *qualities, body] if text]


def _order(location: str) -> int:
    return LOCATION_ORDER.get(location.split(" ")[0], 2)


def _sized(chunk: str) -> tuple[str, str]:
    """A part and the sizes or codes that end it: "Hex bolt with washer M8X25" → ("Hex bolt with washer", "M8X25")."""
    words = chunk.split()
    cut = len(words)
    while cut > 1 and any(char.isdigit() for char in words[cut - 1]):
        cut -= 1
    return " ".join(words[:cut]), " ".join(words[cut:])


def _acronym(unit: _Unit) -> bool:
    return unit.kind == "raw" and unit.text.isalpha() and unit.text.isupper() and unit.text.lower() not in BRANDS


def _kept_code(word: str) -> bool:
    """A code, a size or a word already Turkish ("Diğer")."""
    return any(char.isdigit() or char in TURKISH_LETTERS for char in word) or word.startswith("{")


def _all_capitals(text: str) -> bool:
    letters = [char for char in text if char.isalpha()]
    return len(letters) > 3 and all(char.isupper() for char in letters)


def _kept(word: str, key: str) -> bool:
    """Codes, numbers, sizes, acronyms, brand and model names, signs: written the same in Turkish."""
    return (
        _kept_code(word)
        or key in BRANDS
        or key in UNCHANGED_WORDS
        or not any(char.isalpha() for char in word)
        or (word.isupper() and len(word) <= 5)  # ABS, EGR, LED, PR
    )


def _inflected(unit: _Unit, compound: bool, known_words: dict[str, str | None]) -> str:
    """A dictionary word as it stands: the head of a compound takes the possessive (not when the term is a compound
    itself, which carries its own, unless it is a modifier and a noun: "egzoz lastik takozu"), a plural takes
    -lar/-ler."""
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
    first, _, last = base.rpartition(" ")
    if compound and last in known_words:  # "lastik takoz" is a modifier and a noun: "egzoz lastik takozu"
        return f"{first} {known_words[last] or morphology.possessive(last)}"
    return base


def _styled(text: str, source: str) -> str:
    """The Turkish in the source's case style: OIL FILTER → YAĞ FİLTRESİ, Oil filter → Yağ filtresi."""
    if _all_capitals(source):
        return morphology.upper(text)
    if source.lstrip("{([ ")[:1].isupper():
        return morphology.capitalize(text)
    return text


@lru_cache(maxsize=1)
def default_translator() -> Translator:
    return Translator()


def dictionary_version() -> str:
    return builtin_version()
