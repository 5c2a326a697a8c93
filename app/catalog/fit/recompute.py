"""fit- jobs: give every stored part row its fit answer by the rules in force, in batches, in the background.

A row is computed when it is stored (app.catalog.store, app.catalog.fit.services.Judge), so a job is needed only for
rows stored before (app.catalog.models.FIT_STALE): rows from before the fit answer existed, and rows the earlier rule
called a yes although their catalog states no applicability (the migration of 2026-11-28 gives both a null status; a
new rule would do the same). Until its job reaches it, such a row reads as a maybe, "not checked yet"
(app.catalog.fit.shapes), never a yes.

Job `fit-recompute-<step>` computes up to BATCHES_PER_JOB batches of BATCH_SIZE rows, each batch in one transaction
(the rows, their leaves' counts, and the answering dealers' own fits of their vehicles), then queues step + 1 with the
progress so far: a killed worker loses at most one batch, a retried job only finds less to do, and a second run over
the same database changes nothing. Each job carries its progress (`meta["progress"]`: done and total rows), which the
admins' queue page shows. The scheduler's sweep (`sweep`, worker.SCHEDULE) queues the chain whenever rows are left,
and `flask catalog refit` does it by hand (or here and now with --inline).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import sqlalchemy as sa
from redis.exceptions import RedisError
from rq import Retry, get_current_job

from app.catalog.fit import answers, rules
from app.catalog.fit.evaluate import NO
from app.catalog.fit.facts import VehicleFacts
from app.catalog.fit.services import Judge, facts_of, leaf_counts
from app.catalog.models import FIT_STALE, Category, FitAnswer, Part
from app.core.db import begin_writes
from app.extensions import db, queues, redis_store

log = logging.getLogger(__name__)

QUEUE = "default"
JOB_PREFIX = "fit-recompute-"
CHAIN_KEY = "fit-recompute:current"  # the id of the chain's latest job: a live one means the chain runs
BATCH_SIZE = 1000
BATCHES_PER_JOB = 10
RETRY = Retry(max=3, interval=[10, 60, 300])

STALE = sa.text(FIT_STALE)  # only in statements on the part table alone


def pending_count() -> int:
    """How many stored rows wait for their fit answer."""
    return db.session.scalar(sa.select(sa.func.count()).select_from(Part).where(STALE)) or 0


def any_pending() -> bool:
    return db.session.scalar(sa.select(Part.id).where(STALE).limit(1)) is not None


# --- the chain of jobs ----------------------------------------------------------------------------------------------


def queue_recompute() -> str | None:
    """Queue the chain unless it is queued or running already (its current job's id); None when no row waits."""
    current = redis_store.client.get(CHAIN_KEY)
    if current and not queues.free_id(QUEUE, current.decode()):
        return current.decode()
    total = pending_count()
    return _queue_step(1, 0, total) if total else None


def sweep() -> str | None:
    """The scheduler's sweep (worker.SCHEDULE): queue the chain when rows wait for their answer."""
    return queue_recompute() if any_pending() else None


def queue_when_pending() -> None:
    """At start-up: queue the chain when rows wait (Redis away: the sweep queues it later)."""
    try:
        sweep()
        db.session.commit()  # no transaction left open in a process that forks work horses
    except (RedisError, sa.exc.SQLAlchemyError) as error:
        db.session.rollback()
        log.warning("fit recompute not queued at start-up: %s", error)


def _queue_step(step: int, done: int, total: int) -> str:
    identifier = f"{JOB_PREFIX}{step}"
    queues.free_id(QUEUE, identifier)  # an ended record of an earlier chain makes room
    queues.enqueue(
        QUEUE, recompute_step, step, done, total, job_id=identifier, retry=RETRY, meta=_progress(done, total)
    )
    redis_store.client.set(CHAIN_KEY, identifier)
    return identifier


def _progress(done: int, total: int) -> dict[str, Any]:
    return {"progress": {"done": done, "total": max(total, done)}}


def recompute_step(step: int, done: int, total: int) -> int:
    """Compute up to BATCHES_PER_JOB batches, recording the progress on the job; queue the next step while rows are
    left. Returns how many rows this job computed."""
    job = get_current_job()
    computed = 0
    for _batch in range(BATCHES_PER_JOB):
        count = recompute_batch()
        db.session.commit()
        computed += count
        if job is not None:
            job.meta.update(_progress(done + computed, total))
            job.save_meta()
        if count < BATCH_SIZE:
            return computed
    _queue_step(step + 1, done + computed, total)
    return computed


def recompute_all(progress: Callable[[int], None]) -> int:
    """Compute every waiting row here and now, batch by batch (the command's --inline); `progress` hears each batch."""
    computed = 0
    while count := recompute_batch():
        db.session.commit()
        progress(count)
        computed += count
    db.session.commit()
    return computed


# --- one batch ------------------------------------------------------------------------------------------------------


def recompute_batch() -> int:
    """Up to BATCH_SIZE waiting rows given their answer by their vehicle's facts, in the caller's transaction: their
    leaves counted again and the answering dealers' own fits of their vehicles rewritten. How many rows."""
    begin_writes(db.session)
    rows = db.session.execute(
        sa.select(Part.id, Part.vehicle_id, Part.category_id, Part.applicability, Part.model_codes, Part.remark)
        .where(STALE)
        .order_by(Part.id)
        .limit(BATCH_SIZE)
    ).all()
    if not rows:
        return 0
    judges: dict[int | None, Judge] = {}
    updates = []
    for part_id, vehicle_id, _category_id, applicability, model_codes, remark in rows:
        judge = judges.get(vehicle_id) or judges.setdefault(vehicle_id, Judge(_facts(vehicle_id)))
        updates.append({"id": part_id, **_columns(judge, applicability, model_codes, remark)})
    db.session.execute(sa.update(Part), updates)
    _recount({row.category_id for row in rows})
    _rewrite_answered(judges)
    return len(rows)


def _columns(judge: Judge, applicability: Any, model_codes: list[str] | None, remark: str | None) -> dict[str, Any]:
    """A row's fit columns by its stored applicability. A row stored before the fit answer existed has none, but its
    model codes and remark are stored: what they rule out is a sure "no"; anything else stays "not known", since the
    conditions its source stated beside them (options, build dates) were not kept."""
    if applicability:
        return judge.stored(applicability)
    kept = rules.applicability(model_codes=model_codes, remark=remark)
    if kept.items:
        columns = judge.columns(kept)
        if columns["fit_status"] == NO:
            return columns
    return judge.stored(None)


def _facts(vehicle_id: int | None) -> VehicleFacts:
    return facts_of(vehicle_id) if vehicle_id is not None else VehicleFacts()


def _recount(category_ids: set[int]) -> None:
    """The leaves' fit counts from all their rows (a row still waiting counts as a maybe)."""
    statuses: dict[int, list[str | None]] = {category_id: [] for category_id in category_ids}
    for category_id, status, count in db.session.execute(
        sa.select(Part.category_id, Part.fit_status, sa.func.count())
        .where(Part.category_id.in_(category_ids))
        .group_by(Part.category_id, Part.fit_status)
    ).all():
        statuses[category_id].extend([status] * count)
    db.session.execute(
        sa.update(Category), [{"id": category_id, **leaf_counts(found)} for category_id, found in statuses.items()]
    )


def _rewrite_answered(judges: dict[int | None, Judge]) -> None:
    """The shops that answered questions on these vehicles: their own fits of the new maybes (answers.rewrite_fits)."""
    vehicle_ids = [vehicle_id for vehicle_id in judges if vehicle_id is not None]
    answered = db.session.execute(
        sa.select(FitAnswer.shop_id, FitAnswer.vehicle_id).where(FitAnswer.vehicle_id.in_(vehicle_ids)).distinct()
    ).all()
    for shop_id, vehicle_id in answered:
        answers.rewrite_fits(shop_id, vehicle_id, judges[vehicle_id].facts)


# --- progress -------------------------------------------------------------------------------------------------------


def progress() -> dict[str, Any] | None:
    """The chain's latest job as the admins' queue page shows it: its id, state, and rows done of the total; None when
    no chain ran lately (its record expired) or Redis holds no trace of one."""
    current = redis_store.client.get(CHAIN_KEY)
    job = queues.get(QUEUE).fetch_job(current.decode()) if current else None
    found = job.meta.get("progress") if job is not None else None
    if not isinstance(found, dict):
        return None
    state = job.get_status()
    return {"jobId": job.id, "state": getattr(state, "value", state), "done": found["done"], "total": found["total"]}
