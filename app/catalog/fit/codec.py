"""Conditions, fit answers and facts as JSON, the way they are stored (part rows, answers) and sent (the API).

Compact on purpose: a vehicle has ten thousand part rows. A condition is one small object per node: `{"f": fact,
"in": [values]}`, `{"date": [start, end]}` (months "YYYY-MM", null for an open end), `{"?": text}` (not understood),
`{"all": [...]}`, `{"any": [...]}`, `{"not": ...}`. A build date value is "YYYY-MM" everywhere. Reading never raises
on a stored document it wrote; anything else it cannot read is `NotUnderstood`, so a bad row is a maybe, never a 500.
"""

from __future__ import annotations

import re
from dataclasses import fields
from typing import Any

from app.catalog.fit.conditions import All, Condition, DateRange, Not, NotUnderstood, OneOf
from app.catalog.fit.conditions import Any as AnyOf
from app.catalog.fit.evaluate import MAYBE, Fit, Reason
from app.catalog.fit.facts import BUILD_DATE, BuildDate, FactValue, VehicleFacts

_MONTH = re.compile(r"^(\d{4})-(\d{2})$")


def value_to_json(value: FactValue | None) -> str | int | bool | None:
    return str(value) if isinstance(value, BuildDate) else value


def value_from_json(fact: str | None, value: Any) -> FactValue | None:
    """A stored value back; a build date's "YYYY-MM" becomes a BuildDate (None when it is no month)."""
    if fact == BUILD_DATE:
        return month_from_json(value)
    return value if isinstance(value, str | int | bool) else None


def month_from_json(value: Any) -> BuildDate | None:
    match = _MONTH.match(value) if isinstance(value, str) else None
    if match is None:
        return None
    try:
        return BuildDate(int(match.group(1)), int(match.group(2)))
    except ValueError:
        return None


# --- conditions -----------------------------------------------------------------------------------------------------


def condition_to_json(condition: Condition) -> dict[str, Any]:
    match condition:
        case OneOf(fact=fact, values=values):
            return {"f": fact, "in": sorted((value_to_json(value) for value in values), key=str)}
        case DateRange(start=start, end=end):
            return {"date": [value_to_json(start), value_to_json(end)]}
        case NotUnderstood(text=text):
            return {"?": text}
        case All(items=items):
            return {"all": [condition_to_json(item) for item in items]}
        case AnyOf(items=items):
            return {"any": [condition_to_json(item) for item in items]}
        case Not(item=item):
            return {"not": condition_to_json(item)}
    raise TypeError(f"not a condition: {condition!r}")


def condition_from_json(document: Any) -> Condition:
    """The condition a document describes; None or {} is no condition (it holds)."""
    if not document:
        return All()
    if not isinstance(document, dict):
        return NotUnderstood(str(document)[:200])
    if "f" in document and isinstance(document.get("in"), list):
        fact = str(document["f"])
        values = [value_from_json(fact, value) for value in document["in"]]
        return OneOf(fact, frozenset(value for value in values if value is not None))
    if isinstance(document.get("date"), list) and len(document["date"]) == 2:
        start, end = (month_from_json(value) for value in document["date"])
        return DateRange(start, end)
    if "?" in document:
        return NotUnderstood(str(document["?"]))
    for key, kind in (("all", All), ("any", AnyOf)):
        if isinstance(document.get(key), list):
            return kind(tuple(condition_from_json(item) for item in document[key]))
    if "not" in document:
        return Not(condition_from_json(document["not"]))
    return NotUnderstood(str(document)[:200])


# --- fit answers ----------------------------------------------------------------------------------------------------


def fit_to_json(fit: Fit) -> dict[str, Any]:
    """`{"s": status, "r": [[code, fact, value, wanted, negated], ...], "q": question, "u": [unknown facts]}`."""
    document: dict[str, Any] = {"s": fit.status}
    if fit.reasons:
        document["r"] = [
            [reason.code, reason.fact, value_to_json(reason.value), reason.wanted, reason.negated]
            for reason in fit.reasons
        ]
    if fit.question:
        document["q"] = fit.question
    if fit.unknowns:
        document["u"] = list(fit.unknowns)
    return document


def fit_from_json(document: Any) -> Fit:
    """A stored answer back; anything else (a row whose answer is not computed yet: None) is a maybe."""
    if not isinstance(document, dict) or "s" not in document:
        return Fit(MAYBE)
    reasons = tuple(
        Reason(code, fact, value_from_json(fact, value), wanted, bool(negated))
        for code, fact, value, wanted, negated in document.get("r", ())
    )
    return Fit(document["s"], reasons, document.get("q"), tuple(document.get("u", ())))


# --- facts ----------------------------------------------------------------------------------------------------------


def facts_to_json(facts: VehicleFacts) -> dict[str, Any]:
    """The facts the sources gave (answers are kept apart, per dealer): unknown facts are left out."""
    document: dict[str, Any] = {}
    for field in fields(VehicleFacts):
        value = getattr(facts, field.name)
        if field.name == "answers" or value is None or (field.name == "option_list_complete" and not value):
            continue
        document[field.name] = sorted(value) if field.name == "option_codes" else value_to_json(value)
    return document
