"""The admin dashboard's figures, for a date range (both ends included, whole UTC days): users, the shops with their
members and seats in use, subscriptions, MRR, trial-to-paid conversion, decodes per day by result kind, each source's
success rate and p50/p95 latency (from query_log_insights), refused decodes by reason, the unrecognised WMIs, the
catalogs dealers ask for and the brands they were refused, and the prefetch backlog.

Each figure is one aggregate query (GROUP BY in the database, never rows to Python), so the JSON stays within a small
factor of its bare SQL on a large decode log (bench/dashboard.py). Percentiles are the database's where it has them
(PostgreSQL's percentile_disc, the nearest rank); on SQLite the same rank is read from the ordered values.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from typing import Any

import sqlalchemy as sa
from flask_babel import gettext as _
from redis.exceptions import RedisError

from app.accounts.models import User
from app.admin.shops import services as shops
from app.billing.models import Brand, Payment, Plan, Subscription
from app.core.db import utcnow
from app.core.errors import ApiError
from app.extensions import db, queues
from app.vehicles.models import VinRequest
from app.vehicles.refusals import REFUSED
from app.vehicles.writes import ERROR_LOG_TEXT

DEFAULT_DAYS = 30
MAX_DAYS = 366
TOP = 10
SOURCES = ("catapi", "scrape", "portal", "vin_api")
INSIGHTS = sa.table(
    "query_log_insights",
    sa.column("created_at"),
    sa.column("vin"),
    sa.column("source"),
    sa.column("success"),
    sa.column("error_message"),
    sa.column("result_kind"),
    sa.column("brand_id"),
    *(sa.column(f"{source}_ms") for source in SOURCES),
)


def date_range(raw_from: str | None, raw_to: str | None) -> tuple[date, date]:
    """The range asked for (YYYY-MM-DD, both optional): the last DEFAULT_DAYS days by default, at most MAX_DAYS."""
    try:
        end = date.fromisoformat(raw_to) if raw_to else utcnow().date()
        start = date.fromisoformat(raw_from) if raw_from else end - timedelta(days=DEFAULT_DAYS - 1)
    except ValueError:
        raise ApiError("invalid_date", _("Dates are written YYYY-MM-DD."), 400) from None
    if start > end or (end - start).days >= MAX_DAYS:
        raise ApiError("invalid_range", _("Choose a range of 1 to %(max)d days.", max=MAX_DAYS), 400)
    return start, end


def figures(start: date, end: date) -> dict[str, Any]:
    since, until = datetime.combine(start, time.min), datetime.combine(end + timedelta(days=1), time.min)
    since, until = since.replace(tzinfo=utcnow().tzinfo), until.replace(tzinfo=utcnow().tzinfo)
    return {
        "from": start.isoformat(),
        "to": end.isoformat(),
        "users": _users(since, until),
        "shops": shops.counts(),
        "subscriptions": _subscriptions(),
        "conversion": _conversion(since, until),
        "decodes": _decodes(since, until),
        "sources": _sources(since, until),
        "demand": _demand(since, until),
        "prefetchBacklog": _backlog(),
    }


def _day(column: Any) -> Any:
    """The UTC day of a timestamp column, as text YYYY-MM-DD on both backends."""
    if db.session.get_bind().dialect.name == "postgresql":
        return sa.func.to_char(column, "YYYY-MM-DD")
    return sa.func.substr(column, 1, 10)


def _users(since: datetime, until: datetime) -> dict[str, Any]:
    by_status = dict(db.session.execute(sa.select(User.status, sa.func.count()).group_by(User.status)).all())
    verified = db.session.scalar(sa.select(sa.func.count()).select_from(User).where(User.email_verified))
    day = _day(User.created_at)
    per_day = db.session.execute(
        sa.select(day, sa.func.count())
        .where(User.created_at >= since, User.created_at < until)
        .group_by(day)
        .order_by(day)
    ).all()
    return {
        "total": sum(by_status.values()),
        "verified": verified,
        "byStatus": by_status,
        "newPerDay": [{"day": day, "count": count} for day, count in per_day],
    }


def _subscriptions() -> dict[str, Any]:
    now = utcnow()
    live = sa.and_(Subscription.status.in_(("trial", "active")), Subscription.end_date > now)
    rows = db.session.execute(
        sa.select(Subscription.status, Plan.key, Subscription.billing_period, sa.func.count(), Plan.monthly_price,
                  Plan.yearly_price)
        .join(Plan, Plan.id == Subscription.plan_id)
        .where(live)
        .group_by(Subscription.status, Plan.key, Subscription.billing_period, Plan.monthly_price, Plan.yearly_price)
    ).all()  # fmt: skip
    mrr = 0.0
    by_plan: dict[str, int] = {}
    counts = {"trial": 0, "active": 0}
    for status, plan, period, count, monthly, yearly in rows:
        counts[status] += count
        if status == "active":
            by_plan[f"{plan}/{period}"] = by_plan.get(f"{plan}/{period}", 0) + count
            mrr += count * (monthly if period == "monthly" else yearly / 12)
    return {**counts, "activeByPlan": by_plan, "mrrKurus": round(mrr)}


def _conversion(since: datetime, until: datetime) -> dict[str, Any]:
    """Of the users whose trial started in the range (a subscription started then that no payment paid for), how many
    have paid since (a completed payment, or one refunded later: they did pay)."""
    paid_subscription = sa.exists().where(Payment.subscription_id == Subscription.id)
    trial_users = (
        sa.select(Subscription.user_id)
        .where(Subscription.start_date >= since, Subscription.start_date < until, Subscription.user_id.is_not(None))
        .where(Subscription.status != "pending", ~paid_subscription)
        .distinct()
        .subquery()
    )
    trials = db.session.scalar(sa.select(sa.func.count()).select_from(trial_users))
    paid = db.session.scalar(
        sa.select(sa.func.count(sa.distinct(Payment.user_id))).where(
            Payment.user_id.in_(sa.select(trial_users.c.user_id)),
            Payment.status.in_(("completed", "refunded", "partially_refunded", "disputed")),
        )
    )
    return {"trials": trials, "paid": paid, "rate": round(paid / trials, 4) if trials else None}


def _decodes(since: datetime, until: datetime) -> dict[str, Any]:
    day = _day(INSIGHTS.c.created_at)
    kind = sa.func.coalesce(INSIGHTS.c.result_kind, "unknown")
    rows = db.session.execute(
        sa.select(day, kind, sa.func.count())
        .where(INSIGHTS.c.created_at >= since, INSIGHTS.c.created_at < until)
        .group_by(day, kind)
        .order_by(day)
    ).all()
    refused = db.session.execute(
        sa.select(INSIGHTS.c.error_message, sa.func.count())
        .where(INSIGHTS.c.created_at >= since, INSIGHTS.c.created_at < until, INSIGHTS.c.result_kind == REFUSED)
        .group_by(INSIGHTS.c.error_message)
        .order_by(sa.func.count().desc(), INSIGHTS.c.error_message)
    ).all()
    return {
        "perDay": [{"day": day, "resultKind": kind, "count": count} for day, kind, count in rows],
        "refused": [{"reason": reason, "count": count} for reason, count in refused],
    }


def _sources(since: datetime, until: datetime) -> list[dict[str, Any]]:
    in_range = sa.and_(INSIGHTS.c.created_at >= since, INSIGHTS.c.created_at < until)
    wins = dict(
        db.session.execute(
            sa.select(INSIGHTS.c.source, sa.func.count())
            # A refused decode names a source only when it found the car (the caller's plan did not cover it).
            .where(in_range, sa.or_(INSIGHTS.c.success.is_(True), INSIGHTS.c.result_kind == REFUSED))
            .group_by(INSIGHTS.c.source)
        ).all()
    )
    report = []
    for source in SOURCES:
        column = INSIGHTS.c[f"{source}_ms"]
        calls, p50, p95 = _latency(column, sa.and_(in_range, column.is_not(None)))
        report.append({
            "source": source,
            "calls": calls,
            "wins": wins.get(source, 0),
            "successRate": round(wins.get(source, 0) / calls, 4) if calls else None,
            "p50Ms": p50,
            "p95Ms": p95,
        })  # fmt: skip
    return report


def _latency(column: Any, where: Any) -> tuple[int, int | None, int | None]:
    if db.session.get_bind().dialect.name == "postgresql":
        calls, p50, p95 = db.session.execute(
            sa.select(
                sa.func.count(),
                sa.func.percentile_disc(0.5).within_group(column),
                sa.func.percentile_disc(0.95).within_group(column),
            ).where(where)
        ).one()
        return calls, _ms(p50), _ms(p95)
    calls = db.session.scalar(sa.select(sa.func.count()).where(where))
    return calls, _rank(column, where, calls, 0.5), _rank(column, where, calls, 0.95)


def _rank(column: Any, where: Any, count: int, share: float) -> int | None:
    """The value at a percentile's rank (nearest rank), read with one ordered, offset query."""
    if not count:
        return None
    offset = max(int(-(-share * count // 1)) - 1, 0)
    return _ms(db.session.scalar(sa.select(column).where(where).order_by(column).offset(offset).limit(1)))


def _ms(value: Any) -> int | None:
    return round(float(value)) if value is not None else None


def _demand(since: datetime, until: datetime) -> dict[str, Any]:
    wmi = sa.func.substr(INSIGHTS.c.vin, 1, 3)
    unrecognised = db.session.execute(
        sa.select(wmi, sa.func.count())
        .where(INSIGHTS.c.created_at >= since, INSIGHTS.c.created_at < until)
        .where(INSIGHTS.c.error_message == ERROR_LOG_TEXT["unknown"])
        .group_by(wmi)
        .order_by(sa.func.count().desc(), wmi)
        .limit(TOP)
    ).all()
    request_wmi = sa.func.substr(VinRequest.vin, 1, 3)
    requested = db.session.execute(
        sa.select(request_wmi, VinRequest.kind, sa.func.count())
        .where(VinRequest.created_at >= since, VinRequest.created_at < until)
        .group_by(request_wmi, VinRequest.kind)
        .order_by(sa.func.count().desc(), request_wmi)
        .limit(TOP)
    ).all()
    return {
        "unrecognisedWmis": [{"wmi": code, "count": count} for code, count in unrecognised],
        "vehicleRequests": [{"wmi": code, "kind": kind, "count": count} for code, kind, count in requested],
        "refusedBrands": _refused_brands(since, until),
    }


def _refused_brands(since: datetime, until: datetime) -> list[dict[str, Any]]:
    """The brands dealers were refused (outside their plan, or no subscription at all): demand for a plan."""
    rows = db.session.execute(
        sa.select(Brand.name, INSIGHTS.c.error_message, sa.func.count())
        .join(Brand, Brand.id == INSIGHTS.c.brand_id)
        .where(INSIGHTS.c.created_at >= since, INSIGHTS.c.created_at < until, INSIGHTS.c.result_kind == REFUSED)
        .group_by(Brand.name, INSIGHTS.c.error_message)
        .order_by(sa.func.count().desc(), Brand.name)
        .limit(TOP)
    ).all()
    return [{"brand": brand, "reason": reason, "count": count} for brand, reason, count in rows]


def _backlog() -> int | None:
    try:
        return queues.get("prefetch").count
    except RedisError:
        return None
