"""Write `oe_labelled.jsonl`: distributor price-list lines with the OE numbers each one truly states.

Run from the repository root: `.venv/bin/python tests/suppliers/data/make_oe_labelled.py`. Seeded, so the file only
changes when this script does. Written from how Turkish distributors' feeds look (not from what a parser reads):
each maker's number in the ways feeds write it (spaced groups, dots, dashes, lower case, glued), several numbers
on a line with any separator (a single space too), brand words in any case with Turkish dotted/dotless i, "OE:" and
"Orijinal No:" labels, notes ("(2 adet)", "sol", "L=245mm"), an OEM column and an EAN now and then. Each line also
carries near-misses: numbers a parser could wrongly read from it (another suffix letter, the suffix dropped, two
digits swapped, a digit dropped or changed, an EAN with a wrong check digit) that it does NOT state.

Labels, per line: `numbers`, the folded keys (`app.core.text.fold_code`) stated by the OE field, the OEM column
and a valid EAN; `near_misses`, folded keys close to them that are not stated.
"""

from __future__ import annotations

import json
import random
import string
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))

from app.core.text import fold_code  # noqa: E402

SEED = 20261128
GENERATED_LINES = 640
OUT = Path(__file__).with_name("oe_labelled.jsonl")
DIGITS = string.digits
UPPER = "ABCDEFGHJKLMNPQRSTVWXZ"  # VAG suffix letters avoid I, O, U, Y


def digits(rng: random.Random, count: int) -> str:
    return "".join(rng.choice(DIGITS) for _ in range(count))


# Each maker: how a number is made, how feeds write it, and the brand words in front of it.
def vag(rng):
    prefix = rng.choice(
        ["1K0", "1K1", "3C0", "5Q0", "06A", "03L", "03G", "04E", "8P0", "8E0", "4F0", "7L6", "6Q0", "1J0", "2K0"]
        + ["7H0", "059", "036", "038", "03C", "04L", "5K0", "6R0", "3G0", "8K0", "4G0", "1T0", "7M0", "3B0", "6R0"]
    )
    suffix = rng.choice(["", "", "A", "B", "C", "D", "E", "G", "H", "K", "M", "AA", "AB", "BK", "CG", "Q", "N"])
    return prefix + digits(rng, 3) + digits(rng, 3) + suffix


def write_vag(number, rng):
    a, b, c, s = number[:3], number[3:6], number[6:9], number[9:]
    style = rng.choice(["plain", "plain", "spaced", "spaced_suffix", "dashed", "dashed_suffix", "dotted", "lower"])
    if style == "spaced":
        return f"{a} {b} {c}{s}"
    if style == "spaced_suffix":
        return f"{a} {b} {c} {s}".strip()
    if style == "dashed":
        return f"{a}-{b}-{c}{s}"
    if style == "dashed_suffix":
        return f"{a}-{b}-{c}-{s}".strip("-")
    if style == "dotted":
        return f"{a}.{b}.{c}{'.' + s if s else ''}"
    if style == "lower":
        return number.lower()
    return number


def mercedes(rng):
    group = rng.choice(["000", "001", "002", "004", "112", "271", "611", "646", "651", "166", "204", "212", "906"])
    return "A" + group + digits(rng, 7)


def write_mercedes(number, rng):
    body = number[1:]
    g = (body[:3], body[3:6], body[6:8], body[8:])
    style = rng.choice(["plain", "groups", "groups", "glued_a", "four_last", "no_a", "dotted"])
    if style == "groups":
        return f"A {g[0]} {g[1]} {g[2]} {g[3]}"
    if style == "glued_a":
        return f"A{g[0]} {g[1]} {g[2]} {g[3]}"
    if style == "four_last":
        return f"A {g[0]} {g[1]} {g[2]}{g[3]}"
    if style == "no_a":
        return f"{g[0]} {g[1]} {g[2]} {g[3]}"
    if style == "dotted":
        return f"A{g[0]}.{g[1]}.{g[2]}.{g[3]}"
    return number


def bmw(rng):
    group = rng.choice(["11", "12", "13", "16", "17", "18", "31", "32", "33", "34", "51", "61", "63", "64"])
    return group + digits(rng, 2) + rng.choice("1235678") + digits(rng, 6)


def write_bmw(number, rng):
    g = (number[:2], number[2:4], number[4], number[5:8], number[8:])
    style = rng.choice(["plain", "groups", "groups", "two_two_seven", "dotted"])
    if style == "groups":
        return " ".join(g)
    if style == "two_two_seven":
        return f"{g[0]} {g[1]} {number[4:]}"
    if style == "dotted":
        return ".".join(g)
    return number


def ford(rng):
    if rng.random() < 0.15:  # an engineering number, e.g. 3M51-2C405-AB
        prefix = rng.choice(["3M51", "XS4Q", "1S7G", "BV61", "AV6Q", "8V21"])
        return f"{prefix}-{digits(rng, 1)}{rng.choice(UPPER)}{digits(rng, 3)}-{rng.choice(['AA', 'AB', 'AC', 'BA'])}"
    return rng.choice("12") + digits(rng, 6)


def write_ford(number, rng):
    if "-" in number:
        return rng.choice([number, number.replace("-", " "), number.replace("-", "")])
    style = rng.choice(["plain", "plain", "groups", "dotted"])
    if style == "groups":
        return f"{number[0]} {number[1:4]} {number[4:]}"
    if style == "dotted":
        return f"{number[0]}.{number[1:4]}.{number[4:]}"
    return number


def psa(rng):
    if rng.random() < 0.3:
        return "96" + digits(rng, 8)
    tail = rng.choice(["AY", "CK", "F4", "G4", "H7", "J3", "Q6", "T5", "A8"]) if rng.random() < 0.7 else digits(rng, 2)
    return rng.choice(["1109", "1201", "1444", "1609", "1644", "1906", "4254", "5033", "0830", "1613", "4541"]) + tail


def write_psa(number, rng):
    if len(number) == 10:
        return rng.choice([number, f"{number[:2]} {number[2:5]} {number[5:8]} {number[8:]}"])
    return rng.choice(
        [f"{number[:4]}.{number[4:]}", f"{number[:4]}.{number[4:]}", number, f"{number[:4]} {number[4:]}"]
    )


def renault(rng):
    if rng.random() < 0.2:
        return digits(rng, 5) + digits(rng, 4) + "R"
    return rng.choice(["77", "82"]) + digits(rng, 8)


def write_renault(number, rng):
    if number.endswith("R"):
        return rng.choice([number, f"{number[:5]}-{number[5:]}", f"{number[:5]} {number[5:]}"])
    style = rng.choice(["plain", "groups", "groups", "dotted"])
    if style == "groups":
        return f"{number[:2]} {number[2:4]} {number[4:7]} {number[7:]}"
    if style == "dotted":
        return f"{number[:2]}.{number[2:4]}.{number[4:7]}.{number[7:]}"
    return number


def opel(rng):
    if rng.random() < 0.4:
        return rng.choice(["93", "95", "55", "13"]) + digits(rng, 6)  # GM, 8 digits
    return rng.choice(["56", "16", "48", "90", "60", "83"]) + digits(rng, 5)  # Opel catalog, 7 digits


def write_opel(number, rng):
    if len(number) == 7:
        return rng.choice([number, number, f"{number[:2]} {number[2:4]} {number[4:]}"])
    return rng.choice([number, number, number, f"{number[:2]} {number[2:5]} {number[5:]}"])


def toyota(rng):
    head = rng.choice(["04152", "90915", "17801", "48510", "04465", "16100", "13568", "90919", "43512"])
    return head + rng.choice([digits(rng, 5), "YZZA" + digits(rng, 1), "0D" + digits(rng, 3), "YZZD" + digits(rng, 1)])


def write_five_five(number, rng):
    return rng.choice(
        [f"{number[:5]}-{number[5:]}", f"{number[:5]}-{number[5:]}", number, f"{number[:5]} {number[5:]}"]
    )


def hyundai(rng):
    head = rng.choice(["26300", "28113", "31922", "58101", "25212", "54813", "23300", "21421", "51712"])
    return head + rng.choice([digits(rng, 5), digits(rng, 1) + rng.choice("BHKLRS") + digits(rng, 3)])


def fiat(rng):
    return rng.choice(["46", "55", "71", "51", "60", "77"]) + digits(rng, 6)


def write_plain(number, rng):
    return number


MAKERS = {
    "vag": (vag, write_vag, ["VW", "vw", "Vw", "VAG", "VOLKSWAGEN", "Volkswagen", "AUDI", "Audi", "SEAT", "SKODA"]),
    "mercedes": (
        mercedes,
        write_mercedes,
        ["MERCEDES", "Mercedes", "MERCEDES-BENZ", "MERCEDES BENZ", "MB", "M.BENZ", "Mercedes-Benz", "mercedes"],
    ),
    "bmw": (bmw, write_bmw, ["BMW", "Bmw", "MINI", "BMW/MINI"]),
    "ford": (ford, write_ford, ["FORD", "Ford", "ford"]),
    "psa": (psa, write_psa, ["PSA", "PEUGEOT", "CITROEN", "CİTROEN", "Citroën", "Peugeot", "PEUGEOT/CITROEN"]),
    "renault": (renault, write_renault, ["RENAULT", "Renault", "DACIA", "DACİA", "RENAULT/DACIA", "NISSAN"]),
    "opel": (opel, write_opel, ["OPEL", "Opel", "GM", "VAUXHALL", "CHEVROLET", "opel"]),
    "toyota": (toyota, write_five_five, ["TOYOTA", "Toyota", "LEXUS"]),
    "hyundai": (hyundai, write_five_five, ["HYUNDAI", "HYUNDAİ", "KIA", "KİA", "Hyundai", "Kia", "HYUNDAI/KIA"]),
    "fiat": (fiat, write_plain, ["FIAT", "FİAT", "Fiat", "ALFA ROMEO", "LANCIA", "TOFAŞ"]),
}
MAKER_WEIGHTS = {"vag": 5, "mercedes": 3, "bmw": 3, "ford": 3, "psa": 2, "renault": 3, "opel": 2}
MAKER_WEIGHTS |= {"toyota": 2, "hyundai": 2, "fiat": 2}
LABELS = ["", "", "", "OE:", "OE ", "OEM:", "OEM No:", "Orijinal No:", "ORJ NO:", "Orj.No:", "OE NO.", "Ref:", "OE No"]
SEPARATORS = [" / ", "/", ", ", ",", "; ", ";", " | ", "|", "*", " * ", "+", " + ", " ", "  ", "\n", " - ", " ;"]
SEPARATORS += ["-", "\r\n", " ve ", " veya ", " // "]
NOTES = ["(2 adet)", "sol", "sağ", "SOL", "SAĞ", "L=245mm", "ön", "ÖN", "arka", "ARKA", "(takım)", "2 ADET", "ön sol"]
NOTES += ["arka sağ", "D=52mm", "1.6 TDI", "2.0 HDI", "(orijinal)", "2012->", "4'lü set", "x2", "KIT", "(sol/sağ)"]
NOTES += ["Ø 280mm", "(4 ad.)", "üst", "alt", "*stokta yok*", "1.5 dCi", "L: 1045", "(VAG)", "(eski no)"]
NOTES += ["2005-2010", "Golf V 1.9 TDI", "(06/2008->)", "96 kW", "Passat B6", "C180 W204", "E46 320d", "Focus II"]
AFTERMARKET = ["BOSCH", "MANN-FILTER", "VALEO", "SKF", "FEBI", "MEYLE", "LEMFÖRDER", "SACHS", "TRW", "NGK", "HELLA"]
AFTERMARKET += ["CONTITECH", "GATES", "DAYCO", "MAHLE", "ATE", "BREMBO", "FILTRON", "INA", "LUK", "SWAG", "CORTECO"]


def near_misses(number: str, rng: random.Random) -> list[str]:
    """Numbers a careless reader could take for `number`: another suffix letter, the suffix dropped or added, two
    neighbouring characters swapped, a digit dropped, a digit changed."""
    misses = []
    if number[-1].isalpha() and len(number) > 7:
        misses.append(number[:-1] + rng.choice([c for c in UPPER if c != number[-1]]))
        if number[-2].isdigit():
            misses.append(number[:-1])  # the suffix dropped: the trap of a suffix written apart
    elif len(number) == 9 and number[:3].isalnum():
        misses.append(number + rng.choice(UPPER))  # another VAG index: a suffix added
    positions = [i for i, c in enumerate(number) if c.isdigit()]
    i = rng.choice(positions[:-1] or positions)
    if i + 1 < len(number) and number[i] != number[i + 1]:
        misses.append(number[:i] + number[i + 1] + number[i] + number[i + 2 :])
    j = rng.choice(positions)
    misses.append(number[:j] + number[j + 1 :])
    k = rng.choice(positions)
    misses.append(number[:k] + rng.choice([d for d in DIGITS if d != number[k]]) + number[k + 1 :])
    return misses


def ean13(rng: random.Random) -> str:
    body = rng.choice(["40", "42", "31", "86", "35", "54", "80"]) + digits(rng, 10)
    return body + check_digit(body)


def check_digit(body: str) -> str:
    total = sum(int(d) * (3 if i % 2 else 1) for i, d in enumerate(reversed(body), start=1))
    return str((10 - total % 10) % 10)


def a_number(maker: str, rng: random.Random) -> tuple[str, str]:
    make, write, _brands = MAKERS[maker]
    number = make(rng)
    return number, write(number, rng)


def stated_key(written: str) -> str:
    return fold_code(written)


def generated_line(rng: random.Random) -> dict:
    makers = rng.choices(list(MAKER_WEIGHTS), weights=list(MAKER_WEIGHTS.values()), k=rng.choice([1, 1, 1, 2]))
    parts, numbers, misses, stated = [], [], [], []
    label = rng.choice(LABELS)
    if label:
        parts.append(label)
    for maker in dict.fromkeys(makers):
        brand_words = MAKERS[maker][2]
        brand_at = rng.choice(["before", "before", "before", "each", "after", "none"])
        if brand_at in {"before", "each"}:
            parts.append(rng.choice(brand_words))
        count = rng.choice([1, 1, 2, 2, 3, 4])
        for index in range(count):
            number, written = a_number(maker, rng)
            if brand_at == "each" and index:
                parts.append(rng.choice(brand_words))
            parts.append(written)
            numbers.append(stated_key(written))
            stated.append((maker, number))
            misses += [fold_code(miss) for miss in near_misses(number, rng)]
            if rng.random() < 0.25:  # the same number again in another style, as feeds often do
                parts.append(MAKERS[maker][1](number, rng))
            if rng.random() < 0.15:
                parts.append(rng.choice(NOTES))
            parts.append(rng.choice(SEPARATORS))
        if brand_at == "after":
            parts.append(f"({rng.choice(brand_words)})")
            parts.append(rng.choice(SEPARATORS))
    if rng.random() < 0.3:
        parts.append(rng.choice(NOTES))
    oe_text = join_parts(parts[:-1] if parts[-1] in SEPARATORS else parts, rng)
    line = {"oe_text": oe_text, "brand": rng.choice(AFTERMARKET), "code": supplier_code(rng)}
    add_oem_column(line, stated, numbers, misses, rng)
    add_ean(line, numbers, misses, rng)
    keys = set(numbers)
    line["numbers"] = sorted(keys)
    line["near_misses"] = sorted({miss for miss in misses if miss not in keys and len(miss) >= 5})
    return line


def join_parts(parts: list[str], rng: random.Random) -> str:
    text = ""
    for part in parts:
        if part in SEPARATORS or not text or text.endswith(tuple(SEPARATORS)):
            text += part
        else:
            text += rng.choice([" ", " ", "  "]) + part
    return text.strip()


def supplier_code(rng: random.Random) -> str:
    return rng.choice(["BSH", "MNN", "VAL", "FEB", "MYL", "SKF"]) + "-" + digits(rng, rng.choice([5, 6, 7]))


def add_oem_column(line: dict, stated: list[tuple[str, str]], numbers: list[str], misses: list[str], rng) -> None:
    roll = rng.random()
    if roll < 0.1:  # one of the OE field's numbers again, in another style
        maker, number = rng.choice(stated)
        written = MAKERS[maker][1](number, rng)
    elif roll < 0.2:  # a number the OE field does not state
        maker = stated[0][0]
        number, written = a_number(maker, rng)
        misses += [fold_code(miss) for miss in near_misses(number, rng)]
    else:
        if roll < 0.25:
            line["oem_column"] = ""
        return
    line["oem_column"] = written
    numbers.append(fold_code(written))


def add_ean(line: dict, numbers: list[str], misses: list[str], rng: random.Random) -> None:
    roll = rng.random()
    if roll < 0.2:
        ean = ean13(rng)
        line["ean"] = rng.choice([ean, ean, " " + ean, ean[:1] + " " + ean[1:7] + " " + ean[7:]])
        numbers.append(ean)
        wrong = ean[:5] + str((int(ean[5]) + 1) % 10) + ean[6:]  # another valid EAN one digit off
        misses.append(wrong[:-1] + check_digit(wrong[:-1]))
    elif roll < 0.3:
        ean = ean13(rng)
        bad = ean[:-1] + str((int(ean[-1]) + rng.randint(1, 9)) % 10)  # a wrong check digit: not a GTIN
        line["ean"] = bad
        misses.append(bad)


# Lines in the style of real Turkish feeds, written by hand, with their labels.
HAND_WRITTEN = [
    ("VW 1K0-129-620D / 1K0129620D, AUDI 8P0 129 620", ["1k0129620d", "8p0129620"], ["1k0129620", "8p0129620a"]),
    ("OE: 06A115561B; 06A 115 561 C (VAG)", ["06a115561b", "06a115561c"], ["06a115561", "06a115561a"]),
    ("1K0615301AA*1K0615301M", ["1k0615301aa", "1k0615301m"], ["1k0615301ab", "1k0615301", "1k0615301n"]),
    ("MERCEDES A 000 180 26 09", ["a0001802609"], ["a0001802690", "a000180260", "0001802609"]),
    ("BMW 11 42 7 953 129", ["11427953129"], ["11427953192", "1142795312", "11427593129"]),
    ("Ford 1 751 478 / 1751478", ["1751478"], ["1715478", "175147", "1751487"]),
    ("PSA 1109.AY", ["1109ay"], ["1109az", "1109a", "1190ay"]),
    ("RENAULT 77 01 047 115", ["7701047115"], ["7701047151", "770104711", "8200047115"]),
    ("OPEL 56 50 319 / GM 93185674", ["5650319", "93185674"], ["5650391", "9318567", "93185647"]),
    ("TOYOTA 04152-YZZA1 04152-YZZA6", ["04152yzza1", "04152yzza6"], ["04152yzza2", "0415yzza1"]),
    ("HYUNDAI/KIA 26300-35505, 26300-35504", ["2630035505", "2630035504"], ["2630035503", "263003550"]),
    ("FİAT 46337528 - 55230951 (2 adet)", ["46337528", "55230951"], ["46337582", "5523095", "55230915"]),
    ("Orijinal No: 1K0 698 151 A sol", ["1k0698151a"], ["1k0698151", "1k0698151b", "1k0698151as"]),
    ("OEM:5Q0 615 301 H  5Q0615301F", ["5q0615301h", "5q0615301f"], ["5q0615301", "5q0615301g"]),
    ("MERCEDES-BENZ A6510900651 / A 651 090 06 51", ["a6510900651"], ["a651090065", "a6510900615"]),
    ("mercedes a 000 989 88 03 / A0009898803 5L", ["a0009898803"], ["a0009898830", "a000989880"]),
    ("BMW 34 11 6 860 264 / 34116860264 ÖN", ["34116860264"], ["34116860246", "3411686026", "34116860265"]),
    ("Bmw 11 42 7953129, MINI 11427512300", ["11427953129", "11427512300"], ["11427953128", "1142751230"]),
    ("FORD 1723401 | 1 723 402 sağ", ["1723401", "1723402"], ["1723403", "172340", "1732401"]),
    ("Ford 3M51-2C405-AB / 3M512C405AB", ["3m512c405ab"], ["3m512c405aa", "3m512c405a"]),
    ("PEUGEOT/CITROEN 1109.CK, 1109.AY + 1109.AZ", ["1109ck", "1109ay", "1109az"], ["1109cj", "1190ck"]),
    ("CİTROEN 96 832 505 80 - 9683250580", ["9683250580"], ["9683250508", "968325058", "9683250581"]),
    ("PSA 0830.94 / 1612.84", ["083094", "161284"], ["083049", "16128"]),
    ("RENAULT/DACIA 82 00 768 913 ; 8200768913 (2 adet)", ["8200768913"], ["8200768931", "820076891"]),
    ("DACİA 152089599R / 15208-9599R", ["152089599r"], ["152089599", "152089959r", "152089599s"]),
    ("Renault 77 00 274 177, 7700274177, NISSAN 15208-65F0E", ["7700274177", "1520865f0e"], ["7700274171"]),
    ("opel 95 528 299 / 95528299", ["95528299"], ["95528292", "9552829"]),
    ("OPEL 16 09 208 OPEL 5650319", ["1609208", "5650319"], ["1609280", "565031", "16092085650319"]),
    ("VAUXHALL 13 275 871", ["13275871"], ["1327587", "13275817"]),
    ("Toyota 90915-YZZD4 / 90915YZZD4 LEXUS 04152-31090", ["90915yzzd4", "0415231090"], ["90915yzzd2"]),
    ("TOYOTA 17801-0D060, 178010D060", ["178010d060"], ["178010d061", "17801d060"]),
    ("KİA 28113-2H000 HYUNDAİ 31922-2B900", ["281132h000", "319222b900"], ["281132h001", "319222b90"]),
    ("Hyundai 58101-1HA00 (ön takım)", ["581011ha00"], ["581011ha01", "58101ha00"]),
    ("FIAT 71753813 / ALFA ROMEO 55183561", ["71753813", "55183561"], ["71753831", "5518356"]),
    ("TOFAŞ 46337528 (2 adet)", ["46337528"], ["4633752", "46337582"]),
    ("VW 03L 115 562 / 03L115562 / 03L 115 562 A", ["03l115562", "03l115562a"], ["03l115562b", "03l11556"]),
    (
        "Orj.No: 7L6 698 451 | 7L6698451A | 7L6 698 451 B arka",
        ["7l6698451", "7l6698451a", "7l6698451b"],
        ["7l6698451c"],
    ),
    ("SKODA 1K0 407 151 AC sağ, SEAT 1K0407151AC", ["1k0407151ac"], ["1k0407151", "1k0407151ab", "1k0407151a"]),
    ("AUDI 4F0 615 301 E L=245mm", ["4f0615301e"], ["4f0615301", "4f0615301f", "4f0615301e245"]),
    ("06A 905 161 B / 101 905 601 F NGK", ["06a905161b", "101905601f"], ["06a905161", "101905601"]),
    ("OE NO. 1J0 698 151 S + 1J0 698 151 M", ["1j0698151s", "1j0698151m"], ["1j0698151", "1j0698151n"]),
    ("VW 5Q0 698 451 Q VW 5Q0 698 451 R", ["5q0698451q", "5q0698451r"], ["5q0698451", "5q0698451s"]),
    ("A 000 180 26 09 A 000 180 17 09", ["a0001802609", "a0001801709"], ["a0001802610", "a000180170"]),
    ("MB A 004 420 26 20, A 004 420 78 20 ön", ["a0044202620", "a0044207820"], ["a0044202602", "a004420782"]),
    ("M.BENZ 000 420 11 20 / A0004201120", ["0004201120", "a0004201120"], ["a0004201102", "000420112"]),
    ("11 42 8 575 211 11 42 8 507 683", ["11428575211", "11428507683"], ["11428575212", "1142850768"]),
    ("BMW 11.42.7.635.557 Orijinal", ["11427635557"], ["11427635575", "1142763555"]),
    ("Ford 1 377 983 1 377 985", ["1377983", "1377985"], ["1377984", "137798", "13779831377985"]),
    ("FORD 1 855 108 (eski no) 1 931 431 yeni", ["1855108", "1931431"], ["1855180", "193143"]),
    ("PEUGEOT 1444.TH / 1444 TJ  1444TK", ["1444th", "1444tj", "1444tk"], ["1444tl", "1444t"]),
    ("Citroën 1609.6853 / 16096853", ["16096853"], ["16096835", "1609685"]),
    ("RENAULT 82 00 051 608 sol 82 00 051 609 sağ", ["8200051608", "8200051609"], ["8200051607", "820005160"]),
    ("GM 93 185 674 (2 adet) OPEL 90 530 260", ["93185674", "90530260"], ["9318567", "93185675"]),
    ("OE: 04E 115 561 H ; 04E115561B ; 03C 115 561 J", ["04e115561h", "04e115561b", "03c115561j"], ["04e115561"]),
    ("VAG 059 198 405 B, 059198405", ["059198405b", "059198405"], ["059198405a", "059198450"]),
    ("8K0 615 301 M  4G0 615 301 K (takım)", ["8k0615301m", "4g0615301k"], ["8k0615301", "4g0615301"]),
    ("VW 1K0 127 434 A ÖN SOL", ["1k0127434a"], ["1k0127434", "1k0127434b", "1k0127434as"]),
    ("BMW 13 71 7 571 355 / 13717571355; MINI 13 71 7 532 754", ["13717571355", "13717532754"], ["1371757135"]),
    ("FORD 1 506 063 / XS4Q-9F593-AA", ["1506063", "xs4q9f593aa"], ["1506036", "xs4q9f593ab"]),
    ("RENAULT 77 01 474 426 + 77 01 474 427", ["7701474426", "7701474427"], ["7701474428", "770147442"]),
    ("TOYOTA 04465-0D160; 04465 02220", ["044650d160", "0446502220"], ["044650d161", "044650222"]),
    ("OEM No: 2K0 145 299 D, OPEL 16 07 112", ["2k0145299d", "1607112"], ["2k0145299", "1607121"]),
    ("Muadil: BOSCH 0 986 452 041; OE 1K0 129 620", ["1k0129620"], ["1k0129620d", "1k012962"]),
    ("FEBI 23573 / VW 6Q0 820 803 D", ["6q0820803d"], ["6q0820803", "6q0820803e"]),
    ("*** OE: 5Q0 129 620 B ***", ["5q0129620b"], ["5q0129620", "5q0129620c"]),
    ("MERCEDES 651 090 06 51 / 6510900651", ["6510900651"], ["a6510900652", "651090065"]),
]


def hand_written_lines() -> list[dict]:
    return [
        {"oe_text": text, "brand": "", "numbers": sorted(set(numbers)), "near_misses": sorted(set(misses))}
        for text, numbers, misses in HAND_WRITTEN
    ]


def main() -> None:
    rng = random.Random(SEED)
    lines = [generated_line(rng) for _ in range(GENERATED_LINES)] + hand_written_lines()
    with OUT.open("w", encoding="utf-8") as out:
        for line in lines:
            out.write(json.dumps(line, ensure_ascii=False) + "\n")
    print(f"{len(lines)} lines written to {OUT.name}")


if __name__ == "__main__":
    main()
