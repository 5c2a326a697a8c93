"""Fit answers on the stored catalog: a stored vehicle's facts, each part row's fit computed when it is stored, the
dealers' answers to questions (each rewrites that dealer's fits of the vehicle's maybes at once), the "only what
fits" switch, and the fit parts of the answers (parts, leaves, a drawing's question).

The answer is computed when a row is stored and when a question is answered, never on a read: a read takes the row's
stored fit, overlaid by the dealer's own (PartFit, joined in the same statement).
"""

from __future__ import annotations

import json
import re
import uuid
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import sqlalchemy as sa
from flask_babel import gettext as _

from app.catalog.fit import codec, texts
from app.catalog.fit.conditions import Condition
from app.catalog.fit.evaluate import MAYBE, NO, YES, Fit, drawing_question, evaluate
from app.catalog.fit.facts import (
    AIRCON,
    AUTOMATIC,
    AWD,
    BODY_STYLE,
    BRAKE_CODE,
    BUILD_DATE,
    DOORS,
    DRIVE_SIDE,
    ENGINE_CODE,
    GEARBOX_CODE,
    GEARBOX_KIND,
    LHD,
    MANUAL,
    MARKET,
    MODEL_CODE,
    MODEL_YEAR,
    OPTION_PREFIX,
    PLANT,
    RHD,
    FactValue,
    VehicleFacts,
)
from app.catalog.fit.vehicle_facts import facts_from
from app.catalog.models import FitAnswer, FitPreference, Part, PartFit
from app.core.db import begin_writes, insert_for, utcnow
from app.core.errors import ApiError
from app.extensions import db
from app.vehicles.models import CatalogVehicle, Vehicle

STATUSES = (YES, NO, MAYBE)
REWRITE_BATCH = 1000

# --- the vehicle's facts ----------------------------------------------------------------------------------------


def vehicle_facts(vehicle: Vehicle) -> VehicleFacts:
    """What the vehicle's sources and VIN tell of it (a browsed car: what its catalog listing fixes)."""
    parameters = None
    if not vehicle.vin:
        parameters = db.session.scalar(
            sa.select(CatalogVehicle.parameters).where(CatalogVehicle.vehicle_id == vehicle.id)
        )
    return facts_from(vehicle.vin or None, vehicle.source, vehicle.raw_data or {}, parameters)


def facts_of(vehicle_id: int) -> VehicleFacts:
    vehicle = db.session.get(Vehicle, vehicle_id)
    return vehicle_facts(vehicle) if vehicle is not None else VehicleFacts()


# --- fits computed when rows are stored -------------------------------------------------------------------------


class Judge:
    """Part rows' fit columns by one vehicle's facts; a condition shared by many rows is evaluated once."""

    def __init__(self, facts: VehicleFacts) -> None:
        self.facts = facts
        self._by_condition: dict[Condition, dict[str, Any]] = {}
        self._by_document: dict[str, dict[str, Any]] = {}

    def columns(self, applicability: Condition | None) -> dict[str, Any]:
        """`applicability`, `fit_status` and `fit` of a row; no applicability (the source states none) fits."""
        if applicability is None:
            return {"applicability": None, "fit_status": YES, "fit": None}
        found = self._by_condition.get(applicability)
        if found is None:
            fit = evaluate(self.facts, applicability)
            found = self._by_condition[applicability] = {
                "applicability": codec.condition_to_json(applicability),
                "fit_status": fit.status,
                "fit": codec.fit_to_json(fit),
            }
        return found

    def stored(self, document: Any) -> dict[str, Any]:
        """The fit columns of a stored row's applicability document (a copy re-judged for another vehicle)."""
        if not document:
            return {"fit_status": YES, "fit": None}
        key = json.dumps(document)
        found = self._by_document.get(key)
        if found is None:
            fit = evaluate(self.facts, codec.condition_from_json(document))
            found = self._by_document[key] = {"fit_status": fit.status, "fit": codec.fit_to_json(fit)}
        return found


def leaf_counts(statuses: Iterable[str | None]) -> dict[str, int]:
    """A leaf's fit_yes, fit_no and fit_maybe from its rows' statuses (a row stored before fits is a yes)."""
    counted = Counter(status or YES for status in statuses)
    return {"fit_yes": counted[YES], "fit_no": counted[NO], "fit_maybe": counted[MAYBE]}


# --- answers -------------------------------------------------------------------------------------------------------

_CODE = re.compile(r"^[A-Z0-9][A-Z0-9 .\-/]{0,19}$")
_OPTION_CODE = re.compile(r"^[A-Z0-9]{1,20}$")
_MONTH = re.compile(r"^\d{4}-\d{2}$")
_BOOL_FACTS = frozenset({AIRCON, AWD})
_CHOICES = {GEARBOX_KIND: (MANUAL, AUTOMATIC), DRIVE_SIDE: (LHD, RHD)}
_NUMBERS = {DOORS: (1, 9), MODEL_YEAR: (1950, 2100)}
_CODE_FACTS = frozenset({MODEL_CODE, ENGINE_CODE, GEARBOX_CODE, BODY_STYLE, BRAKE_CODE, MARKET, PLANT})
# What a question's answer is typed as: pick one of the options, a month, or a number.
CHOICE, MONTH, NUMBER = "choice", "month", "number"


def answerable(fact: str) -> bool:
    """Whether a question can be asked on `fact` (a fact name the rules use; not the catalog's criteria)."""
    if fact.startswith(OPTION_PREFIX):
        return bool(_OPTION_CODE.match(fact.removeprefix(OPTION_PREFIX)))
    return fact in _BOOL_FACTS or fact in _CHOICES or fact in _NUMBERS or fact in _CODE_FACTS or fact == BUILD_DATE


def parse_fact(fact: str) -> str:
    if not isinstance(fact, str) or not answerable(fact):
        raise ApiError("unknown_fact", _("There is no such question about a vehicle."), 400)
    return fact


def parse_value(fact: str, raw: Any) -> FactValue:
    """An answer's value as the JSON body gives it, checked for its fact; a refusal says what is expected."""
    if fact in _BOOL_FACTS or fact.startswith(OPTION_PREFIX):
        if isinstance(raw, bool):
            return raw
        raise _bad_value(_("Answer true or false."))
    if fact in _CHOICES:
        value = raw.strip().upper() if isinstance(raw, str) else None
        if value in _CHOICES[fact]:
            return value
        raise _bad_value(_("Answer one of: %(choices)s.", choices=", ".join(_CHOICES[fact])))
    if fact in _NUMBERS:
        low, high = _NUMBERS[fact]
        if isinstance(raw, int) and not isinstance(raw, bool) and low <= raw <= high:
            return raw
        raise _bad_value(_("Answer a whole number from %(min)d to %(max)d.", min=low, max=high))
    if fact == BUILD_DATE:
        month = codec.month_from_json(raw) if isinstance(raw, str) and _MONTH.match(raw) else None
        if month is not None and 1950 <= month.year <= 2100:
            return str(month)
        raise _bad_value(_("Answer a month as YYYY-MM, for example 2016-05."))
    value = raw.strip().upper() if isinstance(raw, str) else ""
    if raw == texts.OTHER or _CODE.match(value):
        return value
    raise _bad_value(_('Answer a code of letters and digits (at most 20), or "other".'))


def _bad_value(message: str) -> ApiError:
    return ApiError("invalid_answer", message, 400)


def answer(user_id: uuid.UUID, vehicle: Vehicle, fact: str, value: FactValue) -> dict[str, Any]:
    """Keep the dealer's answer and rewrite his fits of the vehicle's maybes with it, in the request's transaction."""
    facts = vehicle_facts(vehicle)
    if facts.known(fact) is not None:
        raise ApiError("fact_known", _("The vehicle's catalog already tells this; it needs no answer."), 409)
    begin_writes(db.session)
    db.session.execute(
        insert_for(db.session, FitAnswer)
        .values(vehicle_id=vehicle.id, user_id=user_id, fact=fact, value=value, answered_at=utcnow())
        .on_conflict_do_update(
            index_elements=[FitAnswer.vehicle_id, FitAnswer.user_id, FitAnswer.fact],
            set_={"value": value, "answered_at": utcnow()},
        )
    )
    changed = rewrite_fits(user_id, vehicle.id, facts)
    return {"answer": answer_view(fact, value, "me"), "changed": changed}


def clear_answer(user_id: uuid.UUID, vehicle: Vehicle, fact: str) -> dict[str, Any]:
    """Forget the dealer's answer; his fits of the vehicle's maybes go back to what the other answers settle."""
    begin_writes(db.session)
    db.session.execute(
        sa.delete(FitAnswer).where(
            FitAnswer.vehicle_id == vehicle.id, FitAnswer.user_id == user_id, FitAnswer.fact == fact
        )
    )
    return {"answer": None, "changed": rewrite_fits(user_id, vehicle.id, vehicle_facts(vehicle))}


def rewrite_fits(user_id: uuid.UUID, vehicle_id: int, facts: VehicleFacts) -> int:
    """Write the dealer's PartFit rows of the vehicle again from all his answers: one for each part that is a maybe
    by the sources' facts and whose answer his answers change. How many parts' status changed."""
    answered = replace(facts, answers=own_answers(user_id, vehicle_id))
    before = dict(
        db.session.execute(
            sa.select(PartFit.part_id, PartFit.fit_status).where(
                PartFit.user_id == user_id, PartFit.vehicle_id == vehicle_id
            )
        ).all()
    )
    maybes = db.session.execute(
        sa.select(Part.id, Part.category_id, Part.applicability, Part.fit).where(
            Part.vehicle_id == vehicle_id, Part.fit_status == MAYBE
        )
    ).all()
    judge = Judge(answered)
    rows = []
    for part_id, category_id, applicability, base in maybes:
        columns = judge.stored(applicability)
        if columns["fit"] != base:
            rows.append({"user_id": user_id, "part_id": part_id, "vehicle_id": vehicle_id, "category_id": category_id,
                         **columns})  # fmt: skip
    db.session.execute(sa.delete(PartFit).where(PartFit.user_id == user_id, PartFit.vehicle_id == vehicle_id))
    for start in range(0, len(rows), REWRITE_BATCH):
        db.session.execute(sa.insert(PartFit), rows[start : start + REWRITE_BATCH])
    after = {row["part_id"]: row["fit_status"] for row in rows}
    return sum(before.get(part_id, MAYBE) != after.get(part_id, MAYBE) for part_id in before.keys() | after.keys())


def own_answers(user_id: uuid.UUID, vehicle_id: int) -> dict[str, FactValue]:
    rows = db.session.execute(
        sa.select(FitAnswer.fact, FitAnswer.value).where(
            FitAnswer.vehicle_id == vehicle_id, FitAnswer.user_id == user_id
        )
    ).all()
    return {fact: stored for fact, value in rows if (stored := codec.value_from_json(fact, value)) is not None}


# --- answers as shown ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Answers:
    """The answers given on one vehicle: the dealer's own, and his colleagues' (the latest on each fact)."""

    own: dict[str, Any] = field(default_factory=dict)
    colleagues: dict[str, Any] = field(default_factory=dict)


def answers_on(user_id: uuid.UUID | None, vehicle_id: int) -> Answers:
    """Every dealer's answers on the vehicle, in one query."""
    rows = db.session.execute(
        sa.select(FitAnswer.user_id, FitAnswer.fact, FitAnswer.value)
        .where(FitAnswer.vehicle_id == vehicle_id)
        .order_by(FitAnswer.answered_at)
    ).all()
    found = Answers()
    for who, fact, value in rows:
        (found.own if who == user_id else found.colleagues)[fact] = value  # the latest colleague's answer wins
    return found


def answer_view(fact: str, value: Any, by: str) -> dict[str, Any]:
    text = texts.answer_text(fact, value) if by == "me" else texts.colleague_text(fact, value)
    return {"fact": fact, "value": value, "label": texts.value_label(fact, value), "text": text, "by": by}


# --- fits as shown -------------------------------------------------------------------------------------------------


def part_fit_view(
    status: str | None, document: Any, answered: bool = False, colleagues: Mapping[str, Any] = {}
) -> dict[str, Any]:
    """A part row's `fit`: its status, the reasons with their texts, the question of a maybe, who settled it."""
    document = document if isinstance(document, dict) else {}
    status = status or YES
    unknowns = document.get("u") or ()
    answered_by = "me" if answered else None
    if answered_by is None and status == MAYBE and any(fact in colleagues for fact in unknowns):
        answered_by = "colleague"
    return {
        "status": status,
        "reasons": [_reason_view(*entry) for entry in document.get("r") or ()],
        "question": document.get("q"),
        "answeredBy": answered_by,
    }


def _reason_view(code: str, fact: str | None, value: Any, wanted: str, negated: bool) -> dict[str, Any]:
    return {
        "code": code,
        "fact": fact,
        "value": value,
        "wanted": wanted,
        "negated": bool(negated),
        "text": texts.reason_text(code, fact, value, wanted, bool(negated)),
    }


def leaf_fit_view(category: Any, moved: Mapping[str, int] | None = None) -> dict[str, Any] | None:
    """A leaf's `fit` ({status, yes, no, maybe}) with the dealer's answers' moves; None for a group or a leaf whose
    parts are not stored (or were stored before fit answers)."""
    if not category.is_leaf or category.fit_yes is None:
        return None
    moved = moved or {}
    yes, no = category.fit_yes + moved.get(YES, 0), category.fit_no + moved.get(NO, 0)
    maybe = max(category.fit_maybe - moved.get(YES, 0) - moved.get(NO, 0), 0)
    return {"status": leaf_status(yes, no, maybe), "yes": yes, "no": no, "maybe": maybe}


def leaf_status(yes: int, no: int, maybe: int) -> str:
    """A leaf fits when some row fits, does not when no row fits or may fit, else may fit."""
    if yes:
        return YES
    return NO if no and not maybe else MAYBE


def leaf_moves(user_id: uuid.UUID | None, categories: Sequence[Any]) -> dict[int, dict[str, int]]:
    """How the dealer's answers moved the maybes of these leaves (to yes or no), in one query; none asked when no
    leaf among them has a maybe."""
    ids = [category.id for category in categories if category.is_leaf and category.fit_maybe]
    if user_id is None or not ids:
        return {}
    moves: dict[int, dict[str, int]] = {}
    for category_id, status, count in db.session.execute(
        sa.select(PartFit.category_id, PartFit.fit_status, sa.func.count())
        .where(PartFit.user_id == user_id, PartFit.category_id.in_(ids))
        .group_by(PartFit.category_id, PartFit.fit_status)
    ).all():
        moves.setdefault(category_id, {})[status] = count
    return moves


def parse_status_filter(raw: str | None) -> frozenset[str] | None:
    """?fit=yes or ?fit=yes,maybe: the statuses to keep (None: every row)."""
    if raw is None or not raw.strip():
        return None
    wanted = frozenset(part.strip().lower() for part in raw.split(","))
    if not wanted <= set(STATUSES):
        raise ApiError("invalid_fit_filter", _("fit can be yes, no or maybe, or several of them with commas."), 400)
    return wanted


# --- the drawing's question ----------------------------------------------------------------------------------------


def question_for(fits: Sequence[dict[str, Any]], answers: Answers) -> dict[str, Any] | None:
    """The one question that settles most of these rows' maybes (their `fit` views), with its options, the dealer's
    current answer and a colleague's answer; None when no maybe hangs on a fact."""
    maybes = [fit for fit in fits if fit["status"] == MAYBE]
    fact = drawing_question(Fit(MAYBE, question=fit["question"], unknowns=_unknowns(fit)) for fit in maybes)
    if fact is None or not answerable(fact):
        return None
    wanted = [reason["wanted"] for fit in maybes for reason in fit["reasons"] if reason["fact"] == fact]
    current, colleague = answers.own.get(fact), answers.colleagues.get(fact)
    return {
        "fact": fact,
        "text": texts.question_text(fact),
        "input": MONTH if fact == BUILD_DATE else NUMBER if fact == MODEL_YEAR else CHOICE,
        "options": _options(fact, wanted),
        "hanging": sum(fact in _unknowns(fit) for fit in maybes),
        "current": answer_view(fact, current, "me") if current is not None else None,
        "colleague": answer_view(fact, colleague, "colleague") if colleague is not None else None,
    }


def _unknowns(fit: dict[str, Any]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(r["fact"] for r in fit["reasons"] if r["code"] == "unknown" and r["fact"]))


def _options(fact: str, wanted: list[str]) -> list[dict[str, Any]]:
    if fact in _BOOL_FACTS or fact.startswith(OPTION_PREFIX):
        values: list[Any] = [True, False]
    elif fact in _CHOICES:
        values = list(_CHOICES[fact])
    elif fact == DOORS:
        values = list(range(2, 6))
    elif fact in (BUILD_DATE, MODEL_YEAR):
        return []
    else:  # the codes the rules name, and "another one"
        values = [*sorted({value for text in wanted for value in text.split("|") if value}), texts.OTHER]
    return [{"value": value, "label": texts.option_label(fact, value)} for value in values]


# --- the "only what fits" switch ------------------------------------------------------------------------------------


def fitting_only(user_id: uuid.UUID) -> bool:
    return bool(db.session.scalar(sa.select(FitPreference.fitting_only).where(FitPreference.user_id == user_id)))


def set_fitting_only(user_id: uuid.UUID, value: bool) -> bool:
    """Remember the dealer's switch (Sadece uyanlar) for every page and device."""
    begin_writes(db.session, durable=False)
    db.session.execute(
        insert_for(db.session, FitPreference)
        .values(user_id=user_id, fitting_only=value)
        .on_conflict_do_update(index_elements=[FitPreference.user_id], set_={"fitting_only": value})
    )
    return value


# --- the vehicle's fit state ---------------------------------------------------------------------------------------


def vehicle_fit(user_id: uuid.UUID, vehicle: Vehicle) -> dict[str, Any]:
    """The vehicle's facts, the caller's answers and his colleagues', and the question that settles most of the
    vehicle's maybes as the caller sees them."""
    answers = answers_on(user_id, vehicle.id)
    maybes = db.session.execute(
        sa.select(sa.func.coalesce(PartFit.fit, Part.fit, type_=Part.fit.type))
        .select_from(Part)
        .outerjoin(PartFit, sa.and_(PartFit.part_id == Part.id, PartFit.user_id == user_id))
        .where(
            Part.vehicle_id == vehicle.id,
            Part.fit_status == MAYBE,
            sa.func.coalesce(PartFit.fit_status, Part.fit_status) == MAYBE,
        )
    ).scalars()
    return {
        "facts": codec.facts_to_json(vehicle_facts(vehicle)),
        "answers": [answer_view(fact, value, "me") for fact, value in answers.own.items()],
        "colleagueAnswers": [answer_view(fact, value, "colleague") for fact, value in answers.colleagues.items()],
        "question": question_for([part_fit_view(MAYBE, document) for document in maybes], answers),
    }


def invalid_preference() -> ApiError:
    return ApiError("invalid_preference", _("fittingOnly must be true or false."), 400)
