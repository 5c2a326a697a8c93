"""Who did what in a shop: `record` writes an entry (member changes, invitations and branches here; quotes sent and
list imports by their domains), `entries` reads them filtered, `purge` drops those past 12 months.

A domain whose own table already records the act registers it as an `activity_source` instead of writing a second
row: the decodes are the query log's rows (vehicles), read here beside the entries, so a decode pays for no
extra write."""

from __future__ import annotations

import csv
import io
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

import sqlalchemy as sa
from flask_babel import gettext as _

from app.accounts.models import User
from app.core.db import utcnow
from app.extensions import db
from app.shops.labels import kind_label
from app.shops.models import Branch, ShopActivity

KEPT_FOR = timedelta(days=365)
PAGE_SIZE = 50
DETAIL_LENGTH = 300
# The kinds recorded so far; other domains add theirs (`decode`, `quote_sent`, `list_import`) by recording them.
KINDS = (
    "member_joined",
    "member_role",
    "member_removed",
    "invitation_sent",
    "invitation_resent",
    "invitation_revoked",
    "branch_added",
    "branch_changed",
    "branch_deleted",
    "decode",
    "quote_sent",
    "list_import",
)


def record(user: User, kind: str, detail: str = "") -> ShopActivity:
    """Note that `user` did `kind` (with a short `detail`) in their shop, in the branch they work in."""
    entry = ShopActivity(
        shop_id=user.shop_id, user_id=user.id, branch_id=user.branch_id, kind=kind[:40], detail=detail[:DETAIL_LENGTH]
    )
    db.session.add(entry)
    db.session.flush()
    return entry


@dataclass(frozen=True)
class ActivityFilter:
    member_id: uuid.UUID | None = None
    kind: str | None = None
    branch_id: int | None = None
    since: date | None = None
    until: date | None = None


# `source(shop_id, since)`: a SELECT of the shop's entries of one kind since that time, with the columns of ENTRY.
ActivitySource = Callable[[uuid.UUID, datetime], sa.Select]
ENTRY = ("id", "user_id", "branch_id", "kind", "detail", "created_at")
_sources: list[ActivitySource] = []


def activity_source(source: ActivitySource) -> ActivitySource:
    """Register `source` (a domain above this one, which shops may not import, adds its kind of entry)."""
    _sources.append(source)
    return source


def _all_entries(shop_id: uuid.UUID) -> sa.Subquery:
    since = utcnow() - KEPT_FOR
    own = sa.select(*(getattr(ShopActivity, column) for column in ENTRY)).where(
        ShopActivity.shop_id == shop_id, ShopActivity.created_at >= since
    )
    return sa.union_all(own, *(source(shop_id, since) for source in _sources)).subquery("entry")


def _query(shop_id: uuid.UUID, wanted: ActivityFilter) -> sa.Select:
    entry = _all_entries(shop_id)
    query = (
        sa.select(entry, User.name.label("member_name"), Branch.name.label("branch_name"))
        .outerjoin(User, User.id == entry.c.user_id)
        .outerjoin(Branch, sa.and_(Branch.id == entry.c.branch_id, Branch.shop_id == shop_id))
        .order_by(entry.c.created_at.desc(), entry.c.id.desc())
    )
    if wanted.member_id is not None:
        query = query.where(entry.c.user_id == wanted.member_id)
    if wanted.kind:
        query = query.where(entry.c.kind == wanted.kind)
    if wanted.branch_id is not None:
        query = query.where(entry.c.branch_id == wanted.branch_id)
    if wanted.since is not None:
        query = query.where(entry.c.created_at >= datetime.combine(wanted.since, time.min, tzinfo=utcnow().tzinfo))
    if wanted.until is not None:
        end = datetime.combine(wanted.until + timedelta(days=1), time.min, tzinfo=utcnow().tzinfo)
        query = query.where(entry.c.created_at < end)
    return query


def _shape(row: sa.Row) -> dict:
    return {
        "id": row.id,
        "memberId": str(row.user_id) if row.user_id else None,
        "memberName": row.member_name,
        "branchId": row.branch_id,
        "branchName": row.branch_name,
        "kind": row.kind,
        "detail": row.detail,
        "createdAt": row.created_at.isoformat(),
    }


def entries(shop_id: uuid.UUID, wanted: ActivityFilter, page: int = 1) -> tuple[list[dict], bool]:
    """One page of the shop's entries, newest first, and whether there are more."""
    rows = db.session.execute(_query(shop_id, wanted).offset((page - 1) * PAGE_SIZE).limit(PAGE_SIZE + 1)).all()
    return [_shape(row) for row in rows[:PAGE_SIZE]], len(rows) > PAGE_SIZE


CSV_COLUMNS = ("createdAt", "memberName", "branchName", "kind", "detail")
CSV_DISPOSITION = 'attachment; filename="dukkan-hareketleri.csv"'


def as_csv(shop_id: uuid.UUID, wanted: ActivityFilter) -> str:
    """Every entry the filter selects, as CSV with a BOM (Excel reads it as UTF-8), its kinds named in the reader's
    language."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow((_("Time"), _("Member"), _("Branch"), _("Kind"), _("Detail")))
    for row in db.session.execute(_query(shop_id, wanted)):
        shaped = _shape(row) | {"kind": kind_label(row.kind)}
        writer.writerow([_safe_cell(shaped[column] or "") for column in CSV_COLUMNS])
    return "\ufeff" + out.getvalue()


def _safe_cell(value: str) -> str:
    """A cell a spreadsheet will not run as a formula."""
    return "'" + value if value[:1] in ("=", "+", "-", "@", "\t", "\r") else value


def purge(now: datetime | None = None) -> int:
    """Delete the entries older than 12 months; how many went."""
    cutoff = (now or utcnow()) - KEPT_FOR
    return db.session.execute(sa.delete(ShopActivity).where(ShopActivity.created_at < cutoff)).rowcount
