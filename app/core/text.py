"""Text helpers every layer may use: Turkish case folding for search keys, part numbers' search key, and the masked
e-mail address shown or logged in place of the real one."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

# After Turkish lower-casing: the Turkish letters with their ASCII base, so a dealer typing on a keyboard without
# them ("yag filtresi", "isik") finds "Yağ filtresi" and "IŞIK", and English catalog names ("OIL FILTER") are found
# in either case.
_TO_ASCII = str.maketrans({"ı": "i", "ğ": "g", "ü": "u", "ş": "s", "ö": "o", "ç": "c"})


def fold(text: str) -> str:
    """The search key of a name or a query word: Turkish case rules (İ→i, I→ı), then Turkish letters to ASCII."""
    text = unicodedata.normalize("NFC", text).replace("İ", "i").replace("I", "ı").lower()
    text = text.translate(_TO_ASCII)
    # Circumflexes (hâlâ, rüzgâr) and any other accent: drop the combining marks.
    decomposed = unicodedata.normalize("NFD", text)
    return "".join(char for char in decomposed if not unicodedata.combining(char))


_NOT_ALNUM = re.compile(r"[^0-9a-z]+")


CACHED_CODE_LENGTH = 64  # longer text (a pasted page) is folded each time, never kept


def fold_code(code: str) -> str:
    """A part number's search key: folded, letters and digits only ("34 11-6.860" → "34116860"); the catalog's OEM
    codes and the dealer's shelf list are matched by it, as a clerk types a number."""
    return _cached_fold_code(code) if len(code) <= CACHED_CODE_LENGTH else _fold_code(code)


@lru_cache(maxsize=65_536)  # an import folds each line's numbers and their pieces, which recur from line to line
def _cached_fold_code(code: str) -> str:
    return _fold_code(code)


def _fold_code(code: str) -> str:
    if code.isascii():
        # The same key, 5x faster (a shelf import folds a million numbers): on ASCII, fold's Turkish rules and its
        # accent stripping change nothing that lower() does not ("I" becomes "i" either way).
        return _NOT_ALNUM.sub("", code.lower())
    return _NOT_ALNUM.sub("", fold(code))


def masked_email(address: str) -> str:
    """ay***@example.com: enough to recognise an address, not to write to it."""
    local, _at, domain = address.partition("@")
    return f"{local[:2]}***@{domain}"
