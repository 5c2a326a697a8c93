"""RQ queues and the one helper every service uses to enqueue a job."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rq import Queue
from rq.job import Job, JobStatus

if TYPE_CHECKING:
    from app.core.redis_store import RedisStore

# Highest priority first: a worker listening on all of them drains them in this order.
QUEUE_NAMES = ("default", "email", "prefetch", "translation")
# A job in one of these will still run (or is running): queueing it again would run it twice.
LIVE_JOB_STATES = frozenset({JobStatus.QUEUED, JobStatus.STARTED, JobStatus.DEFERRED, JobStatus.SCHEDULED})


class InvalidJobIdError(ValueError):
    """A job id that RQ would mis-handle: ':' separates RQ's own key parts."""


def validate_job_id(job_id: str) -> str:
    if not job_id or ":" in job_id:
        raise InvalidJobIdError(f"job id must be non-empty and free of ':': {job_id!r}")
    return job_id


class JobQueues:
    """Named RQ queues on the application's Redis client."""

    def __init__(self, store: RedisStore) -> None:
        self._store = store

    def get(self, name: str) -> Queue:
        if name not in QUEUE_NAMES:
            raise KeyError(f"unknown queue {name!r}; known: {', '.join(QUEUE_NAMES)}")
        return Queue(name, connection=self._store.client)

    def all(self) -> list[Queue]:
        return [self.get(name) for name in QUEUE_NAMES]

    def free_id(self, queue: str, job_id: str) -> bool:
        """Whether a new job may take `job_id` on `queue`: False while the job under it is live (queued, running,
        deferred or scheduled: a second would run it twice); an ended one's record is deleted to make room."""
        job = self.get(queue).fetch_job(job_id)
        if job is None:
            return True
        if job.get_status() in LIVE_JOB_STATES:
            return False
        job.delete()
        return True

    def enqueue(
        self, queue: str, func: Callable[..., Any] | str, *args: Any, job_id: str | None = None, **options: Any
    ) -> Job:
        """Enqueue `func(*args)` on `queue`; a given job id must obey the job-id rule."""
        if job_id is not None:
            validate_job_id(job_id)
        return self.get(queue).enqueue(func, *args, job_id=job_id, **options)


@dataclass(frozen=True)
class Periodic:
    """A job the scheduler enqueues on a cron schedule (times in UTC)."""

    job_id: str
    cron: str
    func: str
    queue: str = "default"
    args: tuple = field(default_factory=tuple)
    # rq-scheduler keeps a cron job's result forever unless told otherwise.
    result_ttl: int = 600

    def __post_init__(self) -> None:
        validate_job_id(self.job_id)
        if self.queue not in QUEUE_NAMES:
            raise KeyError(f"unknown queue {self.queue!r}")
