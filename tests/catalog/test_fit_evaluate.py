"""The fit evaluator of issue 30: yes, no or maybe for one part, its reasons and its question, and a drawing's."""

from __future__ import annotations

from app.catalog.fit.conditions import All, Any, NotUnderstood
from app.catalog.fit.evaluate import (
    DIFFERS,
    MATCHES,
    MAYBE,
    NO,
    NOT_UNDERSTOOD,
    UNKNOWN,
    YES,
    Fit,
    Reason,
    drawing_question,
    evaluate,
)
from app.catalog.fit.facts import (
    AIRCON,
    AUTOMATIC,
    BRAKE_CODE,
    BUILD_DATE,
    ENGINE_CODE,
    GEARBOX_KIND,
    MANUAL,
    BuildDate,
    VehicleFacts,
    option_fact,
)
from app.catalog.fit.rules import applicability, parse_options

GOLF = VehicleFacts(
    option_codes=frozenset({"1KD", "2JD"}),
    option_list_complete=True,
    build_date=BuildDate(2016, 3),
    engine_code="CJZA",
)
NOTHING_KNOWN = VehicleFacts()


def test_a_part_with_no_conditions_fits():
    assert evaluate(NOTHING_KNOWN, All(())) == Fit(YES)


def test_every_condition_known_true_is_yes_with_its_reasons():
    fit = evaluate(GOLF, applicability(options="1KD+!1KE", dates="from 06.2015", engine_codes="CJZA, CZCA"))
    assert fit.status == YES
    assert fit.question is None
    assert fit.reasons == (
        Reason(MATCHES, option_fact("1KD"), True, "true"),
        Reason(DIFFERS, option_fact("1KE"), False, "true", negated=True),
        Reason(MATCHES, BUILD_DATE, BuildDate(2016, 3), "2015-06.."),
        Reason(MATCHES, ENGINE_CODE, "CJZA", "CJZA|CZCA"),
    )


def test_one_known_contradiction_is_no_and_names_only_it():
    fit = evaluate(GOLF, applicability(options="1KD", dates="to 11.2015", remark="with A/C"))
    assert fit == Fit(NO, (Reason(DIFFERS, BUILD_DATE, BuildDate(2016, 3), "..2015-11"),))


def test_a_date_range_includes_both_months():
    rule = applicability(dates="03.2016-03.2016")
    assert evaluate(GOLF, rule).status == YES
    assert evaluate(VehicleFacts(build_date=BuildDate(2016, 4)), rule).status == NO
    assert evaluate(VehicleFacts(build_date=BuildDate(2016, 2)), rule).status == NO


def test_an_absent_option_is_known_only_when_the_list_is_complete():
    rule = applicability(options="1KE")
    assert evaluate(GOLF, rule).status == NO
    incomplete = VehicleFacts(option_codes=frozenset({"1KD"}))
    fit = evaluate(incomplete, rule)
    assert fit.status == MAYBE
    assert fit.question == option_fact("1KE")
    assert evaluate(incomplete, applicability(options="1KD")).status == YES


def test_a_maybe_names_the_unknown_fact_as_its_question():
    fit = evaluate(GOLF, applicability(options="1KD", remark="automatic gearbox"))
    assert fit == Fit(
        MAYBE, (Reason(UNKNOWN, GEARBOX_KIND, None, AUTOMATIC),), question=GEARBOX_KIND, unknowns=(GEARBOX_KIND,)
    )


def test_the_question_is_the_fact_whose_answers_settle_the_part_most_often():
    # 1KE or aircon alone settle nothing (the brake code stays open); a brake code other than 1ZE settles it (no).
    rule = All(
        (
            Any((parse_options("1KE"), *applicability(remark="with A/C").items)),
            *applicability(remark="brake code 1ZE").items,
        )
    )
    facts = VehicleFacts(option_codes=frozenset({"1KD"}))
    fit = evaluate(facts, rule)
    assert fit.status == MAYBE
    assert fit.unknowns == (option_fact("1KE"), AIRCON, BRAKE_CODE)
    assert fit.question == BRAKE_CODE
    assert evaluate(facts.with_answer(BRAKE_CODE, "1LJ"), rule).status == NO


def test_an_answer_counts_as_a_known_fact_and_can_be_changed():
    rule = applicability(remark="manual gearbox")
    answered = GOLF.with_answer(GEARBOX_KIND, "manual")
    assert evaluate(answered, rule).status == YES
    assert evaluate(answered.with_answer(GEARBOX_KIND, AUTOMATIC), rule).status == NO


def test_an_answer_does_not_override_a_source():
    facts = VehicleFacts(gearbox_kind=MANUAL).with_answer(GEARBOX_KIND, AUTOMATIC)
    assert evaluate(facts, applicability(remark="manual gearbox")).status == YES


def test_a_rule_not_understood_is_a_maybe_without_a_question():
    fit = evaluate(GOLF, applicability(options="1KD+(1KE"))
    assert fit == Fit(MAYBE, (Reason(NOT_UNDERSTOOD, None, None, "1KD+(1KE"),))


def test_a_known_contradiction_outweighs_a_rule_not_understood():
    assert evaluate(GOLF, All((NotUnderstood("??"), parse_options("1KE")))).status == NO


def test_the_drawing_asks_what_most_maybes_hang_on():
    facts = VehicleFacts()
    fits = [
        evaluate(facts, applicability(remark="with A/C")),
        evaluate(facts, applicability(remark="without A/C, manual gearbox")),
        evaluate(facts, applicability(remark="manual gearbox")),
        evaluate(facts, applicability(remark="automatic gearbox")),
        evaluate(GOLF, applicability(options="1KD")),
    ]
    assert drawing_question(fits) == GEARBOX_KIND
    assert drawing_question(fits[:2]) == AIRCON
    assert drawing_question(fits[4:]) is None
    assert drawing_question([]) is None
