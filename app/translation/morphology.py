"""Turkish suffixes the translator adds: the third-person possessive of compound nouns (izafet) and the plural, by
vowel harmony; and Turkish-aware capitalisation (i → İ, ı → I)."""

from __future__ import annotations

from collections.abc import Container

VOWELS = "aeıioöuü"
BACK_UNROUNDED, FRONT_UNROUNDED, BACK_ROUNDED, FRONT_ROUNDED = "aı", "ei", "ou", "öü"
HIGH_VOWEL = {**dict.fromkeys(BACK_UNROUNDED, "ı"), **dict.fromkeys(FRONT_UNROUNDED, "i"),
              **dict.fromkeys(BACK_ROUNDED, "u"), **dict.fromkeys(FRONT_ROUNDED, "ü")}  # fmt: skip


def last_vowel(word: str) -> str | None:
    return next((char for char in reversed(word.lower()) if char in VOWELS), None)


def possessive(word: str) -> str:
    """`filtre` → `filtresi`, `kapak` → `kapağı`, `basınç` → `basıncı` (irregular forms such as kilidi or bloğu
    come from the dictionary)."""
    suffix = HIGH_VOWEL[last_vowel(word) or "e"]
    return f"{word}s{suffix}" if word[-1:].lower() in VOWELS else f"{softened(word)}{suffix}"


SOFTENED = {"k": "ğ", "p": "b", "ç": "c"}


def softened(word: str) -> str:
    """The final consonant before a vowel suffix: ç always turns into c; k and p after a vowel turn into ğ and b
    in words of more than one syllable (salıncak → salıncağ-, but kit, set and römork stay)."""
    last = word[-1:]
    if last == "ç":
        return word[:-1] + "c"
    syllables = sum(char in VOWELS for char in word.lower())
    if last in ("k", "p") and syllables > 1 and word[-2:-1].lower() in VOWELS:
        return word[:-1] + SOFTENED[last]
    return word


def plural(word: str, like: str | None = None) -> str:
    """`kapı` → `kapılar`, `fren` → `frenler`; `like` is a form that shows the word's real harmony where it breaks
    the rule (ampul, whose possessive is ampulü: ampuller)."""
    vowel = last_vowel(like or word) or "e"
    return f"{word}{'lar' if vowel in BACK_UNROUNDED + BACK_ROUNDED else 'ler'}"


def plural_possessive(word: str, like: str | None = None) -> str:
    """`disk` → `diskleri`, `filtre` → `filtreleri` (the head of a compound in the plural)."""
    many = plural(word, like)
    return many + ("ı" if many.endswith("lar") else "i")


UNSOFTENED = {"ğ": "k", "b": "p", "c": "ç", "d": "t"}


def compound_plural(compound: str, known_words: Container[str]) -> str:
    """The plural of a compound from the dictionary. When its last word carries the possessive, the plural goes
    before it: `yağ filtresi` → `yağ filtreleri`, `fren diski` → `fren diskleri`, `kapı kilidi` → `kapı kilitleri`.
    After a consonant the stem must be one of `known_words` (the dictionary's one-word Turkish nouns); when the last
    word is itself such a noun, the compound is an adjective and a noun and takes the plain plural (`ara soğutucu` →
    `ara soğutucular`); otherwise the compound keeps the singular rather than risk a wrong form."""
    *first, last = compound.split(" ")
    if not first or len(last) < 3 or last[-1] not in "ıiuü":
        return plural(compound)
    stem = possessive_stem(last, known_words)
    if stem is None:
        return plural(compound) if last in known_words else compound
    return " ".join([*first, plural_possessive(stem, like=last)])


def possessive_stem(word: str, known_words: Container[str]) -> str | None:
    """The noun a possessive form was made of (`filtresi` → `filtre`, `kilidi` → `kilit`, `kemeri` → `kemer`), or
    None where it cannot be told: a word that is itself one of `known_words` (soğutucu) is no possessive, and after a
    consonant a stem among `known_words` wins (kilit, whose possessive is irregular)."""
    if len(word) < 3 or word[-1] not in "ıiuü":
        return None
    if word[-2] == "s" and word[-3] in VOWELS and possessive(word[:-2]) == word:
        return word[:-2]
    stems = (word[:-1], word[:-2] + UNSOFTENED.get(word[-2], word[-2]))
    known = next((stem for stem in stems if stem in known_words and word.startswith(stem[:-1])), None)
    if known or word in known_words:
        return known
    # a noun the dictionary lacks alone (kemer in "emniyet kemeri"): the stem whose possessive it is, softened first
    return next((stem for stem in reversed(stems) if stem[-1] not in VOWELS and possessive(stem) == word), None)


def with_suffix(compound: str, known_words: Container[str], like: str | None = None) -> str | None:
    """The adjective "with X" (-lı/-li/-lu/-lü by vowel harmony): `conta` → `contalı`, `pul` → `pullu`, `yağ
    soğutucusu` → `yağ soğutuculu`, `aktif karbon` → `aktif karbonlu`; `like` shows the harmony where it breaks the
    rule (ampul → ampullü). None where the compound's last word may carry a possessive that cannot be taken off."""
    *first, last = compound.split(" ")
    if first and last[-1:] in "ıiuü" and last not in known_words:
        last = possessive_stem(last, known_words)
        if last is None:
            return None
        like = None
    return " ".join([*first, last + "l" + HIGH_VOWEL[last_vowel(like or last) or "e"]])


ONES_VOWEL = " iiüöeıeiu"  # the last vowel of bir, iki, üç, dört, beş, altı, yedi, sekiz, dokuz
TENS_VOWEL = " oiuıiıiea"  # on, yirmi, otuz, kırk, elli, altmış, yetmiş, seksen, doksan


def with_number(number: int) -> str:
    """The adjective "of N" as Turkish writes it after a numeral: 4 → 4'lü, 6 → 6'lı, 10 → 10'lu, 100 → 100'lü."""
    if number % 10:
        vowel = ONES_VOWEL[number % 10]
    elif number % 100:
        vowel = TENS_VOWEL[number % 100 // 10]
    else:
        vowel = "ü" if number % 1000 else "i"  # yüz, bin
    return f"{number}'l{HIGH_VOWEL[vowel]}"


def lower(text: str) -> str:
    return text.replace("I", "ı").replace("İ", "i").lower()


def upper(text: str) -> str:
    return text.replace("i", "İ").replace("ı", "I").upper()


def capitalize(text: str) -> str:
    """The first letter in upper case, Turkish-style; the rest as it is."""
    return upper(text[:1]) + text[1:] if text else text
