"""Car makers and aftermarket brands as distributors' feeds name them, and the shapes of each maker's part numbers:
what `app.suppliers.oe_fields` reads an OE field by, and what tells a suggestion's brand hint."""

from __future__ import annotations

import re

from app.core.text import fold_code

# A maker's names as feeds write them (folded, letters and digits only) and the family of number shapes it uses.
BRANDS = {
    "VW": ("vw", "volkswagen", "vag", "vwaudi"),
    "AUDI": ("audi",),
    "SEAT": ("seat", "cupra"),
    "SKODA": ("skoda",),
    "MERCEDES": ("mercedes", "mercedesbenz", "benz", "mb", "mbenz", "daimler"),
    "BMW": ("bmw", "mini"),
    "FORD": ("ford",),
    "PSA": ("psa", "peugeot", "citroen"),
    "RENAULT": ("renault", "dacia"),
    "NISSAN": ("nissan",),
    "OPEL": ("opel", "gm", "vauxhall", "chevrolet"),
    "TOYOTA": ("toyota", "lexus"),
    "HYUNDAI": ("hyundai", "kia", "hyundaikia"),
    "FIAT": ("fiat", "alfa", "alfaromeo", "romeo", "lancia", "tofas"),
    "HONDA": ("honda",),
    "VOLVO": ("volvo",),
}
# Aftermarket brands: the numbers after one are its own, not a car maker's.
AFTERMARKET_BRANDS = {
    "BOSCH": ("bosch",),
    "MANN-FILTER": ("mann", "mannfilter"),
    "VALEO": ("valeo",),
    "SKF": ("skf",),
    "FEBI": ("febi", "febibilstein"),
    "MEYLE": ("meyle",),
    "LEMFÖRDER": ("lemforder", "lemfoerder"),
    "SACHS": ("sachs",),
    "TRW": ("trw",),
    "NGK": ("ngk",),
    "HELLA": ("hella",),
    "CONTITECH": ("contitech", "conti"),
    "GATES": ("gates",),
    "DAYCO": ("dayco",),
    "MAHLE": ("mahle", "knecht"),
    "ATE": ("ate",),
    "BREMBO": ("brembo",),
    "FILTRON": ("filtron",),
    "INA": ("ina",),
    "LUK": ("luk",),
    "SWAG": ("swag",),
    "CORTECO": ("corteco",),
    "ELRING": ("elring",),
    "DELPHI": ("delphi",),
    "DENSO": ("denso",),
}
BRAND_OF = {alias: brand for brand, aliases in (BRANDS | AFTERMARKET_BRANDS).items() for alias in aliases}
FAMILY = {"AUDI": "VW", "SEAT": "VW", "SKODA": "VW", "NISSAN": "TOYOTA", "HONDA": "TOYOTA"}

# Each maker's shapes; `S` stands for an optional group separator (space, dot, dash) where feeds put one.
SHAPES = {
    "VW": [r"\d[A-Z0-9]{2}S\d{3}S\d{3}(?:S[A-Z]{1,3})?"],
    "MERCEDES": [r"A?S\d{3}S\d{3}S\d{2}S?\d{2}"],
    "BMW": [r"\d{2}S\d{2}S\dS?\d{3}S?\d{3}"],
    "FORD": [r"[12]S\d{3}S\d{3}", r"(?=[A-Z]*\d)[0-9A-Z]{4}S\d[A-Z]\d{3,4}S[A-Z]{2}"],
    "PSA": [r"\d{4}S[A-Z0-9]{2}", r"\d{4}\.\d{2,4}", r"(?:96|98|16|36)S?\d{3}S?\d{3}S?\d{2}"],
    "RENAULT": [r"\d{2}S\d{2}S\d{3}S\d{3}", r"\d{5}S\d{4}R"],
    "OPEL": [r"\d{2}S\d{2}S\d{3}", r"\d{2}S\d{3}S\d{3}"],
    "TOYOTA": [r"\d{5}S[A-Z0-9]{5}", r"\d{5}S[A-Z0-9]{3}S[A-Z0-9]{3}"],
    "HYUNDAI": [r"\d{5}S[A-Z0-9]{5}"],
    "FIAT": [r"\d{8}"],
    "BOSCH": [r"[0-9F]S\d{3}S\d{3}S\d{3}"],  # cross-references in OE fields: "0 986 452 041", "F 026 400 012"
}


# A letter after a maker's number, its groups apart or not ("8201 845 706 A", "7701-048-491-F"), is read as the
# number's index, as VAG's are: read as a note, the number would be cut short into a near-miss of the real one,
# which an exact match takes. Glued on when it was a note, the number is only lost.
INDEX = r"(?:S[A-Z](?![A-Z0-9]))?"


def _compiled(shapes: list[str], separator: str) -> re.Pattern[str]:
    """One pattern for a maker's shapes, `S` made `separator`; ASCII only, as keys are ("٣" is no digit of one)."""
    pattern = "|".join(f"(?:{shape}){INDEX}" for shape in shapes).replace("S", separator)
    return re.compile(pattern, re.IGNORECASE | re.ASCII)


# A number as written (groups apart or not) and as its folded key (no separator, no dot).
WRITTEN = {family: _compiled(shapes, r"[ .\-]?") for family, shapes in SHAPES.items()}
ANY_WRITTEN = _compiled([shape.pattern for shape in WRITTEN.values()], "S")
KEYS = {family: _compiled([shape.replace(r"\.", "") for shape in shapes], "") for family, shapes in SHAPES.items()}


def brand_of(word: str) -> str | None:
    """The brand a word names ("CİTROEN", "Mercedes-Benz", "V.A.G"), normalised; None when it names none."""
    return BRAND_OF.get(fold_code(word))


def family_of(brand: str | None) -> str | None:
    """The family of number shapes a brand's numbers have ("AUDI" → "VW")."""
    return FAMILY.get(brand, brand) if brand else None


def families_of_key(key: str) -> set[str]:
    """The makers whose number shape a folded key has."""
    return {family for family, shape in KEYS.items() if shape.fullmatch(key)}
