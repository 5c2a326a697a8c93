"""tr- jobs: bring stored category and part names up to the dictionary in force, in batches, in the background.

Names are translated as they are stored (the dictionary needs no network and costs microseconds a name), so a page
never waits for a job. A job is needed when the dictionary changed (an admin added a term, a release updated it),
for names stored before translation existed, and, with a machine-translation provider configured, to fill in the words
the dictionary lacks. A vehicle's names are taken `BATCH_SIZE` at a time, its categories first: job
`tr-<vehicle>-<batch>` translates the next batch whose version is not the one in force and queues the batch after it,
so a retried or repeated job only finds less to do. A provider that is rate limited defers the batch (a new job,
`tr-<vehicle>-<batch>-later<n>`, queued after the wait it asked for): deferred, not failed. The translation domain
only turns text into text; these jobs are the catalog's because they rewrite its rows.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import sqlalchemy as sa
from flask import current_app
from redis.exceptions import RedisError
from rq import Retry

from app.catalog.folding import fold_names
from app.catalog.models import Category, Part
from app.core.after_commit import enqueue_after_commit
from app.core.db import begin_writes, utcnow
from app.extensions import db, queues
from app.translation import RateLimitedError, Translator
from app.translation import services as names

log = logging.getLogger(__name__)

QUEUE = "translation"
BATCH_SIZE = 500
RETRY = Retry(max=3, interval=[10, 60, 300])


def job_id(vehicle_id: int, batch: int) -> str:
    return f"tr-{vehicle_id}-{batch}"


def queue_vehicle(vehicle_id: int, batch: int = 1) -> bool:
    """Queue the vehicle's tr- job `batch` unless it is queued or running; False when it already is."""
    identifier = job_id(vehicle_id, batch)
    if not queues.free_id(QUEUE, identifier):
        return False
    queues.enqueue(QUEUE, translate_batch, vehicle_id, batch, job_id=identifier, retry=RETRY)
    return True


def queue_pending(vehicle_id: int) -> bool:
    """Queue the vehicle's tr- jobs when some of its names are behind the dictionary in force (after a prefetch)."""
    if not pending_vehicle_ids(names.job_translator().version, vehicle_id):
        return False
    return queue_vehicle(vehicle_id)


def translate_batch(vehicle_id: int, batch: int) -> int:
    """Translate the vehicle's next batch of names that are behind; returns how many were translated."""
    translator = names.job_translator()
    try:
        done = _translate_next(vehicle_id, translator)
    except RateLimitedError as error:
        db.session.rollback()
        _defer(vehicle_id, batch, error.retry_after)
        return 0
    db.session.commit()
    if done == BATCH_SIZE:
        queue_vehicle(vehicle_id, batch + 1)
    return done


def translate_vehicle(vehicle_id: int, translator: Translator, progress: Callable[[int], None]) -> int:
    """Translate all of the vehicle's names that are behind, batch by batch, here and now (the command's --inline);
    `progress` hears each batch's count."""
    total = 0
    while done := _translate_next(vehicle_id, translator):
        db.session.commit()
        progress(done)
        total += done
    db.session.commit()
    return total


def pending_vehicle_ids(version: str, vehicle_id: int | None = None) -> list[int]:
    """The vehicles with English names translated by another dictionary version (or never)."""
    ids: set[int] = set()
    for model in (Category, Part):
        query = sa.select(model.vehicle_id).where(_behind(model, version)).distinct()
        if vehicle_id is not None:
            query = query.where(model.vehicle_id == vehicle_id).limit(1)
        ids.update(value for value in db.session.scalars(query) if value is not None)
    return sorted(ids)


def pending_count(version: str) -> int:
    """How many stored names are behind `version` (the retranslate command's progress)."""
    return sum(
        db.session.scalar(sa.select(sa.func.count()).select_from(model).where(_behind(model, version))) or 0
        for model in (Category, Part)
    )


def _behind(model: Any, version: str) -> sa.ColumnElement[bool]:
    return sa.and_(
        model.name_lang == "en",
        sa.or_(model.translation_version.is_(None), model.translation_version != version),
    )


def _translate_next(vehicle_id: int, translator: Translator) -> int:
    """Translate up to BATCH_SIZE of the vehicle's names that are behind, categories first, in one transaction."""
    left = BATCH_SIZE
    changed_categories: set[int] = set()
    begin_writes(db.session)
    for model, owner in ((Category, Category.id), (Part, Part.category_id)):
        rows = db.session.execute(
            sa.select(model.id, owner.label("owner"), model.name, model.name_tr)
            .where(model.vehicle_id == vehicle_id, _behind(model, translator.version))
            .order_by(model.id)
            .limit(left)
        ).all()
        if not rows:
            continue
        updates = [_update(row, translator) for row in rows]
        db.session.execute(sa.update(model), updates)
        changed_categories.update(row.owner for row, update in zip(rows, updates, strict=True) if _changed(row, update))
        left -= len(rows)
        if not left:
            break
    if changed_categories:  # what rendered copies of their tables key on
        db.session.execute(
            sa.update(Category).where(Category.id.in_(changed_categories)).values(translated_at=utcnow())
        )
    return BATCH_SIZE - left


def _update(row: sa.Row, translator: Translator) -> dict[str, Any]:
    translation = translator.translate(row.name)
    text = translation.text[: names.NAME_TR_LENGTH]
    return {
        "id": row.id,
        "name_tr": text,
        "name_tr_complete": translation.complete,
        "translation_version": translator.version,
        "search_name": fold_names(row.name, text),
    }


def _changed(row: sa.Row, update: dict[str, Any]) -> bool:
    return update["name_tr"] != row.name_tr


def _defer(vehicle_id: int, batch: int, retry_after: float) -> None:
    delay = timedelta(seconds=max(1.0, min(retry_after, current_app.config["TRANSLATION_MAX_DEFER_SECONDS"])))
    queue = queues.get(QUEUE)
    attempt = 1
    while queue.fetch_job(f"{job_id(vehicle_id, batch)}-later{attempt}") is not None:
        attempt += 1
    log.info("tr- batch %s of vehicle %s: the provider is rate limited; deferred by %s", batch, vehicle_id, delay)
    queue.enqueue_in(
        delay, translate_batch, vehicle_id, batch, job_id=f"{job_id(vehicle_id, batch)}-later{attempt}", retry=RETRY
    )


def queue_retranslation(on_commit: bool = False) -> str:
    """Queue the job that queues the tr- jobs of every vehicle with names behind the dictionary in force (unless it is
    queued or running already); returns its id. `on_commit`: once the caller's transaction, which changes the
    dictionary, commits (the job must find it)."""
    version = names.job_translator().version
    identifier = f"tr-all-{version}"
    if not queues.free_id(QUEUE, identifier):
        return identifier
    enqueue = enqueue_after_commit if on_commit else queues.enqueue
    enqueue(QUEUE, retranslate_all, job_id=identifier, retry=RETRY)
    return identifier


def queue_retranslation_on_commit() -> str | None:
    """queue_retranslation for when the caller's dictionary change commits (an admin's term saved or removed); None
    when it could not be queued (Redis down: `flask catalog retranslate` later)."""
    try:
        return queue_retranslation(on_commit=True)
    except RedisError as error:
        log.error("re-translation not queued: %s", error)
        return None


def retranslate_all() -> int:
    """Queue the tr- jobs of every vehicle with names behind; returns how many vehicles were queued."""
    return sum(queue_vehicle(vehicle_id) for vehicle_id in pending_vehicle_ids(names.job_translator().version))
