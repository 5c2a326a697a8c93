"""Turkish suffixes the translator adds: the third-person possessive of compound nouns (izafet) and the plural, by
vowel harmony; and Turkish-aware capitalisation (i → İ, ı → I)."""

from __future__ import annotations

VOWELS = "aeıioöuü"
BACK_UNROUNDED, FRONT_UNROUNDED, BACK_ROUNDED, FRONT_ROUNDED = "aı", "ei", "ou", "öü"


def last_vowel(word: str) -> str | None:
    return next((char for char in reversed(word.lower()) if char in VOWELS), None)


def possessive(word: str) -> str:
    """`filtre` → `filtresi`, `kapak` → `kapakı` (irregular forms such as kapağı come from the dictionary)."""
    vowel = last_vowel(word) or "e"
    suffix = {**dict.fromkeys(BACK_UNROUNDED, "ı"), **dict.fromkeys(FRONT_UNROUNDED, "i"),
              **dict.fromkeys(BACK_ROUNDED, "u"), **dict.fromkeys(FRONT_ROUNDED, "ü")}[vowel]  # fmt: skip
    return f"{word}s{suffix}" if word[-1:].lower() in VOWELS else f"{word}{suffix}"


def plural(word: str) -> str:
    """`kapı` → `kapılar`, `fren` → `frenler`."""
    vowel = last_vowel(word) or "e"
    return f"{word}{'lar' if vowel in BACK_UNROUNDED + BACK_ROUNDED else 'ler'}"


def lower(text: str) -> str:
    return text.replace("I", "ı").replace("İ", "i").lower()


def upper(text: str) -> str:
    return text.replace("i", "İ").replace("ı", "I").upper()


def capitalize(text: str) -> str:
    """The first letter in upper case, Turkish-style; the rest as it is."""
    return upper(text[:1]) + text[1:] if text else text
