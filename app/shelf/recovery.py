"""Imports left "importing" with no job that will run them: Redis lost the job (away when the mapping was committed,
flushed, restarted without its data) or RQ gave it up (its worker died under every try). The minute sweep queues each
again (a run starts over, `tasks.import_list`), and fails one that has been importing longer than runs could take,
so the dealer's page says so instead of showing its progress for ever. A dealer has one import running at a time
(`imports.start`), so an import queued again is never beside a newer one of the same dealer; and a run given up on
here that still finishes later cannot put its list in use (`tasks._activate` switches only an import still
importing)."""

from __future__ import annotations

from datetime import timedelta

import sqlalchemy as sa
from flask_babel import gettext as _

from app.core.db import utcnow
from app.extensions import db, queues
from app.shelf.imports import IMPORT_JOB, IMPORT_JOB_OPTIONS, IMPORT_JOB_TIMEOUT, IMPORT_QUEUE, import_job_id
from app.shelf.models import ShelfImport
from app.shelf.tasks import fail_import

# A job queued at the commit is running or waiting in its queue by then (both live: left alone).
SWEEP_GRACE = timedelta(minutes=2)
# Longer than a run and RQ's retries of a crashed one: still importing with no live job after this, it never will.
GIVE_UP_AFTER = timedelta(seconds=IMPORT_JOB_TIMEOUT * 3)
SWEEP_BATCH = 100


def sweep() -> int:
    """Queue again the imports whose job is gone; fail those that ran out of time. How many were queued."""
    now = utcnow()
    stranded = db.session.execute(
        sa.select(ShelfImport.id, ShelfImport.started_at)
        .where(ShelfImport.status == "importing", ShelfImport.started_at < now - SWEEP_GRACE)
        .order_by(ShelfImport.id)
        .limit(SWEEP_BATCH)
    ).all()
    db.session.commit()  # the read ends before Redis is asked (nothing was written)
    queued = 0
    for import_id, started_at in stranded:
        if not queues.free_id(IMPORT_QUEUE, import_job_id(import_id)):
            continue
        if started_at < now - GIVE_UP_AFTER:
            fail_import(import_id, _("The list could not be imported in time. Please upload it again."))
            continue
        queues.enqueue(IMPORT_QUEUE, IMPORT_JOB, import_id, job_id=import_job_id(import_id), **IMPORT_JOB_OPTIONS)
        queued += 1
    return queued
