"""The hourly backfill scan: stored vehicles whose catalog is not complete get their walk queued again, a batch at a
time, so trees a dealer only half opened (or whose walk failed) fill in while nobody waits.

Limits (spec "Limits", catalog backfill): a batch of BATCH vehicles, oldest first; no scan while the prefetch queue
holds more than MAX_BACKLOG jobs; a source in cooldown (it refused us lately: `cool_down`) is skipped until the
cooldown ends; the portal is scraped only 09:00-18:00 Istanbul time; enabled only when CATALOG_BACKFILL_ENABLED says
so, or, when it is unset, on the production host (PRODUCTION_HOST is BASE_URL's host).

Deferral, not failure: a backfill job (`backfill-<vehicle>-<hour>`) that starts while dealers are busy (a decode in
the last TRAFFIC_QUIET seconds, app.sources.traffic) pauses its worker until they are quiet, and one for the portal
that starts outside the window is moved to the window's opening.
"""

from __future__ import annotations

import logging
import time as clock
from dataclasses import dataclass, field
from datetime import datetime, time, timedelta
from typing import Any
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

import sqlalchemy as sa
from flask import current_app
from redis.exceptions import RedisError

from app.catalog.models import Category
from app.core.db import utcnow
from app.extensions import db, queues, redis_store
from app.sources import traffic
from app.vehicles.models import Vehicle

log = logging.getLogger(__name__)

BATCH = 40
MAX_BACKLOG = 1000
ISTANBUL = ZoneInfo("Europe/Istanbul")
PORTAL_WINDOW = (time(9, 0), time(18, 0))
WINDOWED_SOURCES = ("portal",)
TREE_SOURCES = ("catapi", "scrape", "portal")
COOLDOWN_KEY = "backfill:cooldown:{source}"
TRUE, FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off")


@dataclass
class ScanReport:
    queued: list[int] = field(default_factory=list)
    skipped: str | None = None  # why nothing was looked at: disabled, backlog
    sources_skipped: dict[str, str] = field(default_factory=dict)  # source -> cooldown | out of hours

    def as_dict(self) -> dict[str, Any]:
        return {"queued": len(self.queued), "skipped": self.skipped, "sourcesSkipped": self.sources_skipped}


def enabled(config: dict[str, Any]) -> bool:
    setting = str(config.get("CATALOG_BACKFILL_ENABLED") or "").strip().lower()
    if setting in TRUE:
        return True
    if setting in FALSE:
        return False
    production = (config.get("PRODUCTION_HOST") or "").strip().lower()
    return bool(production) and urlsplit(config.get("BASE_URL") or "").hostname == production


def in_window(source: str, now: datetime) -> bool:
    if source not in WINDOWED_SOURCES:
        return True
    local = now.astimezone(ISTANBUL).time()
    return PORTAL_WINDOW[0] <= local < PORTAL_WINDOW[1]


def window_opens(now: datetime) -> datetime:
    """The next opening of the Istanbul window at or after `now` (in UTC)."""
    local = now.astimezone(ISTANBUL)
    opening = local.replace(hour=PORTAL_WINDOW[0].hour, minute=0, second=0, microsecond=0)
    if local.time() >= PORTAL_WINDOW[0]:
        opening += timedelta(days=1)
    return opening.astimezone(now.tzinfo)


def cool_down(source: str, seconds: int) -> None:
    """Keep the scan away from `source` for `seconds` (it refused us: rate limited, broken, a challenge page)."""
    try:
        redis_store.client.set(COOLDOWN_KEY.format(source=source), "1", ex=max(1, int(seconds)))
    except RedisError as error:
        log.warning("backfill cooldown of %s not recorded: %s", source, error)


def in_cooldown(source: str) -> bool:
    return bool(redis_store.client.exists(COOLDOWN_KEY.format(source=source)))


def cooldown_left(source: str) -> int:
    """Seconds until `source`'s cooldown ends (0 when it has none, or Redis cannot say)."""
    try:
        left = redis_store.client.ttl(COOLDOWN_KEY.format(source=source))
    except RedisError:
        return 0
    return max(int(left or 0), 0)


def scan(now: datetime | None = None) -> ScanReport:
    """Queue the walk of up to BATCH incomplete vehicles, within the limits above."""
    now = now or utcnow()
    report = ScanReport()
    if not enabled(current_app.config):
        report.skipped = "disabled"
        return report
    backlog = queues.get("prefetch").count
    if backlog > MAX_BACKLOG:
        report.skipped = "backlog"
        log.info("backfill scan skipped: %s prefetch jobs waiting", backlog)
        return report
    sources = _open_sources(now, report)
    for vehicle_id in _incomplete(sources):
        queues.enqueue("prefetch", JOB, vehicle_id, job_id=f"backfill-{vehicle_id}-{now:%Y%m%d%H}")
        report.queued.append(vehicle_id)
    db.session.rollback()
    return report


JOB = "app.catalog.tasks.backfill_vehicle"


def _open_sources(now: datetime, report: ScanReport) -> list[str]:
    open_now = []
    for source in TREE_SOURCES:
        if in_cooldown(source):
            report.sources_skipped[source] = "cooldown"
        elif not in_window(source, now):
            report.sources_skipped[source] = "out of hours"
        else:
            open_now.append(source)
    return open_now


def _incomplete(sources: list[str]) -> list[int]:
    """Vehicles of `sources` with no stored tree, or a group whose children or a leaf whose parts are not stored."""
    if not sources:
        return []
    unfinished = sa.exists().where(
        Category.vehicle_id == Vehicle.id,
        sa.or_(
            sa.and_(Category.is_leaf.is_(False), Category.children_fetched_at.is_(None)),
            sa.and_(Category.is_leaf.is_(True), Category.parts_fetched_at.is_(None)),
        ),
    )
    no_tree = ~sa.exists().where(Category.vehicle_id == Vehicle.id)
    return list(
        db.session.scalars(
            sa.select(Vehicle.id)
            .where(Vehicle.source.in_(sources), sa.or_(no_tree, unfinished))
            .order_by(Vehicle.created_at, Vehicle.id)
            .limit(BATCH)
        )
    )


def wait_for_quiet(max_wait: float) -> float:
    """Pause this worker while dealers are busy (the traffic mark lives), at most `max_wait` seconds; returns the
    time paused."""
    began = clock.monotonic()
    while clock.monotonic() - began < max_wait:
        try:
            remaining = traffic.seconds_until_quiet()
        except RedisError:
            break
        if remaining is None or remaining <= 0:
            break
        clock.sleep(min(remaining, max_wait - (clock.monotonic() - began)))
    return clock.monotonic() - began
