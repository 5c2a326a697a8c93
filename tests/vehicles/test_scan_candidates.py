"""VIN candidates from read text: only valid VINs, found in noise, OCR confusions undone, ranked as a clerk expects."""

from __future__ import annotations

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from app.sources.sandbox.catalog import VIN_CLIO, VIN_GOLF, VIN_HONDA
from app.sources.wmi import OUR_WMIS
from app.vehicles.answers import VIN_PATTERN
from app.vehicles.scan.candidates import (
    CONFUSIONS,
    FORBIDDEN,
    MAX_CANDIDATES,
    Read,
    candidates,
    check_digit_of,
    check_digit_state,
    knows_wmi,
    near_readings,
    uses_check_digit,
    without_forbidden,
)
from app.vehicles.scan.reader import ruhsat_fields

VIN_ALPHABET = "ABCDEFGHJKLMNPRSTUVWXYZ0123456789"
# What a reader may hand over: any printable text, VIN-like runs included.
NOISE = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=120)
SEPARATED_NOISE = st.text(alphabet="abcdefghijklmnopqrstuvwxyz .,:;-/()ŞşİıĞğÜüÖöÇç", max_size=60)


@st.composite
def known_vins(draw) -> str:
    """A VIN with a WMI we know and a serial ending in four digits (ISO 3779); North American ones carry a valid
    check digit, as the rules there require."""
    wmi = draw(st.sampled_from(sorted(OUR_WMIS)))
    rest = draw(st.text(alphabet=VIN_ALPHABET, min_size=10, max_size=10))
    serial = draw(st.text(alphabet="0123456789", min_size=4, max_size=4))
    vin = wmi + rest + serial
    if uses_check_digit(vin):
        vin = vin[:8] + check_digit_of(vin) + vin[9:]
    assume(knows_wmi(vin) and not vin.isdigit())
    return vin


def _text(text: str, source: str = "text") -> list[Read]:
    return [Read(text, source)]


@given(NOISE)
@settings(max_examples=300)
def test_every_candidate_is_a_valid_vin(text):
    found = candidates(_text(text))
    assert len(found) <= MAX_CANDIDATES
    for candidate in found:
        assert VIN_PATTERN.fullmatch(candidate.vin)
        assert candidate.check_digit == check_digit_state(candidate.vin)


@given(known_vins(), SEPARATED_NOISE, SEPARATED_NOISE)
def test_a_valid_vin_in_noise_is_found_first(vin, before, after):
    found = candidates(_text(f"{before} {vin} {after}"))
    assert found[0].vin == vin
    assert not found[0].corrected


@st.composite
def confused(draw) -> tuple[str, str]:
    """(the VIN, what OCR made of it): one confusion a reader can undo without knowing the car. A digit read as a
    letter a VIN never holds; a WMI character confused into a WMI nobody knows; or, where the check digit is used, any
    confusion that breaks it. (In a European VIN's serial part, S and 5 are both valid: no rule tells them apart.)"""
    vin = draw(known_vins())
    forbidden = [
        (index, letter) for index, char in enumerate(vin) for letter, digit in FORBIDDEN.items() if char == digit
    ]
    confusable = [(index, CONFUSIONS[char]) for index, char in enumerate(vin) if char in CONFUSIONS]
    options = forbidden + [
        (index, swap)
        for index, swap in confusable
        if (index < 3 and not knows_wmi(vin[:index] + swap + vin[index + 1 :]))
        or (uses_check_digit(vin) and check_digit_state(vin[:index] + swap + vin[index + 1 :]) == "invalid")
    ]
    assume(options)
    index, swap = draw(st.sampled_from(options))
    return vin, vin[:index] + swap + vin[index + 1 :]


@given(confused(), SEPARATED_NOISE)
@settings(max_examples=300)
def test_a_vin_with_one_ocr_confusion_comes_back_first(pair, noise):
    vin, misread = pair
    found = candidates(_text(f"{noise}\n{misread}\n{noise}"))
    assert found, misread
    first = found[0]
    if uses_check_digit(vin) and misread[:3] == vin[:3] and without_forbidden(misread) != vin:
        # Another single confusion may also make the check digit hold: the VIN is then among the candidates.
        assert vin in [candidate.vin for candidate in found]
    else:
        assert first.vin == vin
    assert first.corrected


def test_a_vin_the_catalog_stores_comes_first_even_when_only_a_confusion_away():
    misread = "WVWZZZAU2HW100001"  # a Z read as 2: both readings are valid VINs
    found = candidates(_text(misread), known_vins=lambda asked: {VIN_GOLF} & asked)
    assert found[0].vin == "WVWZZZAUZHW100001" == VIN_GOLF
    assert found[0].known and found[0].corrected
    assert found[1].vin == misread and not found[1].known


@given(known_vins(), st.data())
@settings(max_examples=300)
def test_an_exact_barcode_read_ranks_first_over_stored_vins_a_confusion_away(vin, data):
    """The catalog stores one or more VINs one OCR confusion from a barcode's exact, rule-passing text (and the
    ruhsat's text may even show one): the barcode's VIN still comes first, every guess after it."""
    near = [reading for reading in near_readings(vin) if not reading.isdigit()]
    assume(near)
    stored = set(data.draw(st.lists(st.sampled_from(near), min_size=1, unique=True)))
    reads = [Read(vin, "barcode", data.draw(st.sampled_from(["Code39", "Code128", "DataMatrix", "QRCode"])))]
    if data.draw(st.booleans()):
        reads.insert(0, Read(f"Şase No {sorted(stored)[0]}", "ruhsat"))

    found = candidates(reads, known_vins=lambda asked: stored & asked)

    assert (found[0].vin, found[0].source, found[0].corrected) == (vin, "barcode", False)
    assert found[1].known and found[1].vin in stored  # the stored guesses follow, before any unknown one
    assert all(candidate.known or candidate.corrected for candidate in found[1:])


def test_a_barcode_whose_check_digit_fails_does_not_outrank_the_stored_vin_it_was_meant_to_be():
    misread = VIN_HONDA[:5] + "B" + VIN_HONDA[6:]  # an 8 read as B: the check digit no longer holds
    assert check_digit_state(misread) == "invalid"

    found = candidates([Read(misread, "barcode", "Code39")], known_vins=lambda asked: {VIN_HONDA} & asked)

    assert found[0].vin == VIN_HONDA and found[0].known


def test_the_catalog_is_asked_once_for_every_reading():
    calls = []
    candidates(
        _text(f"{VIN_GOLF}\n{VIN_CLIO}\nK9KA764D012345678"), known_vins=lambda asked: calls.append(asked) or set()
    )
    assert len(calls) == 1
    assert {VIN_GOLF, VIN_CLIO} <= calls[0]


def test_ocr_output_of_the_ruhsat_line_is_repaired():
    """Tesseract reads "ŞASE NO: VF1RFB00X56100002" as "VFIRFBOOX56100002" (DESIGN.md, facts checked)."""
    found = candidates(_text("ŞASE NO: VFIRFBOOX56100002"))
    assert found[0].vin == VIN_CLIO
    assert found[0].corrected


def test_a_vin_printed_in_two_parts_is_joined():
    found = candidates(_text("WVWZZZAUZ HW100001"))
    assert found[0].vin == VIN_GOLF


def test_a_code39_import_mark_before_the_vin_is_dropped():
    found = candidates([Read(f"I{VIN_GOLF}", "barcode", "Code39")])
    assert found[0].vin == VIN_GOLF
    assert found[0].source == "barcode" and found[0].format == "Code39"


def test_the_check_digit_is_judged_only_in_north_america():
    assert check_digit_state(VIN_HONDA) == "valid"
    assert check_digit_state(VIN_HONDA[:8] + "7" + VIN_HONDA[9:]) == "invalid"
    assert check_digit_state(VIN_GOLF) == "not_used"  # a European VIN is never penalised for it
    golf = candidates(_text(VIN_GOLF))[0]
    assert golf.check_digit == "not_used" and golf.known_wmi


def test_a_misread_north_american_check_digit_is_repaired():
    misread = VIN_HONDA.replace("8", "B", 1)  # 1HGCMB2633A004352: the check digit no longer holds
    assert check_digit_state(misread) == "invalid"
    found = candidates(_text(misread))
    assert found[0].vin == VIN_HONDA and found[0].check_digit == "valid"


def test_numbers_words_and_short_runs_are_no_candidates():
    text = "TÜRKİYE ARAÇ TESCİL BELGESİ\nT.C. Kimlik No 12345678950 Tel 05321234567 12345678901234567 WVWZZZ"
    assert candidates(_text(text)) == []


def test_a_letter_read_in_the_serial_is_its_digit():
    found = candidates(_text("WVWZZZAUZHW10S0B1"))
    assert found[0].vin == "WVWZZZAUZHW105081" and found[0].corrected


def test_the_ruhsat_field_is_read_from_its_line_or_the_line_below():
    same_line = ruhsat_fields("(E) Şase No: VF1RFB00X56100002\n(P.5) Motor No K9KA764D012345678")
    assert [read.text for read in same_line] == ["VF1RFB00X56100002"]
    below = ruhsat_fields("SASI N0\nVF1RFB00X56100002\nMotor No K9KA764D012345678")
    assert [read.text for read in below] == ["VF1RFB00X56100002"]
    assert all(read.source == "ruhsat" for read in same_line + below)


def test_the_ruhsat_field_outranks_other_vin_like_text():
    other = "WBA8E9G50GNU00004"  # a known WMI elsewhere on the page
    text = f"Not: {other}\n(E) Şase No: VF1RFB00X56100002"
    found = candidates([*ruhsat_fields(text), Read(text, "text")])
    assert found[0].vin == VIN_CLIO and found[0].source == "ruhsat"
