"""The builtin EN→TR term dictionary: `terms/*.tsv`, one file per domain.

A line is `english<TAB>turkish[<TAB>kind[<TAB>possessive]]`. English is lower case, one or more words; Turkish is the
base form (a compound term such as "yağ filtresi" carries its own suffix). Kind is `n` (a noun: takes the possessive
when a noun comes before it), `g` (a generic part noun, which catalogs write first and then say what it belongs to:
"Seal, oil pump", "PUMP ASSY, WATER", "Bracket - engine mounting"), `m` (a modifier that comes before a noun
unchanged: materials, adjectives) or `l` (a location: a modifier that also moves to the front when a name gives it after
a comma, "brake disc, front left"). Possessive is given only where it is irregular (kapak → kapağı, hat → hattı).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

TERMS_DIR = Path(__file__).with_name("terms")
KINDS = {"n": "noun", "g": "noun", "m": "modifier", "l": "location"}


@dataclass(frozen=True)
class Term:
    english: str
    turkish: str
    kind: str = "noun"  # noun, modifier or location
    possessive: str | None = None
    generic: bool = False  # a part noun that inverted names give first ("Seal, oil pump")


def _parse(line: str) -> Term | None:
    fields = line.rstrip("\n").split("\t")
    if not fields[0].strip() or fields[0].startswith("#") or len(fields) < 2:
        return None
    code = (fields[2].strip() or "n") if len(fields) > 2 else "n"
    possessive = fields[3].strip() or None if len(fields) > 3 else None
    return Term(" ".join(fields[0].lower().split()), fields[1].strip(), KINDS[code], possessive, code == "g")


@lru_cache(maxsize=1)
def builtin_terms() -> tuple[Term, ...]:
    terms = []
    for path in sorted(TERMS_DIR.glob("*.tsv")):
        terms.extend(term for line in path.read_text(encoding="utf-8").splitlines() if (term := _parse(line)))
    return tuple(terms)


@lru_cache(maxsize=1)
def builtin_version() -> str:
    digest = hashlib.sha256()
    for path in sorted(TERMS_DIR.glob("*.tsv")):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]
