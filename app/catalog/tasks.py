"""Prefetch: after a decode, walk the new vehicle's tree in the background so its page opens from stored data.

prefetch-init stores the roots and enqueues a prefetch-children job per group (which stores its children and
enqueues theirs) and a prefetch-parts job per leaf (which stores its part rows). Names are translated as they are
stored; a job whose names the dictionary in force did not translate (a provider is configured, the dictionary changed
meanwhile) queues the vehicle's tr- jobs (app.catalog.name_translation). Job ids join their parts with '-'
(RQ reserves ':'), and an id already queued is not queued twice. Inserts do nothing on conflict, so a retried job
never duplicates rows.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from datetime import timedelta

from flask import Flask, current_app
from redis.exceptions import RedisError
from rq import Retry, get_current_job

from app.catalog import backfill, name_translation, services, store
from app.catalog.models import Category
from app.catalog.providers import provider_for
from app.core.db import utcnow
from app.extensions import db, queues
from app.vehicles.models import Vehicle
from app.vehicles.signals import vehicle_stored

log = logging.getLogger(__name__)

RETRY = Retry(max=3, interval=[10, 60, 300])
LATER = re.compile(r"-later(\d+)$")


def init_prefetch() -> None:
    """Walk the tree of every newly stored vehicle in the background (the vehicles domain announces them)."""
    vehicle_stored.connect(_prefetch_stored)


def _prefetch_stored(_app: Flask, vehicle_id: int) -> None:
    try:
        enqueue_prefetch(vehicle_id)
    except RedisError as error:  # the vehicle stands, committed; only the background walk of its tree is missing
        log.error("prefetch of new vehicle %s not queued: %s", vehicle_id, error)


def enqueue_prefetch(vehicle_id: int) -> None:
    """Start walking the vehicle's catalog tree in the background (job `prefetch-init-<id>`)."""
    queues.enqueue("prefetch", prefetch_init, vehicle_id, job_id=f"prefetch-init-{vehicle_id}")


def prefetch_init(vehicle_id: int) -> int:
    """Store the vehicle's roots and queue their walk; returns how many categories were queued."""
    vehicle = db.session.get(Vehicle, vehicle_id)
    if vehicle is None:
        return 0
    if provider_for(vehicle, current_app.config) is None:
        log.info(
            "vehicle %s: no tree reader for source %s yet; its catalog is not prefetched", vehicle_id, vehicle.source
        )
        return 0
    if not store.roots(vehicle.id) and not services.fetch_roots(vehicle):
        if _deferred(vehicle, "prefetch-init", prefetch_init, vehicle_id):
            return 0
        raise RuntimeError(f"vehicle {vehicle_id}: the upstream did not give its root categories")
    db.session.commit()
    return _queue_walk(vehicle, store.roots(vehicle.id))


def prefetch_children(vehicle_id: int, category_id: int) -> int:
    """Store one category's children and queue their walk; returns how many were queued."""
    found = _category_of(vehicle_id, category_id)
    if found is None:
        return 0
    vehicle, category = found
    children = services.load_children(vehicle, category, provider_for(vehicle, current_app.config))
    db.session.commit()
    if not children and category.children_fetched_at is None:
        if _deferred(vehicle, "prefetch-children", prefetch_children, vehicle_id, category_id):
            return 0
        raise RuntimeError(f"category {category_id}: the upstream did not give its children")  # RQ retries it
    name_translation.queue_pending(vehicle_id)
    return _queue_walk(vehicle, children)


def prefetch_parts(vehicle_id: int, category_id: int) -> int:
    """Store a leaf category's part rows; returns how many are stored."""
    found = _category_of(vehicle_id, category_id)
    if found is None:
        return 0
    vehicle, category = found
    parts = services.load_parts(category, provider_for(vehicle, current_app.config))
    db.session.commit()
    if category.parts_fetched_at is None:
        if _deferred(vehicle, "prefetch-parts", prefetch_parts, vehicle_id, category_id):
            return 0
        raise RuntimeError(f"category {category_id}: the upstream did not give its parts")  # RQ retries it
    name_translation.queue_pending(vehicle_id)
    return len(parts)


def _deferred(vehicle: Vehicle, kind: str, job: Callable[..., int], *args: int) -> bool:
    """Deferral, not failure: when the vehicle's source is in cooldown (it asked us to slow down), the job is queued
    again for when the cooldown ends (`<id>-later<n>`) instead of failing into RQ's retries."""
    wait = backfill.cooldown_left(vehicle.source)
    if wait <= 0:
        return False
    current = get_current_job()
    base = LATER.sub("", current.id) if current else "-".join([kind, *map(str, args)])
    later = int(LATER.search(current.id).group(1)) + 1 if current and LATER.search(current.id) else 1
    queues.get("prefetch").enqueue_in(timedelta(seconds=wait), job, *args, job_id=f"{base}-later{later}", retry=RETRY)
    log.info("%s: %s is in cooldown; deferred by %s s", base, vehicle.source, wait)
    return True


def _category_of(vehicle_id: int, category_id: int) -> tuple[Vehicle, Category] | None:
    vehicle = db.session.get(Vehicle, vehicle_id)
    category = db.session.get(Category, category_id)
    if vehicle is None or category is None or category.vehicle_id != vehicle_id:
        return None  # deleted meanwhile: nothing to do
    return vehicle, category


def _queue_walk(vehicle: Vehicle, categories: list[Category]) -> int:
    queue = queues.get("prefetch")
    queued = 0
    for category in categories:
        kind, job = ("parts", prefetch_parts) if category.is_leaf else ("children", prefetch_children)
        job_id = f"prefetch-{kind}-{vehicle.id}-{category.id}"
        if queue.fetch_job(job_id) is not None:
            continue  # queued or done already
        queues.enqueue(queue.name, job, vehicle.id, category.id, job_id=job_id, retry=RETRY)
        queued += 1
    return queued


def backfill_vehicle(vehicle_id: int) -> str:
    """A backfill scan's job: walk the vehicle's tree again (prefetch_init) once dealers are quiet and, for a windowed
    source, inside its window; outside it, the job is moved to the window's opening (deferred, not failed)."""
    vehicle = db.session.get(Vehicle, vehicle_id)
    if vehicle is None:
        return "gone"
    now = utcnow()
    if not backfill.in_window(vehicle.source, now):
        opens = backfill.window_opens(now)
        queues.get("prefetch").enqueue_at(
            opens, backfill_vehicle, vehicle_id, job_id=f"backfill-{vehicle_id}-{opens:%Y%m%d%H}"
        )
        return f"deferred until {opens.isoformat()}"
    paused = backfill.wait_for_quiet(current_app.config["BACKFILL_MAX_PAUSE_SECONDS"])
    queued = prefetch_init(vehicle_id)
    return f"queued {queued}" + (f" after a pause of {paused:.0f} s" if paused >= 1 else "")


def backfill_scan() -> dict:
    """The hourly scan (worker.SCHEDULE)."""
    return backfill.scan().as_dict()
