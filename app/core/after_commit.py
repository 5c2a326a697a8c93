"""Work that waits for the database: `after_commit(fn)` runs fn once the current transaction of `db.session` commits,
and never when it rolls back; `enqueue_after_commit` queues a job that way, so the job finds the rows it was queued
for.

"Commits" means the session's own transaction as the code sees it: releasing a savepoint (`begin_nested`) runs
nothing, rolling one back drops what was registered inside it, and the test suite's sessions, which join an outer
transaction through a savepoint, commit as the code does. A callback runs after the data is committed, so its
failure cannot undo it: it is logged, and the others still run. Callbacks must not use the database session (its
transaction is over while they run); Redis, HTTP and mail are what they are for.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import partial
from typing import Any

import sqlalchemy as sa
from redis.exceptions import RedisError
from sqlalchemy.orm import Session, SessionTransaction

from app.core.jobs import QUEUE_NAMES, validate_job_id
from app.extensions import db, queues

log = logging.getLogger(__name__)

PENDING = "after_commit_pending"


def after_commit(fn: Callable[[], Any]) -> None:
    """Run `fn()` once the current transaction of db.session commits (one is begun when none is open)."""
    session = db.session()
    session.connection()  # the callback belongs to this transaction: begin one if none is open
    owner = session.get_nested_transaction() or session.get_transaction()
    session.info.setdefault(PENDING, []).append((owner, fn))


def enqueue_after_commit(
    queue: str, func: Callable[..., Any] | str, *args: Any, job_id: str | None = None, **options: Any
) -> None:
    """Queue `func(*args)` on `queue` once the current transaction commits. The queue and job id are checked now, in
    the caller's transaction. Redis away at commit time loses the job (logged): whoever needs it back has a sweep."""
    if queue not in QUEUE_NAMES:
        raise KeyError(f"unknown queue {queue!r}; known: {', '.join(QUEUE_NAMES)}")
    if job_id is not None:
        validate_job_id(job_id)
    after_commit(partial(_enqueue, queue, func, *args, job_id=job_id, **options))


def _enqueue(queue: str, func: Callable[..., Any] | str, *args: Any, job_id: str | None, **options: Any) -> None:
    try:
        queues.enqueue(queue, func, *args, job_id=job_id, **options)
    except RedisError as error:
        log.warning("job %s on %s not queued after the commit: %s", job_id or func, queue, error)


def _within(owner: SessionTransaction | None, transaction: SessionTransaction) -> bool:
    while owner is not None:
        if owner is transaction:
            return True
        owner = owner.parent
    return False


@sa.event.listens_for(Session, "after_commit")
def _run_committed(session: Session) -> None:
    if session.in_nested_transaction():
        return  # a savepoint released: the transaction it belongs to goes on
    for _owner, fn in session.info.pop(PENDING, ()):
        try:
            fn()
        except Exception:  # the commit stands; one callback's failure must not stop the others
            log.exception("after-commit callback %r failed", fn)


@sa.event.listens_for(Session, "after_soft_rollback")
def _drop_rolled_back(session: Session, previous_transaction: SessionTransaction) -> None:
    pending = session.info.get(PENDING)
    if not pending:
        return
    if previous_transaction.parent is None:
        session.info.pop(PENDING, None)
    elif previous_transaction.nested:
        session.info[PENDING] = [item for item in pending if not _within(item[0], previous_transaction)]


@sa.event.listens_for(Session, "after_transaction_end")
def _drop_unfinished(session: Session, transaction: SessionTransaction) -> None:
    # The session's transaction ended without a commit (closed): what waited on it never runs. After a commit the
    # list is already empty.
    if transaction.parent is None:
        session.info.pop(PENDING, None)
