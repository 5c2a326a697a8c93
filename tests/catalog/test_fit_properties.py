"""Properties of the fit evaluator (issue 30), over random rule trees and random, partly known vehicle facts."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from app.catalog.fit.conditions import All, Any, DateRange, Not, OneOf, fact_is, has_option
from app.catalog.fit.evaluate import MAYBE, NO, YES, candidate_answers, evaluate
from app.catalog.fit.facts import (
    AIRCON,
    AUTOMATIC,
    BUILD_DATE,
    ENGINE_CODE,
    GEARBOX_KIND,
    MANUAL,
    BuildDate,
    VehicleFacts,
    option_fact,
)

OPTIONS = ("1KD", "1KE", "1KF")
ENGINES = ("CJZA", "CZCA", "CHPA")
MONTHS = [BuildDate(2015, 1).shifted(n) for n in range(24)]
FACTS = (*(option_fact(code) for code in OPTIONS), ENGINE_CODE, AIRCON, GEARBOX_KIND, BUILD_DATE)

leaves = st.one_of(
    st.sampled_from(OPTIONS).map(has_option),
    st.sets(st.sampled_from(ENGINES), min_size=1).map(lambda engines: OneOf(ENGINE_CODE, frozenset(engines))),
    st.booleans().map(lambda value: fact_is(AIRCON, value)),
    st.sampled_from((MANUAL, AUTOMATIC)).map(lambda kind: fact_is(GEARBOX_KIND, kind)),
    st.tuples(st.none() | st.sampled_from(MONTHS), st.none() | st.sampled_from(MONTHS)).map(
        lambda ends: DateRange(*ends)
    ),
)
rules = st.recursive(
    leaves,
    lambda children: st.one_of(
        st.lists(children, max_size=3).map(lambda items: All(tuple(items))),
        st.lists(children, max_size=3).map(lambda items: Any(tuple(items))),
        children.map(Not),
    ),
    max_leaves=10,
)
vehicles = st.fixed_dictionaries(
    {
        **{option_fact(code): st.booleans() for code in OPTIONS},
        ENGINE_CODE: st.sampled_from(ENGINES),
        AIRCON: st.booleans(),
        GEARBOX_KIND: st.sampled_from((MANUAL, AUTOMATIC)),
        BUILD_DATE: st.sampled_from(MONTHS),
    }
)
known_sets = st.sets(st.sampled_from(FACTS))


def facts_of(vehicle: dict, known: set[str]) -> VehicleFacts:
    """The vehicle's facts with only `known` known: sources give some, answers the others (aircon, absent options)."""
    options = {name: vehicle[name] for name in known if name.startswith("option:")}
    all_options_known = len(options) == len(OPTIONS)
    answers = {name: value for name, value in options.items() if not value and not all_options_known}
    if AIRCON in known:
        answers[AIRCON] = vehicle[AIRCON]
    return VehicleFacts(
        option_codes=frozenset(name.removeprefix("option:") for name, present in options.items() if present),
        option_list_complete=all_options_known,
        engine_code=vehicle[ENGINE_CODE] if ENGINE_CODE in known else None,
        gearbox_kind=vehicle[GEARBOX_KIND] if GEARBOX_KIND in known else None,
        build_date=vehicle[BUILD_DATE] if BUILD_DATE in known else None,
        answers=answers,
    )


@settings(max_examples=400, deadline=None)
@given(rules, vehicles, known_sets, known_sets)
def test_learning_a_fact_only_ever_settles_a_maybe(rule, vehicle, known, more):
    """Monotonicity: a yes or a no stays as it is when unknown facts become known (so no never turns into yes)."""
    before = evaluate(facts_of(vehicle, known), rule)
    after = evaluate(facts_of(vehicle, known | more), rule)
    if before.status != MAYBE:
        assert after.status == before.status


@settings(max_examples=400, deadline=None)
@given(rules, vehicles, known_sets)
def test_a_rule_and_its_negation_never_both_answer_yes(rule, vehicle, known):
    facts = facts_of(vehicle, known)
    status, negated = evaluate(facts, rule).status, evaluate(facts, Not(rule)).status
    assert not (status == YES and negated == YES)
    assert negated == {YES: NO, NO: YES, MAYBE: MAYBE}[status]


@settings(max_examples=300, deadline=None)
@given(rules, vehicles)
def test_with_every_fact_known_the_answer_is_never_maybe(rule, vehicle):
    fit = evaluate(facts_of(vehicle, set(FACTS)), rule)
    assert fit.status in (YES, NO)
    assert fit.question is None


@settings(max_examples=300, deadline=None)
@given(rules, vehicles, known_sets)
def test_the_question_of_a_maybe_is_one_of_its_unknown_facts_and_answering_it_narrows_the_answer(rule, vehicle, known):
    facts = facts_of(vehicle, known)
    fit = evaluate(facts, rule)
    if fit.status != MAYBE:
        assert fit.question is None
        return
    assert fit.question in fit.unknowns
    assert fit.question not in known
    for answer in candidate_answers(rule, fit.question):
        answered = evaluate(facts.with_answer(fit.question, answer), rule)
        assert fit.question not in answered.unknowns
        assert answered.status != MAYBE or set(answered.unknowns) < set(fit.unknowns)
