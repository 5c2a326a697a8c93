"""Writing the equivalents graph: links recorded in bulk and idempotently (one statement per batch), a source's links
replaced by its new data (a stock list by the next one), a member's confirmation, a shop's rejection and its undoing.

Services add and flush, never commit (the request commits; a job commits itself).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import islice
from typing import Any

import sqlalchemy as sa
from flask_babel import gettext as _
from sqlalchemy.dialects import postgresql, sqlite

from app.accounts.models import User
from app.core.copy_in import copy_rows
from app.core.db import utcnow
from app.core.errors import ApiError
from app.core.text import fold_code
from app.core.validation import ID_MAX
from app.equivalents.models import (
    BRAND_LENGTH,
    DETAIL_LENGTH,
    KEY_LENGTH,
    LINK_KINDS,
    LINK_SOURCES,
    EquivalentLink,
    EquivalentRejection,
)
from app.extensions import db

LINKS = EquivalentLink.__table__
INCOMING = "equivalent_link_incoming"  # PostgreSQL's temporary table of a bulk write (_record_by_copy)
COPIED_COLUMNS = (
    "shop_id", "a_key", "a_code", "a_brand", "b_key", "b_code", "b_brand", "kind", "source", "detail", "user_id",
    "created_at",
)  # fmt: skip
BATCH = 5000


@dataclass(frozen=True)
class NumberLink:
    """A link to record, numbers as written: `a` is `kind` of `b` (same part, replaces b, part of b)."""

    a_code: str
    b_code: str
    kind: str = "same"
    a_brand: str | None = None
    b_brand: str | None = None


def link_key(code: str) -> str:
    """A number's key in the graph (fold_code); empty when it has no letter or digit or is too long to be one."""
    key = fold_code(code)
    return key if len(key) <= KEY_LENGTH else ""


def pair_key(a_key: str, b_key: str, kind: str) -> tuple[str, str, str]:
    """The link's identity as a rejection names it: a `same` link reads the same either way round."""
    if kind == "same" and b_key < a_key:
        a_key, b_key = b_key, a_key
    return a_key, b_key, kind


def _brand(brand: str | None) -> str | None:
    return (brand or "").strip()[:BRAND_LENGTH] or None


def _row(link: NumberLink, shop_id: uuid.UUID | None, source: str, detail: str, user_id: uuid.UUID | None):
    a_key, b_key = link_key(link.a_code), link_key(link.b_code)
    if not a_key or not b_key or a_key == b_key or link.kind not in LINK_KINDS:
        return None
    a = (a_key, link.a_code.strip()[:KEY_LENGTH], _brand(link.a_brand))
    b = (b_key, link.b_code.strip()[:KEY_LENGTH], _brand(link.b_brand))
    if link.kind == "same" and b_key < a_key:
        a, b = b, a  # stored one way round, so the index sees it once
    return {
        "shop_id": shop_id,
        "a_key": a[0],
        "a_code": a[1],
        "a_brand": a[2],
        "b_key": b[0],
        "b_code": b[1],
        "b_brand": b[2],
        "kind": link.kind,
        "source": source,
        "detail": detail[:DETAIL_LENGTH],
        "user_id": user_id,
        "created_at": utcnow(),
    }


def _batches(rows: Iterable[dict[str, Any] | None]) -> Iterator[list[dict[str, Any]]]:
    """Batches of distinct rows (the same link twice in one batch is one row)."""
    kept = (row for row in rows if row is not None)
    while batch := list(islice(kept, BATCH)):
        distinct = {(row["a_key"], row["b_key"], row["kind"]): row for row in batch}
        yield list(distinct.values())


def _insert_ignoring_duplicates() -> sa.Insert:
    dialect = db.session.get_bind().dialect.name
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    return insert(LINKS).on_conflict_do_nothing()


def record_links(
    links: Iterable[NumberLink],
    *,
    shop_id: uuid.UUID | None,
    source: str,
    detail: str = "",
    user_id: uuid.UUID | None = None,
) -> int:
    """Record links from one source (the shop's own when `shop_id` is given, else everyone's): one statement per
    batch, a link already recorded from the same source and detail kept as it is. Numbers without a key are
    skipped. Returns the links given that could be recorded."""
    if source not in LINK_SOURCES:
        raise ValueError(source)
    rows = (_row(link, shop_id, source, detail, user_id) for link in links)
    if db.session.get_bind().dialect.name == "postgresql":
        return _record_by_copy(rows)
    statement = _insert_ignoring_duplicates()
    count = 0
    for batch in _batches(rows):
        db.session.execute(statement, batch)
        count += len(batch)
    return count


def _record_by_copy(rows: Iterable[dict[str, Any] | None]) -> int:
    """PostgreSQL: the batches COPYed into a temporary table, then one INSERT ... SELECT that skips the links already
    recorded (a 300,000-link list wrote in 142 s by multi-row INSERT ... ON CONFLICT)."""
    connection = db.session.connection()
    connection.exec_driver_sql(
        f"CREATE TEMPORARY TABLE IF NOT EXISTS {INCOMING} (LIKE {LINKS.name} INCLUDING DEFAULTS) ON COMMIT DROP"
    )
    connection.exec_driver_sql(f"TRUNCATE {INCOMING}")
    count = 0
    for batch in _batches(rows):
        copy_rows(connection, INCOMING, COPIED_COLUMNS, batch)
        count += len(batch)
    incoming = sa.table(INCOMING, *(sa.column(name) for name in COPIED_COLUMNS))
    moved = postgresql.insert(LINKS).from_select(list(COPIED_COLUMNS), sa.select(*incoming.c))
    connection.execute(moved.on_conflict_do_nothing())
    return count


def replace_source(links: Iterable[NumberLink], *, shop_id: uuid.UUID | None, source: str, detail: str) -> int:
    """The source's new data replaces the links its previous data made (e.g. a branch's new stock list)."""
    owner = LINKS.c.shop_id.is_(None) if shop_id is None else LINKS.c.shop_id == shop_id
    db.session.execute(sa.delete(LINKS).where(owner, LINKS.c.source == source, LINKS.c.detail == detail))
    return record_links(links, shop_id=shop_id, source=source, detail=detail)


def visible_to(shop_id: uuid.UUID | sa.BindParameter[Any] | None) -> sa.ColumnElement[bool]:
    """The links a shop sees: everyone's and its own (`shop_id` a value or a bound parameter)."""
    if shop_id is None:
        return EquivalentLink.shop_id.is_(None)
    return sa.or_(EquivalentLink.shop_id.is_(None), EquivalentLink.shop_id == shop_id)


def _not_found() -> ApiError:
    return ApiError("link_not_found", _("This equivalent link was not found."), 404)


def get_link(member: User, link_id: int) -> EquivalentLink:
    """A link the member's shop sees, or 404 (another shop's link is not found, as an unknown one)."""
    if not 0 < link_id <= ID_MAX:
        raise _not_found()
    query = sa.select(EquivalentLink).where(EquivalentLink.id == link_id, visible_to(member.shop_id))
    link = db.session.scalar(query)
    if link is None:
        raise _not_found()
    return link


def checked_number(raw: Any, label: str) -> str:
    """A number typed by a person: text with a key, not too long; else a refusal naming the field."""
    if not isinstance(raw, str) or not raw.strip():
        raise ApiError("invalid_number", _("%(field)s must be a part number.", field=label), 400)
    if len(raw) > KEY_LENGTH or not link_key(raw):
        raise ApiError(
            "invalid_number",
            _("%(field)s must be a part number of at most %(max)d letters and digits.", field=label, max=KEY_LENGTH),
            400,
        )
    return raw.strip()


def confirm(member: User, link: NumberLink) -> EquivalentLink:
    """A member confirms a link for their shop (once: a second confirmation is the same link); a rejection of the
    same link by the shop is lifted."""
    row = _row(link, member.shop_id, "member", "", None)
    if row is None:
        raise ApiError("invalid_link", _("A number cannot be linked to itself."), 400)
    record_links([link], shop_id=member.shop_id, source="member", user_id=member.id)
    _lift_rejection(member.shop_id, row["a_key"], row["b_key"], row["kind"])
    query = sa.select(EquivalentLink).where(
        EquivalentLink.shop_id == member.shop_id,
        EquivalentLink.source == "member",
        EquivalentLink.detail == "",
        EquivalentLink.a_key == row["a_key"],
        EquivalentLink.b_key == row["b_key"],
        EquivalentLink.kind == row["kind"],
    )
    return db.session.scalars(query).one()


def _lift_rejection(shop_id: uuid.UUID, a_key: str, b_key: str, kind: str) -> None:
    a_key, b_key, kind = pair_key(a_key, b_key, kind)
    db.session.execute(
        sa.delete(EquivalentRejection).where(
            EquivalentRejection.shop_id == shop_id,
            EquivalentRejection.a_key == a_key,
            EquivalentRejection.b_key == b_key,
            EquivalentRejection.kind == kind,
        )
    )


def reject(member: User, link: EquivalentLink) -> None:
    """The member's shop rejects the link for itself (whichever source brings it); again is the same."""
    a_key, b_key, kind = pair_key(link.a_key, link.b_key, link.kind)
    if db.session.get(EquivalentRejection, (member.shop_id, a_key, b_key, kind)) is None:
        db.session.add(
            EquivalentRejection(shop_id=member.shop_id, a_key=a_key, b_key=b_key, kind=kind, user_id=member.id)
        )
        db.session.flush()


def unreject(member: User, link: EquivalentLink) -> None:
    """The member's shop takes back its rejection of the link."""
    _lift_rejection(member.shop_id, link.a_key, link.b_key, link.kind)


def checked_link(data: dict[str, Any]) -> NumberLink:
    """The link a member asks to confirm (`a`, `b`, `type`, brands optional), or a refusal naming the field."""
    kind = data.get("type", "same")
    if kind not in LINK_KINDS:
        raise ApiError("invalid_type", _("The link type must be same, replaces or part_of."), 400)
    brands = [data.get(name) for name in ("aBrand", "bBrand")]
    if any(brand is not None and (not isinstance(brand, str) or len(brand) > BRAND_LENGTH) for brand in brands):
        raise ApiError("invalid_brand", _("A brand must be text of at most %(max)d characters.", max=BRAND_LENGTH))
    return NumberLink(
        checked_number(data.get("a"), _("The first number")),
        checked_number(data.get("b"), _("The second number")),
        kind,
        *brands,
    )


def link_shown(link: EquivalentLink, rejected: bool = False) -> dict[str, Any]:
    """A link as the API answers a change to it."""
    return {"id": link.id, "a": link.a_code, "b": link.b_code, "type": link.kind, "rejected": rejected}
