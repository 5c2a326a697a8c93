"""The shops' answers to fit questions: what may be answered and how an answer is checked, the answer kept or
cleared (each rewrites that shop's fits of the vehicle's maybes at once, with app.catalog.fit.services' judge), the
answers given on a vehicle and how one is shown, and the member's "only what fits" switch (Sadece uyanlar).

An answer is the shop's (issue 41): every member sees and uses it, `user_id` records who gave it. Other shops'
answers are offered only as an anonymous count of the shops that gave the value ("2 başka bayi: evet").
"""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass, field, replace
from typing import Any

import sqlalchemy as sa
from flask import g, has_request_context
from flask_babel import gettext as _

from app.catalog.fit import codec, texts
from app.catalog.fit.evaluate import MAYBE
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
from app.catalog.fit.services import Judge, vehicle_facts
from app.catalog.models import FitAnswer, FitPreference, Part, PartFit
from app.core.db import begin_writes, insert_for, utcnow
from app.core.errors import ApiError
from app.extensions import db
from app.vehicles.models import Vehicle

REWRITE_BATCH = 1000
ANSWERS_READ = "fit_answers_read"  # in flask.g: the answers read per vehicle in this request (answers_on)

# --- what may be answered ------------------------------------------------------------------------------------------

_CODE = re.compile(r"^[A-Z0-9][A-Z0-9 .\-/]{0,19}$")
_OPTION_CODE = re.compile(r"^[A-Z0-9]{1,20}$")
_MONTH = re.compile(r"^\d{4}-\d{2}$")
BOOL_FACTS = frozenset({AIRCON, AWD})
CHOICES = {GEARBOX_KIND: (MANUAL, AUTOMATIC), DRIVE_SIDE: (LHD, RHD)}
_NUMBERS = {DOORS: (1, 9), MODEL_YEAR: (1950, 2100)}
_CODE_FACTS = frozenset({MODEL_CODE, ENGINE_CODE, GEARBOX_CODE, BODY_STYLE, BRAKE_CODE, MARKET, PLANT})


def answerable(fact: str) -> bool:
    """Whether a question can be asked on `fact` (a fact name the rules use; not the catalog's criteria)."""
    if fact.startswith(OPTION_PREFIX):
        return bool(_OPTION_CODE.match(fact.removeprefix(OPTION_PREFIX)))
    return fact in BOOL_FACTS or fact in CHOICES or fact in _NUMBERS or fact in _CODE_FACTS or fact == BUILD_DATE


def parse_fact(fact: str) -> str:
    if not isinstance(fact, str) or not answerable(fact):
        raise ApiError("unknown_fact", _("There is no such question about a vehicle."), 400)
    return fact


def parse_value(fact: str, raw: Any) -> FactValue:
    """An answer's value as the JSON body gives it, checked for its fact; a refusal says what is expected."""
    if fact in BOOL_FACTS or fact.startswith(OPTION_PREFIX):
        if isinstance(raw, bool):
            return raw
        raise _bad_value(_("Answer true or false."))
    if fact in CHOICES:
        value = raw.strip().upper() if isinstance(raw, str) else None
        if value in CHOICES[fact]:
            return value
        raise _bad_value(_("Answer one of: %(choices)s.", choices=", ".join(CHOICES[fact])))
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


# --- the answer kept or cleared ---------------------------------------------------------------------------------


def answer(shop_id: uuid.UUID, user_id: uuid.UUID, vehicle: Vehicle, fact: str, value: FactValue) -> dict[str, Any]:
    """Keep the shop's answer (given by member `user_id`) and rewrite the shop's fits of the vehicle's maybes with it,
    in the request's transaction."""
    facts = vehicle_facts(vehicle)
    if facts.known(fact) is not None:
        raise ApiError("fact_known", _("The vehicle's catalog already tells this; it needs no answer."), 409)
    _written()
    db.session.execute(
        insert_for(db.session, FitAnswer)
        .values(vehicle_id=vehicle.id, shop_id=shop_id, user_id=user_id, fact=fact, value=value, answered_at=utcnow())
        .on_conflict_do_update(
            index_elements=[FitAnswer.vehicle_id, FitAnswer.shop_id, FitAnswer.fact],
            set_={"value": value, "user_id": user_id, "answered_at": utcnow()},
        )
    )
    changed = rewrite_fits(shop_id, vehicle.id, facts)
    return {"answer": answer_view(fact, value, "me"), "changed": changed}


def clear_answer(shop_id: uuid.UUID, vehicle: Vehicle, fact: str) -> dict[str, Any]:
    """Forget the shop's answer; its fits of the vehicle's maybes go back to what its other answers settle."""
    _written()
    db.session.execute(
        sa.delete(FitAnswer).where(
            FitAnswer.vehicle_id == vehicle.id, FitAnswer.shop_id == shop_id, FitAnswer.fact == fact
        )
    )
    return {"answer": None, "changed": rewrite_fits(shop_id, vehicle.id, vehicle_facts(vehicle))}


def _written() -> None:
    """Before an answer is written: the request's transaction writes, and the answers it read are forgotten."""
    begin_writes(db.session)
    if has_request_context():
        g.pop(ANSWERS_READ, None)


def rewrite_fits(shop_id: uuid.UUID, vehicle_id: int, facts: VehicleFacts) -> int:
    """Write the shop's PartFit rows of the vehicle again from all its answers: one for each part that is a maybe
    by the sources' facts and whose answer its answers change. How many parts' status changed."""
    answered = replace(facts, answers=own_answers(shop_id, vehicle_id))
    before = dict(
        db.session.execute(
            sa.select(PartFit.part_id, PartFit.fit_status).where(
                PartFit.shop_id == shop_id, PartFit.vehicle_id == vehicle_id
            )
        ).all()
    )
    maybes = db.session.execute(
        sa.select(Part.id, Part.category_id, Part.applicability, Part.fit).where(
            Part.vehicle_id == vehicle_id, Part.fit_status == MAYBE, _STATES_APPLICABILITY
        )
    ).all()
    judge = Judge(answered)
    rows = []
    for part_id, category_id, applicability, base in maybes:
        columns = judge.stored(applicability)
        if columns["fit"] != base:
            rows.append({"shop_id": shop_id, "part_id": part_id, "vehicle_id": vehicle_id, "category_id": category_id,
                         **columns})  # fmt: skip
    db.session.execute(sa.delete(PartFit).where(PartFit.shop_id == shop_id, PartFit.vehicle_id == vehicle_id))
    for start in range(0, len(rows), REWRITE_BATCH):
        db.session.execute(sa.insert(PartFit), rows[start : start + REWRITE_BATCH])
    after = {row["part_id"]: row["fit_status"] for row in rows}
    return sum(before.get(part_id, MAYBE) != after.get(part_id, MAYBE) for part_id in before.keys() | after.keys())


# A row whose catalog states no applicability (a JSON null) is a maybe no answer can settle: left out of the rewrite.
_STATES_APPLICABILITY = sa.and_(Part.applicability.is_not(None), sa.cast(Part.applicability, sa.Text) != "null")


def own_answers(shop_id: uuid.UUID, vehicle_id: int) -> dict[str, FactValue]:
    rows = db.session.execute(
        sa.select(FitAnswer.fact, FitAnswer.value).where(
            FitAnswer.vehicle_id == vehicle_id, FitAnswer.shop_id == shop_id
        )
    ).all()
    return {fact: stored for fact, value in rows if (stored := codec.value_from_json(fact, value)) is not None}


# --- answers as shown ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Answers:
    """The answers given on one vehicle: the shop's own, and what other shops answered on each fact: the value most of
    them gave (the latest among equals) and how many gave it (`counts`), never which shop or member."""

    own: dict[str, Any] = field(default_factory=dict)
    colleagues: dict[str, Any] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)


_ANSWERS_ON = (
    sa.select(FitAnswer.shop_id, FitAnswer.fact, FitAnswer.value)
    .where(FitAnswer.vehicle_id == sa.bindparam("vehicle_id"))
    .order_by(FitAnswer.answered_at)
)


def answers_on(shop_id: uuid.UUID | None, vehicle_id: int) -> Answers:
    """Every shop's answers on the vehicle, in one query, read once per request: the drawing, its rows and the tree's
    leaves all ask (an answer written in the request forgets them)."""
    read: dict[int, list[sa.Row]] = g.setdefault(ANSWERS_READ, {}) if has_request_context() else {}
    rows = read.get(vehicle_id)
    if rows is None:
        # Plain rows past the ORM session (answers are written by Core statements, nothing waits to be flushed).
        rows = read[vehicle_id] = db.session.connection().execute(_ANSWERS_ON, {"vehicle_id": vehicle_id}).all()
    found = Answers()
    others: dict[str, dict[str, list[Any]]] = {}  # fact -> value key -> [shops, latest place, value]
    for place, (shop, fact, value) in enumerate(rows):  # oldest first
        if shop == shop_id:
            found.own[fact] = value
            continue
        tally = others.setdefault(fact, {}).setdefault(_value_key(value), [0, place, value])
        tally[0], tally[1] = tally[0] + 1, place
    for fact, tallies in others.items():
        count, _latest, value = max(tallies.values(), key=lambda tally: (tally[0], tally[1]))
        found.colleagues[fact], found.counts[fact] = value, count
    return found


def _value_key(value: Any) -> str:
    """A JSON answer value as a hashable key (a bool and a number stay apart)."""
    return f"{type(value).__name__}:{value}"


def answer_view(fact: str, value: Any, by: str, count: int = 0) -> dict[str, Any]:
    text = texts.answer_text(fact, value) if by == "me" else texts.colleague_text(fact, value, count)
    return {"fact": fact, "value": value, "label": texts.value_label(fact, value), "text": text, "by": by}


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


def invalid_preference() -> ApiError:
    return ApiError("invalid_preference", _("fittingOnly must be true or false."), 400)
