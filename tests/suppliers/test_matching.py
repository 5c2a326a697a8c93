"""Matching a distributor's line to known part numbers: the OE field read, GTINs checked, exact matches with their
reason, near ones only suggested, and the figures over the labelled set of messy OE fields."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.core.text import fold_code
from app.suppliers.matching import (
    BRAND_HINT,
    EAN,
    OE_FIELD,
    OEM_COLUMN,
    SIMILAR_NUMBER,
    exact_matches,
    oe_numbers,
    suggestions,
    valid_gtin,
)
from app.suppliers.oe_fields import MAX_NUMBERS

LABELLED = Path(__file__).parent / "data" / "oe_labelled.jsonl"


def keys(text: str) -> list[str]:
    return [number.key for number in oe_numbers(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("VW 1K0-129-620D / 1K0129620D, AUDI 8P0 129 620", ["1k0129620d", "8p0129620"]),
        ("OE: 06A115561B; 06A 115 561 C (VAG)", ["06a115561b", "06a115561c"]),
        ("1K0 615 301 AA", ["1k0615301aa"]),
        ("1K0.615.301.M", ["1k0615301m"]),
        ("MERCEDES A 000 180 26 09", ["a0001802609"]),
        ("A000 180 26 09", ["a0001802609"]),
        ("A 000 180 2609", ["a0001802609"]),
        ("BMW 11 42 7 953 129", ["11427953129"]),
        ("BMW 11 42 7953129", ["11427953129"]),
        ("11.42.7.953.129", ["11427953129"]),
        ("Ford 1 751 478 / 1751478", ["1751478"]),
        ("FORD 3M51-2C405-AB", ["3m512c405ab"]),
        ("PSA 1109.AY", ["1109ay"]),
        ("PEUGEOT 1109 AY", ["1109ay"]),
        ("CITROEN 96 832 505 80", ["9683250580"]),
        ("RENAULT 77 01 047 115", ["7701047115"]),
        ("DACIA 15208-9599R", ["152089599r"]),
        ("OPEL 56 50 319", ["5650319"]),
        ("GM 93 185 674", ["93185674"]),
        ("TOYOTA 04152-YZZA1", ["04152yzza1"]),
        ("HYUNDAI 26300 35505", ["2630035505"]),
        ("FIAT 46337528", ["46337528"]),
        ("Muadil: BOSCH 0 986 452 041; OE 1K0 129 620", ["0986452041", "1k0129620"]),
    ],
)
def test_each_makers_style_is_one_number(text, expected):
    assert keys(text) == expected


@pytest.mark.parametrize("separator", [" / ", "/", ", ", ";", " | ", "*", "+", " + ", "\n", " - ", "  ", " ", "\t"])
def test_every_separator_parts_two_numbers(separator):
    assert keys(f"1K0615301AA{separator}1K0615301M") == ["1k0615301aa", "1k0615301m"]
    assert keys(f"A 000 180 26 09{separator}A 000 180 17 09") == ["a0001802609", "a0001801709"]
    assert keys(f"77 01 047 115{separator}82 00 768 913") == ["7701047115", "8200768913"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1751478 1751479", ["1751478", "1751479"]),
        ("1 377 983 1 377 985", ["1377983", "1377985"]),
        ("11 42 8 575 211 11 42 8 507 683", ["11428575211", "11428507683"]),
        ("1K0 129 620 D 8P0 129 620", ["1k0129620d", "8p0129620"]),
        ("1K0129620 A 000 180 26 09", ["1k0129620", "a0001802609"]),
        ("56 50 319 77 01 047 115", ["5650319", "7701047115"]),
        ("2317874-2503669", ["2317874", "2503669"]),
        ("04152-YZZA3-90915-04751", ["04152yzza3", "9091504751"]),
        ("8E0-102-821-H-7L6-378-640M", ["8e0102821h", "7l6378640m"]),
        ("77 71 731 043-8215539317", ["7771731043", "8215539317"]),
    ],
)
def test_numbers_a_single_space_or_dash_apart_are_not_glued(text, expected):
    assert keys(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Orijinal No: 1K0 698 151 A sol", ["1k0698151a"]),
        ("1K0 698 151 SOL (2 adet)", ["1k0698151"]),
        ("AUDI 4F0 615 301 E L=245mm", ["4f0615301e"]),
        ("FORD 1 751 478 2 ADET", ["1751478"]),
        ("RENAULT 82 00 768 913 sağ 2012->", ["8200768913"]),
        ("*** OE: 5Q0 129 620 B *** ön takım", ["5q0129620b"]),
        ("8E0 869 073 H-BMW 17 62 6 141 952 x2", ["8e0869073h", "17626141952"]),
        ("2 ADET-55243067", ["55243067"]),
        ("Focus II-31922 3K960", ["319223k960"]),
        ("L: 1045-1613T5", ["1613t5"]),
        ("\x00OE\u200b: 1K0\u00a0129 620\x7fD\r\n", ["1k0129620d"]),
        ("TOFAŞ 71355632 96 kW", ["71355632"]),
        ("1 215 369 2012->", ["1215369"]),
        ("1K0 680 293 L: 1045", ["1k0680293"]),
        ("HYUNDAI 28113-11861-96 kW", ["2811311861"]),
        ("NISSAN 42717-6067R-ARKA", ["427176067r"]),
        ("04152 YZZD1-Focus II", ["04152yzzd1"]),
    ],
)
def test_notes_are_not_read_as_pieces(text, expected):
    assert keys(text) == expected


@pytest.mark.parametrize(
    ("text", "brand"),
    [
        ("CİTROEN 1109.AY", "PSA"),
        ("Citroën 1109.AY", "PSA"),
        ("MERCEDES-BENZ A 000 180 26 09", "MERCEDES"),
        ("M.BENZ A 000 180 26 09", "MERCEDES"),
        ("vag 06A115561B", "VW"),
        ("HYUNDAİ 26300-35505", "HYUNDAI"),
        ("FİAT 46337528", "FIAT"),
        ("06A 115 561 C (VAG)", "VW"),
        ("SACHS 3000 951 024", "SACHS"),
    ],
)
def test_the_brand_hint_is_normalised(text, brand):
    assert [number.brand for number in oe_numbers(text)] == [brand]


def test_a_hint_lasts_until_the_next_maker_and_brackets_name_what_precedes():
    numbers = oe_numbers("AUDI 1J0 567 332 M; A 651 404 37 41 (Mercedes), BMW 11427953129 1K0129620D")
    assert [(number.key, number.brand) for number in numbers] == [
        ("1j0567332m", "AUDI"),
        ("a6514043741", "MERCEDES"),
        ("11427953129", "BMW"),
        ("1k0129620d", "BMW"),
    ]
    assert numbers[0].written == "1J0 567 332 M"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("4006381333931", "4006381333931"),
        (" 4 006381 333931 ", "4006381333931"),
        ("96385074", "96385074"),
        ("036000291452", "0036000291452"),
        ("00012345600012", "0012345600012"),
        ("4006381333932", None),
        ("4006381333", None),
        ("", None),
        (None, None),
        ("EAN yok", None),
    ],
)
def test_valid_gtin(text, expected):
    assert valid_gtin(text) == expected


def test_exact_matches_carry_their_reason():
    matches = exact_matches(
        oe_text="VW 1K0-129-620D / 1K0129620D, AUDI 8P0 129 620",
        oem_column="5Q0 129 620 B",
        ean="4006381333931",
        known_keys={"1k0129620d", "5q0129620b", "8p0129620"},
        known_eans={"4006381333931"},
    )
    assert [(match.key, match.reason, match.written) for match in matches] == [
        ("5q0129620b", OEM_COLUMN, "5Q0 129 620 B"),
        ("1k0129620d", OE_FIELD, "1K0-129-620D"),
        ("8p0129620", OE_FIELD, "8P0 129 620"),
        ("4006381333931", EAN, "4006381333931"),
    ]


def test_the_oem_column_is_read_as_the_oe_field_is_and_whole_when_one_token():
    assert [match.key for match in exact_matches(oem_column="MD-050-227", known_keys={"md050227"})] == ["md050227"]
    column = "1K0129620D (2) / 06A 115 561 B"
    assert exact_matches(oem_column=column, known_keys={"1k0129620d2", "06a115561", "1k0129620d206a115561b"}) == []
    assert [match.key for match in exact_matches(oem_column=column, known_keys={"06a115561b"})] == ["06a115561b"]


def test_a_wrong_check_digit_is_no_ean_match():
    assert exact_matches(ean="4006381333932", known_keys=set(), known_eans={"4006381333932"}) == []


@pytest.mark.parametrize(
    ("stated", "near_miss"),
    [
        ("1K0 129 620 D", "1k0129620e"),  # another index letter
        ("1K0 129 620 D", "1k0129620"),  # the index dropped
        ("1K0 129 620", "1k0129620d"),  # an index added
        ("A 000 180 26 09", "a0001802690"),  # two digits swapped
        ("11 42 7 953 129", "1142795312"),  # a digit short
        ("1 751 478", "1751479"),  # a digit changed
        ("77 01 047 115", "770104711"),
    ],
)
def test_a_near_miss_is_never_automatic_but_is_suggested(stated, near_miss):
    assert exact_matches(oe_text=stated, known_keys={near_miss}) == []
    assert [suggestion.key for suggestion in suggestions(oe_text=stated, candidates=[near_miss])] == [near_miss]


def test_suggestions_best_first_with_the_brand_hint_and_limited():
    found = suggestions(
        oe_text="VW 1K0 129 620 D",
        candidates=["1K0129620E", "1K0129602D", "1K0129620", "8P0129620D", "1K0199602X", "1K0129620F"],
        limit=3,
    )
    assert [(item.key, item.reason) for item in found] == [
        ("1k0129602d", BRAND_HINT),
        ("1k0129620", BRAND_HINT),
        ("1k0129620e", BRAND_HINT),
    ]  # one edit each (a swap of neighbours is one): equal scores, then by key
    assert [item.score for item in found] == [90.0, 90.0, 90.0]
    worse = suggestions(oe_text="BMW 11 42 7 953 129", candidates=["11427953192", "11427935192", "11427953129X"])
    assert [(item.key, item.score) for item in worse] == [("11427953129x", 91.7), ("11427953192", 90.9)]
    assert found[0].written == "1K0 129 620 D"


def test_suggestions_leave_out_another_makers_prefix_exact_numbers_and_short_ones():
    assert suggestions(oe_text="1K0129620D", candidates=["2K0129620D", "K10129620D"]) == []
    assert suggestions(oe_text="1K0129620D 1K0129620E", candidates=["1K0129620E", "1K0129620D"]) == []
    assert suggestions(oe_text="1109.AY", candidates=["1109AZ"]) == []
    [suggestion] = suggestions(oe_text="1K0129620D", candidates=["1K0129620E"])
    assert suggestion.reason == SIMILAR_NUMBER


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=3_000) | st.binary(max_size=500).map(lambda raw: raw.decode("latin-1")))
def test_oe_numbers_never_raises_and_gives_folded_keys(text):
    numbers = oe_numbers(text)
    assert len(numbers) <= MAX_NUMBERS
    for number in numbers:
        assert number.key and fold_code(number.key) == number.key == fold_code(number.written)


@pytest.mark.parametrize("text", ["١٢ ٣٤ ٥٦٧", "56 50 ３１９", "1K0 129 620 \u212a", "①②③④⑤⑥⑦⑧"])
def test_digits_and_letters_outside_ascii_make_no_number(text):
    assert all(key.isascii() and key.isalnum() for key in keys(text))
    assert "5650319" not in keys(text)


def test_a_huge_text_is_read_within_bounds():
    assert keys("1K0129620D / 06A115561B " * 100_000) == ["1k0129620d", "06a115561b"]
    assert keys("x" * 1_995 + " 06A115561B") == []  # cut inside a number: no 06A115561 read
    assert len(oe_numbers(" / ".join(f"{number:07d}" for number in range(1_000_000, 1_000_400)))) == MAX_NUMBERS


INDEX = st.sampled_from(["", "A", "B", "D", "AA", "AB", "BK", "CG", "Q", "M"])
WRITTEN_ALONE = st.one_of(
    st.from_regex(r"\A[0-9][A-Z0-9]{2}[ .\-]?[0-9]{3}[ .\-]?[0-9]{3}\Z").flatmap(
        lambda body: INDEX.map(lambda index: body + index)
    ),
    st.from_regex(r"\AA ?[0-9]{3} [0-9]{3} [0-9]{2} ?[0-9]{2}\Z"),
    st.from_regex(r"\A[0-9]{2} [0-9]{2} [0-9] [0-9]{3} [0-9]{3}\Z"),
    st.from_regex(r"\A[0-9]{2} [0-9]{2} [0-9]{3} [0-9]{3}\Z"),
    st.from_regex(r"\A[12] [0-9]{3} [0-9]{3}\Z"),
    st.from_regex(r"\A[0-9]{4}\.[A-Z0-9]{2}\Z"),
    st.from_regex(r"\A[0-9]{5}-[A-Z0-9]{5}\Z"),
    st.from_regex(r"\A(?=[A-Z0-9]*[0-9])[A-Z0-9]{5,16}\Z"),
)


@settings(max_examples=300, deadline=None)
@given(WRITTEN_ALONE, st.sampled_from(["{}", "OE: {}", "VW {} (2 adet)", "{} / 0000000", "Orijinal No: {} sol"]))
def test_a_number_written_alone_is_found(written, around):
    assert fold_code(written) in keys(around.format(written))


def one_edit(key: str, data) -> str:
    """Another suffix letter or digit, a character dropped or added, two neighbours swapped."""
    place = data.draw(st.integers(0, len(key) - 1))
    char = data.draw(st.sampled_from("0123456789abcdefghjkmnpqrstvwxz"))
    edit = data.draw(st.sampled_from(["change", "drop", "add", "swap"]))
    if edit == "change":
        return key[:place] + char + key[place + 1 :]
    if edit == "drop":
        return key[:place] + key[place + 1 :]
    if edit == "add":
        return key[:place] + char + key[place:]
    return key[:place] + key[place + 1 : place + 2] + key[place] + key[place + 2 :]


@settings(max_examples=300, deadline=None)
@given(WRITTEN_ALONE, st.data())
def test_a_number_one_edit_away_is_never_matched_automatically(written, data):
    key = fold_code(written)
    near_miss = one_edit(key, data)
    if near_miss != key:
        assert exact_matches(oe_text=f"OE: {written} (2 adet)", oem_column=written, known_keys={near_miss}) == []


def test_labelled_set_precision_and_recall(capsys):
    lines = [json.loads(line) for line in LABELLED.read_text(encoding="utf-8").splitlines()]
    matched = correct = stated = 0
    for line in lines:
        truth = set(line["numbers"])
        known = truth | set(line["near_misses"])
        found = exact_matches(
            oe_text=line["oe_text"],
            oem_column=line.get("oem_column", ""),
            ean=line.get("ean", ""),
            known_keys=known,
            known_eans=known,
        )
        found_keys = {match.key for match in found}
        matched += len(found_keys)
        correct += len(found_keys & truth)
        stated += len(truth)
    precision, recall = correct / matched, correct / stated
    with capsys.disabled():
        print(f"\nmatching: precision {precision:.2%} recall {recall:.2%} over {len(lines)} lines")
    assert len(lines) >= 600
    assert precision >= 0.995
    assert recall >= 0.98


def test_labelled_set_near_misses_are_mostly_suggested(capsys):
    """Near-misses of 7 characters or more that keep the maker's prefix: what a manager is asked about."""
    lines = [json.loads(line) for line in LABELLED.read_text(encoding="utf-8").splitlines()]
    asked = offered = 0
    for line in lines:
        near_misses = {key for key in line["near_misses"] if not valid_gtin(key) and len(key) >= 7}
        found = suggestions(
            oe_text=line["oe_text"], oem_column=line.get("oem_column", ""), candidates=near_misses, limit=100
        )
        asked += len(near_misses)
        offered += len(near_misses & {suggestion.key for suggestion in found})
    with capsys.disabled():
        print(f"\nsuggestions: {offered / asked:.2%} of {asked} near-misses offered")
    assert offered / asked >= 0.7
