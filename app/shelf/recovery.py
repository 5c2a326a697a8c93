"""Imports left "importing" with no job that will run them: Redis lost the job (away when the mapping was committed,
flushed, restarted without its data) or RQ gave it up (its worker died under every try). The minute sweep queues each
again (a run starts over, `tasks.import_list`), and fails one that has been importing longer than runs could take,
so the dealer's page says so instead of showing its progress for ever. A dealer has one import running at a time
(`imports.start`), so an import queued again is never beside a newer one of the same dealer; and a run given up on
here that still finishes later cannot put its list in use (`tasks._activate` switches only an import still
importing)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta

import sqlalchemy as sa
from flask_babel import gettext as _

from app.core.db import utcnow
from app.extensions import db, queues
from app.shelf.imports import IMPORT_JOB, IMPORT_JOB_OPTIONS, IMPORT_JOB_TIMEOUT, IMPORT_QUEUE, import_job_id
from app.shelf.tasks import SHELF, ListStore, fail_import

# A job queued at the commit is running or waiting in its queue by then (both live: left alone).
SWEEP_GRACE = timedelta(minutes=2)
# Longer than a run and RQ's retries of a crashed one: still importing with no live job after this, it never will.
GIVE_UP_AFTER = timedelta(seconds=IMPORT_JOB_TIMEOUT * 3)
SWEEP_BATCH = 100


@dataclass(frozen=True)
class ImportJobs:
    """A kind of list's imports and the job that runs one (the shelf's here; a supplier's in app.suppliers)."""

    store: ListStore
    func: str
    job_id: Callable[[int], str]


SHELF_JOBS = ImportJobs(SHELF, IMPORT_JOB, import_job_id)


def sweep() -> int:
    """Queue again the shelf imports whose job is gone; fail those that ran out of time. How many were queued."""
    return sweep_imports(SHELF_JOBS)


def sweep_imports(jobs: ImportJobs) -> int:
    """Queue again the imports whose job is gone; fail those that ran out of time. How many were queued."""
    now, imports = utcnow(), jobs.store.imports
    stranded = db.session.execute(
        sa.select(imports.id, imports.started_at)
        .where(imports.status == "importing", imports.started_at < now - SWEEP_GRACE)
        .order_by(imports.id)
        .limit(SWEEP_BATCH)
    ).all()
    db.session.commit()  # the read ends before Redis is asked (nothing was written)
    queued = 0
    for import_id, started_at in stranded:
        if not queues.free_id(IMPORT_QUEUE, jobs.job_id(import_id)):
            continue
        if started_at < now - GIVE_UP_AFTER:
            fail_import(import_id, _("The list could not be imported in time. Please upload it again."), jobs.store)
            continue
        queues.enqueue(IMPORT_QUEUE, jobs.func, import_id, job_id=jobs.job_id(import_id), **IMPORT_JOB_OPTIONS)
        queued += 1
    return queued
