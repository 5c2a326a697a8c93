"""The rule language of issue 30: option-code expressions, date ranges, code sets and the remark rules."""

from __future__ import annotations

import re

import pytest

from app.catalog.fit.conditions import All, Any, DateRange, Not, NotUnderstood, OneOf, fact_is, has_option
from app.catalog.fit.facts import (
    AIRCON,
    AUTOMATIC,
    AWD,
    BODY_STYLE,
    BRAKE_CODE,
    DOORS,
    DRIVE_SIDE,
    ENGINE_CODE,
    GEARBOX_KIND,
    LHD,
    MANUAL,
    RHD,
    BuildDate,
)
from app.catalog.fit.remarks import REMARK_RULES, RemarkRule, parse_remark
from app.catalog.fit.rules import applicability, codes, parse_dates, parse_options

K1D, K1E, K1F = has_option("1KD"), has_option("1KE"), has_option("1KF")


@pytest.mark.parametrize(
    ("text", "condition"),
    [
        ("1KD", K1D),
        ("1kd", K1D),
        ("!1KD", Not(K1D)),
        ("1KD+1KE", All((K1D, K1E))),
        ("1KD/1KE", Any((K1D, K1E))),
        ("1KD,1KE", Any((K1D, K1E))),
        (" 1KD + 1KE ", All((K1D, K1E))),
        # "/" binds tighter than "+": alternatives within one option family, families joined by "+".
        ("1KD+!1KE/1KF", All((K1D, Any((Not(K1E), K1F))))),
        ("1KD/1KE+1KF", All((Any((K1D, K1E)), K1F))),
        ("(1KD+1KE)/1KF", Any((All((K1D, K1E)), K1F))),
        ("!(1KD/1KE)", Not(Any((K1D, K1E)))),
        ("!!1KD", Not(Not(K1D))),
    ],
)
def test_option_expressions(text, condition):
    assert parse_options(text) == condition


@pytest.mark.parametrize("text", ["1KD+", "+1KD", "1KD++1KE", "(1KD+1KE", "1KD)", "1KD 1KE", "1KD & 1KE", "!", "()"])
def test_an_option_expression_not_understood_is_kept_as_such(text):
    assert parse_options(text) == NotUnderstood(text)


@pytest.mark.parametrize("text", [None, "", "   "])
def test_no_option_text_is_no_condition(text):
    assert parse_options(text) is None


JUNE_2015, NOVEMBER_2017 = BuildDate(2015, 6), BuildDate(2017, 11)


@pytest.mark.parametrize(
    ("text", "condition"),
    [
        ("from 06.2015", DateRange(start=JUNE_2015)),
        ("since 06/2015", DateRange(start=JUNE_2015)),
        ("ab 06.2015", DateRange(start=JUNE_2015)),
        ("06.2015'ten itibaren", DateRange(start=JUNE_2015)),
        ("06.2015-", DateRange(start=JUNE_2015)),
        ("to 11.2017", DateRange(end=NOVEMBER_2017)),
        ("until 11.2017", DateRange(end=NOVEMBER_2017)),
        ("bis 11.2017", DateRange(end=NOVEMBER_2017)),
        ("11.2017'ye kadar", DateRange(end=NOVEMBER_2017)),
        ("-11.2017", DateRange(end=NOVEMBER_2017)),
        ("06.2015-11.2017", DateRange(JUNE_2015, NOVEMBER_2017)),
        ("06.2015 - 11.2017", DateRange(JUNE_2015, NOVEMBER_2017)),
        ("from 06.2015 to 11.2017", DateRange(JUNE_2015, NOVEMBER_2017)),
        ("6.2015-11.2017", DateRange(JUNE_2015, NOVEMBER_2017)),
        ("2015-2017", DateRange(BuildDate(2015, 1), BuildDate(2017, 12))),
        ("from 2015", DateRange(start=BuildDate(2015, 1))),
        ("bis 2017", DateRange(end=BuildDate(2017, 12))),
    ],
)
def test_date_ranges(text, condition):
    assert parse_dates(text) == condition


@pytest.mark.parametrize(
    "text", ["06.2015", "2015", "11.2017-06.2015", "13.2015-", "from 06.2015 bis", "all models", "06.2015-11.2017-2019"]
)
def test_dates_that_do_not_read_as_a_range_are_not_understood(text):
    assert parse_dates(text) == NotUnderstood(text)


@pytest.mark.parametrize("text", [None, "", "  "])
def test_no_date_text_is_no_condition(text):
    assert parse_dates(text) is None


def test_code_sets_from_text_or_a_list():
    assert codes(ENGINE_CODE, "CJZA, czca; CHPA/CXSA") == OneOf(
        ENGINE_CODE, frozenset({"CJZA", "CZCA", "CHPA", "CXSA"})
    )
    assert codes(ENGINE_CODE, [" cjza", ""]) == OneOf(ENGINE_CODE, frozenset({"CJZA"}))
    assert codes(ENGINE_CODE, "") is None
    assert codes(ENGINE_CODE, None) is None


@pytest.mark.parametrize(
    ("remark", "condition"),
    [
        ("For vehicles with air conditioning", fact_is(AIRCON, True)),
        ("with A/C", fact_is(AIRCON, True)),
        ("mit Klimaanlage", fact_is(AIRCON, True)),
        ("Klimalı araçlar için", fact_is(AIRCON, True)),
        ("for vehicles without air conditioning", fact_is(AIRCON, False)),
        ("w/o A/C", fact_is(AIRCON, False)),
        ("KLİMASIZ", fact_is(AIRCON, False)),
        ("LHD", fact_is(DRIVE_SIDE, LHD)),
        ("left-hand drive", fact_is(DRIVE_SIDE, LHD)),
        ("Soldan direksiyonlu", fact_is(DRIVE_SIDE, LHD)),
        ("RHD", fact_is(DRIVE_SIDE, RHD)),
        ("Rechtslenker", fact_is(DRIVE_SIDE, RHD)),
        ("not for 4MOTION", fact_is(AWD, False)),
        ("not for vehicles with 4MOTION", fact_is(AWD, False)),
        ("not for vehicles with air conditioning", fact_is(AIRCON, False)),
        ("nicht für 4MOTION", fact_is(AWD, False)),
        ("4MOTION hariç", fact_is(AWD, False)),
        ("4MOTION", fact_is(AWD, True)),
        ("quattro", fact_is(AWD, True)),
        ("manual gearbox", fact_is(GEARBOX_KIND, MANUAL)),
        ("Manuel şanzıman", fact_is(GEARBOX_KIND, MANUAL)),
        ("automatic gearbox", fact_is(GEARBOX_KIND, AUTOMATIC)),
        ("Otomatik Şanzıman", fact_is(GEARBOX_KIND, AUTOMATIC)),
        ("2-door", fact_is(DOORS, 2)),
        ("5 doors", fact_is(DOORS, 5)),
        ("4-Türer", fact_is(DOORS, 4)),
        ("4 kapılı", fact_is(DOORS, 4)),
        ("3/5-door", OneOf(DOORS, frozenset({3, 5}))),
        ("brake code 1ZE", fact_is(BRAKE_CODE, "1ZE")),
        ("Fren kodu: 1lj", fact_is(BRAKE_CODE, "1LJ")),
    ],
)
def test_each_remark_rule(remark, condition):
    assert parse_remark(remark) == (condition,)


def test_a_remark_states_several_conditions_once_each():
    remark = "Not for 4MOTION; for vehicles without air conditioning, LHD, LHD"
    assert parse_remark(remark) == (fact_is(AIRCON, False), fact_is(AWD, False), fact_is(DRIVE_SIDE, LHD))


@pytest.mark.parametrize("remark", [None, "", "Pair", "Use with sealing ring", "see note 3", "Michelin", "headlight"])
def test_a_remark_no_rule_knows_states_nothing(remark):
    assert parse_remark(remark) == ()


def test_the_rule_list_is_easy_to_extend():
    towbar = RemarkRule(re.compile(r"\bwith\s+towbar\b"), fact_is("towbar", True))
    assert parse_remark("with towbar, LHD", [*REMARK_RULES, towbar]) == (
        fact_is(DRIVE_SIDE, LHD),
        fact_is("towbar", True),
    )


def test_applicability_joins_what_every_source_states():
    rule = applicability(
        options="1KD",
        dates="from 06.2015",
        engine_codes="CJZA",
        body_styles=["HATCHBACK"],
        remark="with A/C; see note",
    )
    assert rule == All(
        (
            K1D,
            DateRange(start=JUNE_2015),
            OneOf(ENGINE_CODE, frozenset({"CJZA"})),
            OneOf(BODY_STYLE, frozenset({"HATCHBACK"})),
            fact_is(AIRCON, True),
        )
    )
    assert applicability() == All(())
