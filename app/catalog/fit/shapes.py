"""The fit view shapes the pages and the API share: a part row's `fit` with its reasons' texts, a leaf's fit counts as
the dealer's answers move them, the ?fit= filter, the drawing's question (the one that settles most maybes, with its
options and the answers given), and a vehicle's whole fit state.

Read from what app.catalog.fit.services stored and app.catalog.fit.answers kept; app.catalog.fit.presenters turns these
shapes into what the pages show.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from typing import Any

import sqlalchemy as sa
from flask_babel import get_locale
from flask_babel import gettext as _

from app.catalog.fit import codec, texts
from app.catalog.fit.answers import BOOL_FACTS, CHOICES, Answers, answer_view, answerable, answers_on
from app.catalog.fit.evaluate import MAYBE, NO, PENDING, YES, Fit, Reason, drawing_question
from app.catalog.fit.facts import BUILD_DATE, DOORS, MODEL_YEAR, OPTION_PREFIX
from app.catalog.fit.services import vehicle_facts
from app.catalog.models import Part, PartFit
from app.core.errors import ApiError
from app.extensions import db
from app.vehicles.models import Vehicle

STATUSES = (YES, NO, MAYBE)
PENDING_FIT = codec.fit_to_json(Fit(MAYBE, (Reason(PENDING, None, None, ""),)))
# What a question's answer is typed as: pick one of the options, a month, or a number.
CHOICE, MONTH, NUMBER = "choice", "month", "number"

# --- fits as shown -------------------------------------------------------------------------------------------------


def part_fit_view(
    status: str | None,
    document: Any,
    answered: bool = False,
    colleagues: Mapping[str, Any] = {},
    locale: str | None = None,
) -> dict[str, Any]:
    """A part row's `fit`: its status, the reasons with their texts, the question of a maybe, who settled it.
    `locale`: the request's, read once by a caller showing many rows. A row whose answer is not computed by the rules
    in force (no status, or a yes without the reasons that prove it: stored before them) reads as a maybe, pending."""
    document = document if isinstance(document, dict) else {}
    if status not in STATUSES or (status == YES and not document.get("r")):
        status, document = MAYBE, PENDING_FIT
    unknowns = document.get("u") or ()
    answered_by = "me" if answered else None
    if answered_by is None and status == MAYBE and any(fact in colleagues for fact in unknowns):
        answered_by = "colleague"
    entries = document.get("r")
    return {
        "status": status,
        "reasons": _reasons_view(entries, locale or str(get_locale())) if entries else [],
        "question": document.get("q"),
        "answeredBy": answered_by,
    }


# Reasons repeat across a vehicle's rows (the same rule, the same facts): their views are made once per language
# (read only by their users), as texts.py keeps the sentences; bounded, since the rules come from the catalogs.
_REASONS_CACHE_LIMIT = 20_000
_reasons_cache: dict[tuple[str, tuple[tuple[Any, ...], ...]], list[dict[str, Any]]] = {}


def _reasons_view(entries: list[list[Any]], locale: str) -> list[dict[str, Any]]:
    try:
        key = (locale, tuple(tuple(entry) for entry in entries))
        found = _reasons_cache.get(key)
    except TypeError:  # a stored value that is not a scalar: made afresh
        return [_reason_view(*entry) for entry in entries]
    if found is None:
        if len(_reasons_cache) > _REASONS_CACHE_LIMIT:
            _reasons_cache.clear()
        found = _reasons_cache[key] = [_reason_view(*entry) for entry in entries]
    return found


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
    return counts_view(yes, no, maybe)


def counts_view(yes: int, no: int, maybe: int) -> dict[str, Any]:
    """A leaf's `fit` from its rows' counts."""
    return {"status": leaf_status(yes, no, maybe), "yes": yes, "no": no, "maybe": maybe}


def leaf_status(yes: int, no: int, maybe: int) -> str:
    """A leaf fits when some row fits, does not when no row fits or may fit, else may fit."""
    if yes:
        return YES
    return NO if no and not maybe else MAYBE


def leaf_moves(shop_id: uuid.UUID | None, categories: Sequence[Any]) -> dict[int, dict[str, int]]:
    """How the shop's answers moved the maybes of these leaves (to yes or no), in one query; none asked when no
    leaf among them has a maybe, or the shop answered nothing on their vehicle (its fits are only written from its
    answers: app.catalog.fit.answers.rewrite_fits)."""
    ids = [category.id for category in categories if category.is_leaf and category.fit_maybe]
    if shop_id is None or not ids or not answers_on(shop_id, categories[0].vehicle_id).own:
        return {}
    moves: dict[int, dict[str, int]] = {}
    for category_id, status, count in db.session.execute(
        sa.select(PartFit.category_id, PartFit.fit_status, sa.func.count())
        .where(PartFit.shop_id == shop_id, PartFit.category_id.in_(ids))
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
        "colleague": _others_view(fact, answers) if colleague is not None else None,
    }


def _unknowns(fit: dict[str, Any]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(r["fact"] for r in fit["reasons"] if r["code"] == "unknown" and r["fact"]))


def _options(fact: str, wanted: list[str]) -> list[dict[str, Any]]:
    if fact in BOOL_FACTS or fact.startswith(OPTION_PREFIX):
        values: list[Any] = [True, False]
    elif fact in CHOICES:
        values = list(CHOICES[fact])
    elif fact == DOORS:
        values = list(range(2, 6))
    elif fact in (BUILD_DATE, MODEL_YEAR):
        return []
    else:  # the codes the rules name, and "another one"
        values = [*sorted({value for text in wanted for value in text.split("|") if value}), texts.OTHER]
    return [{"value": value, "label": texts.option_label(fact, value)} for value in values]


# --- the vehicle's fit state ---------------------------------------------------------------------------------------


def _others_view(fact: str, answers: Answers) -> dict[str, Any]:
    """Other shops' answer on `fact`, as a count of the shops that gave it (never which)."""
    return answer_view(fact, answers.colleagues[fact], "colleague", answers.counts.get(fact, 1))


def vehicle_fit(shop_id: uuid.UUID, vehicle: Vehicle) -> dict[str, Any]:
    """The vehicle's facts, the shop's answers and other shops' (counted), and the question that settles most of the
    vehicle's maybes as the shop sees them."""
    answers = answers_on(shop_id, vehicle.id)
    maybes = db.session.execute(
        sa.select(sa.func.coalesce(PartFit.fit, Part.fit, type_=Part.fit.type))
        .select_from(Part)
        .outerjoin(PartFit, sa.and_(PartFit.part_id == Part.id, PartFit.shop_id == shop_id))
        .where(
            Part.vehicle_id == vehicle.id,
            Part.fit_status == MAYBE,
            sa.func.coalesce(PartFit.fit_status, Part.fit_status) == MAYBE,
        )
    ).scalars()
    return {
        "facts": codec.facts_to_json(vehicle_facts(vehicle)),
        "answers": [answer_view(fact, value, "me") for fact, value in answers.own.items()],
        "colleagueAnswers": [_others_view(fact, answers) for fact in answers.colleagues],
        "question": question_for([part_fit_view(MAYBE, document) for document in maybes], answers),
    }
