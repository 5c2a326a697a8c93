"""Yes, no or maybe: a part's applicability against a vehicle's facts, in three-valued (Kleene) logic.

A condition on a known fact is true or false; on an unknown fact, or a rule not understood, it is unknown. `All` is
false when any item is false, else unknown when any is unknown, else true; `Any` the dual; `Not` swaps true and false
and keeps unknown. True is yes, false no, unknown maybe. So a fact learnt later can only settle a maybe, never turn a
yes or a no around (the property tests hold this). A part row whose catalog states no condition at all is a maybe,
"not known" (`judge`): nothing is known to hold for it, so it is never a yes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from functools import cache

from app.catalog.fit.conditions import All, Any, Condition, DateRange, Not, NotUnderstood, OneOf
from app.catalog.fit.facts import BUILD_DATE, BuildDate, FactValue, VehicleFacts, normalized

YES, NO, MAYBE = "yes", "no", "maybe"

# Reason codes: the vehicle's fact meets the condition, contradicts it, is unknown; or the rule was not understood.
MATCHES, DIFFERS, UNKNOWN, NOT_UNDERSTOOD = "matches", "differs", "unknown", "not_understood"
# A row's reasons when nothing is known of it: its catalog states no applicability for it (NOT_STATED), or its answer
# has not been computed by the rules in force yet (PENDING: a row stored before them, app.catalog.fit.recompute).
NOT_STATED, PENDING = "not_stated", "pending"

# A value of a code fact that no rule names: "some other engine code" when trying the answers to a question.
_OTHER = "\x00other"


@dataclass(frozen=True)
class Reason:
    """Why: the code, the fact (None for a rule not understood), the vehicle's value, what the rule asks for.

    `negated`: the condition stands under a NOT ("!1KE"), so the rule asks for the fact not to be `wanted`; `code`
    still says whether the vehicle's value is `wanted`.
    """

    code: str
    fact: str | None
    value: FactValue | None
    wanted: str
    negated: bool = False


@dataclass(frozen=True)
class Fit:
    """The answer for one part: its status, the reasons that decided it, and for a maybe the question to ask.

    `unknowns` are the facts a maybe hangs on (in the order the rule names them); `question` is one of them.
    """

    status: str
    reasons: tuple[Reason, ...] = ()
    question: str | None = None
    unknowns: tuple[str, ...] = ()


@dataclass(frozen=True)
class _Result:
    truth: bool | None
    reasons: tuple[Reason, ...]


def evaluate(facts: VehicleFacts, applicability: Condition) -> Fit:
    """Whether a part with this applicability fits the vehicle, why, and what to ask when it is a maybe."""
    result = _evaluate(facts.known, applicability)
    if result.truth is not None:
        return Fit(YES if result.truth else NO, result.reasons)
    unknowns = tuple(dict.fromkeys(r.fact for r in result.reasons if r.code == UNKNOWN and r.fact is not None))
    return Fit(MAYBE, result.reasons, _question(facts, applicability, unknowns), unknowns)


# The answer for a row whose catalog states no applicability.
NOT_KNOWN = Fit(MAYBE, (Reason(NOT_STATED, None, None, ""),))


def judge(facts: VehicleFacts, applicability: Condition | None) -> Fit:
    """A part row's answer: its applicability evaluated, or, when its catalog states none (None, or no condition at
    all), a maybe "not known": a yes is only ever given on conditions known to hold, with their reasons."""
    fit = NOT_KNOWN if applicability is None else evaluate(facts, applicability)
    return NOT_KNOWN if fit.status == YES and not fit.reasons else fit


def drawing_question(fits: Iterable[Fit]) -> str | None:
    """The one question for a drawing: the fact the most of its maybes hang on (ties: the most often asked, then
    the first named)."""
    maybes = [fit for fit in fits if fit.status == MAYBE]
    hanging = Counter(fact for fit in maybes for fact in fit.unknowns)
    if not hanging:
        return None
    asked = Counter(fit.question for fit in maybes)
    return max(hanging, key=lambda fact: (hanging[fact], asked[fact]))


def _evaluate(known: Callable[[str], FactValue | None], condition: Condition) -> _Result:
    match condition:
        case OneOf(fact=fact, values=values):
            return _leaf(fact, known(fact), lambda value: value in values, _wanted(values))
        case DateRange(start=start, end=end):
            return _leaf(BUILD_DATE, known(BUILD_DATE), lambda value: _in_range(value, start, end), _span(start, end))
        case NotUnderstood(text=text):
            return _Result(None, (Reason(NOT_UNDERSTOOD, None, None, text),))
        case All(items=items):
            return _combine([_evaluate(known, item) for item in items], decisive=False)
        case Any(items=items):
            return _combine([_evaluate(known, item) for item in items], decisive=True)
        case Not(item=item):
            inner = _evaluate(known, item)
            reasons = tuple(replace(reason, negated=not reason.negated) for reason in inner.reasons)
            return _Result(None if inner.truth is None else not inner.truth, reasons)
    raise TypeError(f"not a condition: {condition!r}")


def _leaf(fact: str, value: FactValue | None, holds: Callable[[FactValue], bool], wanted: str) -> _Result:
    if value is None:
        return _Result(None, (Reason(UNKNOWN, fact, None, wanted),))
    truth = bool(holds(value))
    return _Result(truth, (Reason(MATCHES if truth else DIFFERS, fact, value, wanted),))


def _combine(results: list[_Result], *, decisive: bool) -> _Result:
    """`All` (an item false decides) or `Any` (an item true decides): the reasons are those of the deciding items."""
    for truth in (decisive, None):
        deciding = [result for result in results if result.truth is truth]
        if deciding:
            return _Result(truth, tuple(reason for result in deciding for reason in result.reasons))
    return _Result(not decisive, tuple(reason for result in results for reason in result.reasons))


def _in_range(value: FactValue, start: BuildDate | None, end: BuildDate | None) -> bool:
    if not isinstance(value, BuildDate):
        return False
    return (start is None or start <= value) and (end is None or value <= end)


@cache  # rules repeat across a vehicle's parts: their texts are made once
def _span(start: BuildDate | None, end: BuildDate | None) -> str:
    return f"{start or ''}..{end or ''}"


@cache
def _wanted(values: frozenset[FactValue]) -> str:
    return "|".join(sorted(str(value).lower() if isinstance(value, bool) else str(value) for value in values))


def _question(facts: VehicleFacts, applicability: Condition, unknowns: tuple[str, ...]) -> str | None:
    """The unknown fact whose answers settle this part most often (ties: the first the rule names)."""
    if not unknowns:
        return None

    def settled_share(fact: str) -> float:
        answers = candidate_answers(applicability, fact)
        settled = sum(_evaluate(_answered(facts, fact, answer), applicability).truth is not None for answer in answers)
        return settled / len(answers)

    return max(unknowns, key=settled_share)


def _answered(facts: VehicleFacts, question: str, answer: FactValue) -> Callable[[str], FactValue | None]:
    """`facts.with_answer(question, answer).known`, without building new facts for every answer tried."""
    answer = normalized(answer)
    return lambda fact: answer if fact == question else facts.known(fact)


def candidate_answers(condition: Condition, fact: str) -> list[FactValue]:
    """The answers to a question on `fact` that can make a difference to this condition, one of each kind."""
    values: set[FactValue] = set()
    dates: set[BuildDate] = set()
    for leaf in _leaves(condition):
        if isinstance(leaf, OneOf) and leaf.fact == fact:
            values |= leaf.values
        elif isinstance(leaf, DateRange) and fact == BUILD_DATE:
            dates |= {leaf.start, leaf.start.shifted(-1)} if leaf.start else set()
            dates |= {leaf.end, leaf.end.shifted(1)} if leaf.end else set()
    if values and all(isinstance(value, bool) for value in values):
        return [True, False]
    if values:
        return [*sorted(values, key=str), _OTHER]
    return [*sorted(dates)] or [_OTHER]


def _leaves(condition: Condition) -> Iterable[Condition]:
    match condition:
        case All(items=items) | Any(items=items):
            for item in items:
                yield from _leaves(item)
        case Not(item=item):
            yield from _leaves(item)
        case _:
            yield condition
