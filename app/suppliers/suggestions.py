"""Suggestions: known catalog numbers close to (never equal to) a number a supplier's line states, for a manager to
confirm or reject (app.suppliers.matching decides what is close and why).

Once a supplier's list is in use, its lines' OEM and OE numbers that are no known catalog code are compared with the
known codes sharing their first characters (one query per batch of prefixes), and what is close is kept as a pending
suggestion, once per line and known number: a decided one (confirmed, rejected) is never asked again. The known codes
are the catalog's part codes (`part.search_code`), read as a plain table (the catalog is above suppliers). The step is
bounded in time and count, and a failure is logged and leaves the list in use.

A confirmed suggestion makes the line (known by its own code, which outlives the list's refreshes) answer to the
known number: an "oe" number of the line in the list in use, written on confirming and again on every import of
the supplier's list, so that it is an offer where the number is asked. A rejected one is never an offer."""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Iterable

import sqlalchemy as sa
from flask_babel import gettext as _

from app.core.db import insert_for, utcnow
from app.core.errors import ApiError
from app.core.text import fold_code
from app.extensions import db
from app.suppliers.lines import numbers_of_lines
from app.suppliers.matching import SUGGESTION_MIN_LENGTH, column_numbers, stated_numbers, suggestions
from app.suppliers.models import (
    SupplierActive,
    SupplierLine,
    SupplierNumber,
    SupplierSuggestion,
)

log = logging.getLogger(__name__)

KNOWN = sa.table("part", sa.column("search_code"))
CHUNK_LINES = 2000
PREFIX_BATCH = 200  # prefixes per query of the known codes
CANDIDATES_PER_QUERY = 50_000
MAX_SUGGESTIONS = 2000  # per list
MAX_SECONDS = 60.0
KEY_LENGTH = 60
ID_MAX = 2**31 - 1


def _prefix(key: str) -> str:
    """The characters a candidate shares with the number: five on a long number, four on a short one."""
    return key[:5] if len(key) >= 10 else key[:4]


def suggest_for_list(import_id: int, shop_id: uuid.UUID, supplier_id: int) -> int:
    """Store the list's new pending suggestions (committed) and say how many; a failure is logged, nothing kept."""
    try:
        count = _suggest(import_id, shop_id, supplier_id, deadline=time.monotonic() + MAX_SECONDS)
        db.session.commit()
    except Exception:
        db.session.rollback()
        log.exception("suggestions of supplier import %s not recorded", import_id)
        return 0
    log.info("supplier import %s: %s new suggestions", import_id, count)
    return count


def apply_confirmed(import_id: int, supplier_id: int) -> None:
    """The supplier's confirmed suggestions on an import's lines (not committed): each line whose own code is a
    confirmed suggestion's answers to its known number."""
    lines = (
        sa.select(SupplierNumber.line_id, SupplierSuggestion.candidate_key, SupplierNumber.import_id)
        .join(
            SupplierSuggestion,
            sa.and_(
                SupplierSuggestion.line_key == SupplierNumber.key,
                SupplierSuggestion.supplier_id == supplier_id,
                SupplierSuggestion.status == "confirmed",
            ),
        )
        .where(SupplierNumber.import_id == import_id, SupplierNumber.kind == "own")
    )
    rows = [
        {"line_id": line_id, "kind": "oe", "key": key, "import_id": in_import}
        for line_id, key, in_import in db.session.execute(lines)
    ]
    if rows:
        db.session.execute(insert_for(db.session, SupplierNumber).on_conflict_do_nothing(), rows)


def _suggest(import_id: int, shop_id: uuid.UUID, supplier_id: int, *, deadline: float) -> int:
    count, after = 0, 0
    confirmed = _confirmed_line_keys(supplier_id)
    while count < MAX_SUGGESTIONS and time.monotonic() < deadline and (chunk := _lines(import_id, after)):
        after = chunk[-1].id
        found = _chunk_suggestions(chunk, _stated_keys(import_id, chunk, confirmed))
        rows = [
            {
                "shop_id": shop_id,
                "supplier_id": supplier_id,
                "own_code": line.own_code[:KEY_LENGTH],
                "line_key": fold_code(line.own_code)[:KEY_LENGTH],
                "number_key": fold_code(suggestion.written)[:KEY_LENGTH],
                "candidate_key": suggestion.key,
                "reason": suggestion.reason,
                "score": suggestion.score,
                "status": "pending",
                "created_at": utcnow(),
            }
            for line, suggestion in found
        ][: MAX_SUGGESTIONS - count]
        if rows:
            inserted = db.session.execute(
                insert_for(db.session, SupplierSuggestion).on_conflict_do_nothing().returning(SupplierSuggestion.id),
                rows,
            )
            count += len(inserted.all())
    return count


def _lines(import_id: int, after: int) -> list:
    """A chunk of the import's lines with an own code (a suggestion's identity) and numbers to compare."""
    query = (
        sa.select(SupplierLine.id, SupplierLine.own_code, SupplierLine.oem_code, SupplierLine.oe_text)
        .where(
            SupplierLine.import_id == import_id,
            SupplierLine.id > after,
            SupplierLine.own_code.is_not(None),
            sa.or_(SupplierLine.oem_code.is_not(None), SupplierLine.oe_text.is_not(None)),
        )
        .order_by(SupplierLine.id)
        .limit(CHUNK_LINES)
    )
    return [line for line in db.session.execute(query) if fold_code(line.own_code)]


def _confirmed_line_keys(supplier_id: int) -> set[str]:
    query = sa.select(SupplierSuggestion.line_key).where(
        SupplierSuggestion.supplier_id == supplier_id, SupplierSuggestion.status == "confirmed"
    )
    return set(db.session.scalars(query))


def _stated_keys(import_id: int, chunk: list, confirmed: set[str]) -> dict[int, list[str]]:
    """Each line's numbers long enough to compare: its OEM column's, and its OE field's as the import stored them (its
    "oe" numbers, read once already). A line a confirmed suggestion gave an "oe" number of its own (apply_confirmed)
    has its field read again, so that the number it was given is not taken for one it states."""
    stored = numbers_of_lines(import_id, chunk[0].id, chunk[-1].id, ("oe",))
    stated = {}
    for line in chunk:
        if fold_code(line.own_code) in confirmed:
            numbers = stated_numbers(oe_text=line.oe_text or "", oem_column=line.oem_code or "")
            keys = [number.key for _reason, number in numbers]
        else:
            keys = [number.key for number in column_numbers(line.oem_code or "")] + stored.get(line.id, [])
        stated[line.id] = [key for key in keys if len(key) >= SUGGESTION_MIN_LENGTH]
    return stated


def _chunk_suggestions(chunk: list, stated: dict[int, list[str]]) -> list:
    """Each line's suggestions: its numbers that are no known code against the known codes sharing their start."""
    keys = {key for numbers in stated.values() for key in numbers}
    known = _known(keys)
    prefixes = {_prefix(key) for key in keys - known}
    candidates = _candidates(prefixes)
    found = []
    for line in chunk:
        numbers = stated[line.id]
        if not numbers or all(key in known for key in numbers):
            continue
        near = {code for key in numbers if key not in known for code in candidates.get(_prefix(key), ())}
        if not near:
            continue
        for suggestion in suggestions(oe_text=line.oe_text or "", oem_column=line.oem_code or "", candidates=near):
            found.append((line, suggestion))
    return found


def _known(keys: set[str]) -> set[str]:
    known: set[str] = set()
    ordered = sorted(keys)
    for start in range(0, len(ordered), 500):
        query = sa.select(KNOWN.c.search_code).where(KNOWN.c.search_code.in_(ordered[start : start + 500])).distinct()
        known.update(db.session.scalars(query))
    return known


def _candidates(prefixes: Iterable[str]) -> dict[str, set[str]]:
    """The known codes by the prefix they start with: one bounded query per batch of prefixes."""
    found: dict[str, set[str]] = {}
    ordered = sorted(prefixes)
    for start in range(0, len(ordered), PREFIX_BATCH):
        batch = ordered[start : start + PREFIX_BATCH]
        query = (
            sa.select(KNOWN.c.search_code)
            .where(sa.or_(*(KNOWN.c.search_code.like(f"{prefix}%") for prefix in batch)))
            .distinct()
            .limit(CANDIDATES_PER_QUERY)
        )
        lengths, asked = {len(prefix) for prefix in batch}, set(batch)
        for code in db.session.scalars(query):
            for length in lengths:
                if code[:length] in asked:
                    found.setdefault(code[:length], set()).add(code)
    return found


def pending_of(supplier_id: int) -> list[tuple[SupplierSuggestion, SupplierLine | None]]:
    """The supplier's pending suggestions, best first, each with its line in the list in use (None when gone)."""
    pending = db.session.scalars(
        sa.select(SupplierSuggestion)
        .where(SupplierSuggestion.supplier_id == supplier_id, SupplierSuggestion.status == "pending")
        .order_by(SupplierSuggestion.score.desc(), SupplierSuggestion.id)
        .limit(MAX_SUGGESTIONS)
    ).all()
    lines = _lines_in_use(supplier_id, {suggestion.line_key for suggestion in pending})
    return [(suggestion, lines.get(suggestion.line_key)) for suggestion in pending]


def _lines_in_use(supplier_id: int, line_keys: set[str]) -> dict[str, SupplierLine]:
    if not line_keys:
        return {}
    active = sa.select(SupplierActive.import_id).where(SupplierActive.supplier_id == supplier_id).scalar_subquery()
    query = (
        sa.select(SupplierNumber.key, SupplierLine)
        .join(SupplierLine, SupplierLine.id == SupplierNumber.line_id)
        .where(SupplierNumber.import_id == active, SupplierNumber.kind == "own", SupplierNumber.key.in_(line_keys))
        .order_by(SupplierLine.id)
    )
    lines: dict[str, SupplierLine] = {}
    for key, line in db.session.execute(query):
        lines.setdefault(key, line)
    return lines


def get_suggestion(supplier_id: int, suggestion_id: int) -> SupplierSuggestion:
    """A suggestion of the supplier (already the member's shop's), or 404."""
    suggestion = db.session.get(SupplierSuggestion, suggestion_id) if 0 < suggestion_id <= ID_MAX else None
    if suggestion is None or suggestion.supplier_id != supplier_id:
        raise ApiError("suggestion_not_found", _("This suggestion was not found."), 404)
    return suggestion


MAX_DECIDED_AT_ONCE = 500
DECISIONS = {"confirm": "confirmed", "reject": "rejected"}


def checked_decisions(raw_ids: object, raw_decision: object) -> tuple[list[int], str]:
    """The suggestion ids (1 to MAX_DECIDED_AT_ONCE of them, as numbers or digits) and the status a decision gives
    them (`confirm` or `reject`); 400 otherwise."""
    if raw_decision not in DECISIONS:
        raise ApiError("invalid_decision", _("Choose to confirm or to reject the suggestions."), 400)
    items = raw_ids if isinstance(raw_ids, list) else None
    ids = [_id_of(item) for item in items] if items else []
    if not ids or len(ids) > MAX_DECIDED_AT_ONCE or None in ids:
        raise ApiError(
            "invalid_suggestions",
            _("Choose from 1 to %(max)d suggestions.", max=MAX_DECIDED_AT_ONCE),
            400,
        )
    return sorted(set(ids)), DECISIONS[raw_decision]


def _id_of(item: object) -> int | None:
    if isinstance(item, str) and item.isascii() and item.isdigit() and len(item) <= 10:
        item = int(item)
    return item if type(item) is int and 0 < item <= ID_MAX else None


def decide_many(supplier_id: int, ids: list[int], member_id: uuid.UUID, status: str) -> int:
    """Decide the supplier's pending suggestions among `ids` at once (committed): how many were. Another supplier's,
    unknown and already decided ones are passed over. Confirmed ones' lines answer to their numbers at once."""
    decided = db.session.execute(
        sa.update(SupplierSuggestion)
        .where(
            SupplierSuggestion.supplier_id == supplier_id,
            SupplierSuggestion.id.in_(ids),
            SupplierSuggestion.status == "pending",
        )
        .values(status=status, decided_by=member_id, decided_at=utcnow())
        .execution_options(synchronize_session=False)
    ).rowcount
    if decided and status == "confirmed":
        active = db.session.get(SupplierActive, supplier_id)
        if active is not None:
            apply_confirmed(active.import_id, supplier_id)
    db.session.commit()
    return decided


def decide(suggestion: SupplierSuggestion, member_id: uuid.UUID, status: str) -> SupplierSuggestion:
    """Confirm or reject a pending suggestion (committed); a decided one cannot be decided again (409). A confirmed
    one's line in the list in use answers to the known number at once."""
    if suggestion.status != "pending":
        raise ApiError("suggestion_decided", _("This suggestion was already decided."), 409)
    suggestion.status = status
    suggestion.decided_by = member_id
    suggestion.decided_at = utcnow()
    db.session.flush()
    if status == "confirmed":
        active = db.session.get(SupplierActive, suggestion.supplier_id)
        if active is not None:
            apply_confirmed(active.import_id, suggestion.supplier_id)
    db.session.commit()
    return suggestion
