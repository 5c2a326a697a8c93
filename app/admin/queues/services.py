"""What the admins and the founder panel see of the background queues: each queue's lengths, its failed jobs with
their error, retrying or deleting one of them, and the progress of the long jobs that report it (the fit-recompute
chain, app.catalog.fit.recompute). Redis away is a Turkish 503, never a 500."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from flask_babel import gettext as _
from redis.exceptions import RedisError
from rq.exceptions import InvalidJobOperation, NoSuchJobError
from rq.job import Job
from rq.registry import (
    DeferredJobRegistry,
    FailedJobRegistry,
    FinishedJobRegistry,
    ScheduledJobRegistry,
    StartedJobRegistry,
)

from app.catalog.fit import recompute
from app.core.errors import ApiError
from app.core.jobs import QUEUE_NAMES
from app.extensions import queues

FAILED_PAGE_SIZE = 25
JOB_ID = re.compile(r"[A-Za-z0-9_.-]{1,200}")
ERROR_MAX = 500


@contextmanager
def _redis() -> Iterator[None]:
    try:
        yield
    except RedisError as error:
        raise ApiError(
            "queues_unavailable", _("The job queues cannot be reached right now. Please try again shortly."), 503, 5
        ) from error


def overview() -> list[dict[str, Any]]:
    """Every queue with its waiting, running, scheduled, deferred, failed and finished job counts."""
    with _redis():
        return [_counts(name) for name in QUEUE_NAMES]


def _counts(name: str) -> dict[str, Any]:
    queue = queues.get(name)
    registries: dict[str, Callable[..., Any]] = {
        "started": StartedJobRegistry,
        "scheduled": ScheduledJobRegistry,
        "deferred": DeferredJobRegistry,
        "failed": FailedJobRegistry,
        "finished": FinishedJobRegistry,
    }
    return {
        "name": name,
        "queued": queue.count,
        **{key: registry(queue=queue).count for key, registry in registries.items()},
    }


def long_jobs() -> list[dict[str, Any]]:
    """The long jobs that report their progress, each with its name, state and done of total."""
    with _redis():
        found = recompute.progress()
    if found is None:
        return []
    return [{**found, "name": _("Fit answers of stored part rows"), "stateLabel": _state_label(found["state"])}]


def _state_label(state: str) -> str:
    labels = {
        "queued": _("Queued"),
        "started": _("Running"),
        "finished": _("Done"),
        "failed": _("Failed"),
        "scheduled": _("Waiting for a retry"),
        "deferred": _("Queued"),
    }
    return labels.get(state, state)


def failed_jobs(name: str, page: int = 1) -> tuple[list[dict[str, Any]], int]:
    """A page of the queue's failed jobs, newest first, with their error; and how many failed in all."""
    registry = _failed(name)
    with _redis():
        total = registry.count
        ids = list(reversed(registry.get_job_ids()))[(page - 1) * FAILED_PAGE_SIZE : page * FAILED_PAGE_SIZE]
        jobs = [job for job in Job.fetch_many(ids, connection=registry.connection) if job is not None]
        return [_failed_view(job) for job in jobs], total


def _failed_view(job: Job) -> dict[str, Any]:
    return {
        "id": job.id,
        "function": job.func_name,
        "args": [repr(arg)[:100] for arg in job.args],
        "enqueuedAt": job.enqueued_at.isoformat() if job.enqueued_at else None,
        "endedAt": job.ended_at.isoformat() if job.ended_at else None,
        "error": _last_line(job.latest_result().exc_string if job.latest_result() else job.exc_info),
    }


def _last_line(trace: str | None) -> str:
    lines = [line for line in (trace or "").strip().splitlines() if line.strip()]
    return lines[-1][:ERROR_MAX] if lines else ""


def retry(name: str, job_id: str) -> str:
    """Queue a failed job again (it keeps its id); 404 when the queue has no such failed job."""
    registry = _failed(name)
    with _redis():
        try:
            registry.requeue(_checked_id(job_id))
        except (InvalidJobOperation, NoSuchJobError):
            raise _no_such_job() from None
    return job_id


def delete(name: str, job_id: str) -> str:
    """Remove a failed job for good; 404 when the queue has no such failed job."""
    registry = _failed(name)
    with _redis():
        job_id = _checked_id(job_id)
        if job_id not in registry:
            raise _no_such_job()
        try:
            registry.remove(Job.fetch(job_id, connection=registry.connection), delete_job=True)
        except NoSuchJobError:
            registry.remove(job_id)
    return job_id


def _failed(name: str) -> FailedJobRegistry:
    if name not in QUEUE_NAMES:
        raise ApiError("unknown_queue", _("There is no such queue."), 404)
    return FailedJobRegistry(queue=queues.get(name))


def _checked_id(job_id: str) -> str:
    if not JOB_ID.fullmatch(job_id):
        raise _no_such_job()
    return job_id


def _no_such_job() -> ApiError:
    return ApiError("job_not_found", _("This queue has no such failed job."), 404)
