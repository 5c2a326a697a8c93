"""Numbers matched against the dealer's list in use, as a clerk types them (`app.core.text.fold_code`: spaces,
dashes, dots and case ignored), and the current number at the end of a replacement chain.

`shelf_for` answers a whole page of numbers in one query (the list's numbers of those keys, with their rows), then
one query per step of the replacement chains of every hit at once. The dealer's list in use is read once per request;
the catalog reads it for free beside its rows (`active_import_column`) and hands it over, so a dealer without a list
costs the catalog no query at all.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, ClassVar

import sqlalchemy as sa
from flask import g, has_request_context
from flask_babel import gettext as _
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.orm import aliased
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.visitors import InternalTraversal

from app.core.errors import ApiError
from app.core.text import fold_code
from app.extensions import db
from app.shelf.models import ShelfActive, ShelfItem, ShelfNumber

MAX_NUMBER_LENGTH = 100  # as typed, separators included
MAX_KEY_LENGTH = 60  # letters and digits: the length of shelf_number.key
MAX_CHAIN_STEPS = 10
KEYS_PER_QUERY = 500  # below every backend's limit of bound parameters

# How a list row answers to a number, best first: its OEM number, the dealer's own code, one of its aftermarket
# numbers, or "replaces": the row is replaced by that number (the row's part is the older one the number replaces).
MATCH_KINDS = ("oem", "own", "aftermarket", "replaces")
_MATCH_OF_NUMBER_KIND = {"oem": "oem", "own": "own", "aftermarket": "aftermarket", "successor": "replaces"}
_RANK = {kind: rank for rank, kind in enumerate(MATCH_KINDS)}
# A replacement chain steps to the row that carries the next number as its own (not to a row it replaces).
_CHAIN_RANK = {kind: rank for kind, rank in _RANK.items() if kind in {"oem", "own", "aftermarket"}}

_REQUEST_CACHE = "shelf_active_imports"


@dataclass(frozen=True)
class ShelfRow:
    """A row of the dealer's list, as imported."""

    line: int
    oem_code: str | None
    own_code: str | None
    brand: str | None
    name: str | None
    price: Decimal | None
    currency: str
    stock: int | None
    replaced_by: str | None


@dataclass(frozen=True)
class Current:
    """The end of a replacement chain: its number, and the list's row carrying it (None: not on the list)."""

    number: str
    row: ShelfRow | None


@dataclass(frozen=True)
class ShelfHit:
    """The list's best row for a number: how it matched (`kind`, one of MATCH_KINDS) and by which `number` (the
    number as asked; for "replaces", the replaced row's own number), and the current number when the row is
    replaced (None when it is not)."""

    row: ShelfRow
    number: str
    kind: str
    current: Current | None


# --- the list in use ----------------------------------------------------------------------------------------------


def active_import_column(user_id: sa.ColumnElement[Any] | None = None) -> sa.Label[int | None]:
    """The dealer's list in use (its import id, null for none) as a column: an uncorrelated subquery, run once, that
    a statement of the catalog reads beside its rows. `user_id` defaults to the bound parameter `user_id`."""
    user = user_id if user_id is not None else sa.bindparam("user_id")
    return sa.select(ShelfActive.import_id).where(ShelfActive.user_id == user).scalar_subquery().label("shelf_import")


def active_import(user_id: uuid.UUID | None) -> int | None:
    """The import id of the dealer's list in use, read once per request."""
    if user_id is None:
        return None
    cache = _request_cache()
    if user_id not in cache:
        cache[user_id] = db.session.scalar(sa.select(ShelfActive.import_id).where(ShelfActive.user_id == user_id))
    return cache[user_id]


def remember_active_import(user_id: uuid.UUID | None, import_id: int | None) -> None:
    """The list in use as a statement read it beside its own rows (`active_import_column`): no need to ask again."""
    if user_id is not None:
        _request_cache()[user_id] = import_id


def _request_cache() -> dict[uuid.UUID, int | None]:
    """Per request; outside one (a job, a shell) nothing is kept, since the list in use may change meanwhile."""
    if not has_request_context():
        return {}
    return g.setdefault(_REQUEST_CACHE, {})


# --- matching -----------------------------------------------------------------------------------------------------

_UNKNOWN: Any = object()


def shelf_for(
    user_id: uuid.UUID | None, numbers: Iterable[str | None], *, import_id: int | None = _UNKNOWN
) -> dict[str, ShelfHit]:
    """The hits of `numbers` on the dealer's list in use, by each number's search key (fold_code); numbers not on
    it are left out. `import_id`: the list in use when the caller has read it already (None: no list)."""
    asked: dict[str, str] = {}
    for number in numbers:
        key = fold_code(number) if number else ""
        if key and len(key) <= MAX_KEY_LENGTH:
            asked.setdefault(key, number)
    if import_id is _UNKNOWN:
        import_id = active_import(user_id) if asked else None
    else:
        remember_active_import(user_id, import_id)
    if import_id is None or not asked:
        return {}
    best = _best_rows(_numbers_of(import_id, asked), _RANK)
    currents = _currents(import_id, best)
    return {
        key: ShelfHit(row, _matched_number(kind, row, asked[key]), kind, currents.get(key))
        for key, (kind, row) in best.items()
    }


def _matched_number(kind: str, row: ShelfRow, asked: str) -> str:
    if kind == "replaces":
        return row.oem_code or row.own_code or asked
    return asked


def _best_rows(found: list[tuple[str, str, ShelfRow]], ranks: dict[str, int]) -> dict[str, tuple[str, ShelfRow]]:
    """Per key, the row that answers best: by the kind of match, then a row with stock, then the list's order."""
    best: dict[str, tuple[tuple[int, bool, int], str, ShelfRow]] = {}
    for key, kind, row in found:
        if kind not in ranks:
            continue
        order = (ranks[kind], not row.stock, row.line)
        if key not in best or order < best[key][0]:
            best[key] = (order, kind, row)
    return {key: (kind, row) for key, (_order, kind, row) in best.items()}


@dataclass
class _Chain:
    number: str  # the number the chain has reached, as the list wrote it
    key: str
    row: ShelfRow | None
    seen: set[str]


def _currents(import_id: int, best: dict[str, tuple[str, ShelfRow]]) -> dict[str, Current]:
    """Each replaced hit's current number: its "replaced by" followed through the list (A -> B -> C), one query per
    step for every chain at once, until a number the list does not replace, one seen before (a loop), or
    MAX_CHAIN_STEPS."""
    chains: dict[str, _Chain] = {}
    for key, (kind, row) in best.items():
        successor = fold_code(row.replaced_by) if row.replaced_by else ""
        seen = {key, *(fold_code(code) for code in (row.oem_code, row.own_code) if code)}
        if kind != "replaces" and successor and successor not in seen:
            chains[key] = _Chain(row.replaced_by or "", successor, None, seen | {successor})
    moving = dict(chains)
    for _step in range(MAX_CHAIN_STEPS):
        if not moving:
            break
        found = _best_rows(_numbers_of(import_id, {chain.key: chain.number for chain in moving.values()}), _CHAIN_RANK)
        moving = {key: chain for key, chain in moving.items() if _advance(chain, found.get(chain.key))}
    return {key: Current(chain.number, chain.row) for key, chain in chains.items()}


def _advance(chain: _Chain, found: tuple[str, ShelfRow] | None) -> bool:
    """Move the chain to its number's row, and on to that row's successor; whether it has a next number to read."""
    if found is None:
        return False
    _kind, row = found
    chain.row = row
    successor = fold_code(row.replaced_by) if row.replaced_by else ""
    if not successor or successor in chain.seen:
        return False
    chain.number, chain.key, chain.row = row.replaced_by or "", successor, None
    chain.seen.add(successor)
    return True


def _numbers_of(import_id: int, asked: dict[str, str]) -> list[tuple[str, str, ShelfRow]]:
    """(key, match kind, row) for every number of the list among the keys `asked`."""
    keys = sorted(asked)
    found = []
    connection = db.session.connection()
    for start in range(0, len(keys), KEYS_PER_QUERY):
        parameters = {"import_id": import_id, "keys": keys[start : start + KEYS_PER_QUERY]}
        for key, kind, *columns in connection.execute(_NUMBERS, parameters):
            found.append((key, _MATCH_OF_NUMBER_KIND[kind], ShelfRow(*columns)))
    return found


_ROW_COLUMNS = (
    ShelfItem.line,
    ShelfItem.oem_code,
    ShelfItem.own_code,
    ShelfItem.brand,
    ShelfItem.name,
    ShelfItem.price,
    ShelfItem.currency,
    ShelfItem.stock,
    ShelfItem.replaced_by,
)
_NUMBERS = (
    sa.select(ShelfNumber.key, ShelfNumber.kind, *_ROW_COLUMNS)
    .join(ShelfItem, ShelfItem.id == ShelfNumber.item_id)
    .where(ShelfNumber.import_id == sa.bindparam("import_id"))
    .where(ShelfNumber.key.in_(sa.bindparam("keys", expanding=True)))
)


# --- numbers typed into a search ----------------------------------------------------------------------------------


def keys_answering(code: Any, user_id: Any) -> sa.Select[tuple[str]]:
    """The catalog keys a typed code (a search key, or a bound parameter holding one) stands for on the dealer's
    list in use: every OEM, aftermarket and successor number of the rows whose own code or aftermarket number it is."""
    asked = aliased(ShelfNumber)
    return (
        sa.select(ShelfNumber.key)
        .select_from(asked)
        .join(ShelfActive, sa.and_(ShelfActive.import_id == asked.import_id, ShelfActive.user_id == user_id))
        .join(ShelfNumber, ShelfNumber.item_id == asked.item_id)
        .where(asked.key == code, asked.kind.in_(("own", "aftermarket")))
        .where(ShelfNumber.kind.in_(("oem", "aftermarket", "successor")))
    )


def stands_for(column: sa.ColumnElement[str], code: Any, user_id: Any) -> sa.ColumnElement[bool]:
    """Whether `column` (a catalog search key) is one the typed `code` stands for on the dealer's list in use
    (`keys_answering`): a condition inside the catalog's own statement, so a list costs no statement more."""
    return _AmongKeys(column, keys_answering(code, user_id).scalar_subquery())


class _AmongKeys(sa.ColumnElement[bool]):
    """`column IN (subquery)`; on PostgreSQL `column = ANY(ARRAY(subquery))`: the subquery then runs once, before
    the scan (an init plan), and its keys are an index condition, so the condition can sit in an OR beside the
    catalog's other conditions (a bitmap OR) instead of filtering every row of the table."""

    inherit_cache = True
    type = sa.Boolean()
    _is_implicitly_boolean = True  # a condition as it is: no "= 1" where a backend has no boolean type
    _traverse_internals: ClassVar = [
        ("column", InternalTraversal.dp_clauseelement),
        ("keys", InternalTraversal.dp_clauseelement),
    ]

    def __init__(self, column: sa.ColumnElement[str], keys: sa.ScalarSelect[str]) -> None:
        self.column = column
        self.keys = keys


@compiles(_AmongKeys)
def _among_keys(element: _AmongKeys, compiler: SQLCompiler, **kw: Any) -> str:
    return compiler.process(element.column.in_(element.keys), **kw)


@compiles(_AmongKeys, "postgresql")
def _among_keys_postgresql(element: _AmongKeys, compiler: SQLCompiler, **kw: Any) -> str:
    return f"{compiler.process(element.column, **kw)} = ANY(ARRAY{compiler.process(element.keys, **kw)})"


def parse_number(raw: str | None) -> tuple[str, str]:
    """A typed part number and its search key; refused when empty, too long or without a letter or digit."""
    number = " ".join((raw or "").split())
    key = fold_code(number)
    if len(number) > MAX_NUMBER_LENGTH or len(key) > MAX_KEY_LENGTH:
        message = _("A part number has at most %(max)d letters and digits.", max=MAX_KEY_LENGTH)
        raise ApiError("invalid_number", message, 400)
    if not key:
        raise ApiError("invalid_number", _("Type a part number: its letters and digits, with or without spaces."), 400)
    return number, key


# --- as the pages and the API show it -----------------------------------------------------------------------------


def hit_view(hit: ShelfHit) -> dict[str, Any]:
    """A hit as a part view's `shelf` and the lookup API give it (prices as decimal strings)."""
    row = hit.row
    current = hit.current
    return {
        "stock": row.stock,
        "price": _price(row.price),
        "currency": row.currency,
        "ownCode": row.own_code,
        "oemCode": row.oem_code,
        "brand": row.brand,
        "name": row.name,
        "matched": {"number": hit.number, "kind": hit.kind},
        "current": _current_view(current) if current is not None else None,
    }


def _current_view(current: Current) -> dict[str, Any]:
    row = current.row
    return {
        "number": current.number,
        "stock": row.stock if row else None,
        "price": _price(row.price) if row else None,
        "currency": row.currency if row else None,
        "ownCode": row.own_code if row else None,
    }


def _price(price: Decimal | None) -> str | None:
    return None if price is None else str(price.quantize(Decimal("0.01")))
