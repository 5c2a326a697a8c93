"""Queues, the job-id rule, the worker and the periodic schedule."""

import pytest
from rq_scheduler import Scheduler

import worker
from app.core.jobs import QUEUE_NAMES, InvalidJobIdError, Periodic
from app.core.tasks import last_heartbeat
from app.extensions import queues, redis_store


def test_the_four_queues_exist():
    assert set(QUEUE_NAMES) == {"prefetch", "translation", "email", "default"}
    assert [queue.name for queue in queues.all()] == list(QUEUE_NAMES)


@pytest.mark.parametrize("job_id", ["prefetch:vin:1", "tr:abc", ":", ""])
def test_job_ids_with_a_colon_or_empty_are_refused(job_id):
    with pytest.raises(InvalidJobIdError):
        queues.enqueue("default", "app.core.tasks.heartbeat", job_id=job_id)

    assert queues.get("default").count == 0


def test_periodic_entries_obey_the_job_id_rule():
    with pytest.raises(InvalidJobIdError):
        Periodic(job_id="backfill:hourly", cron="0 * * * *", func="app.core.tasks.heartbeat")


@pytest.mark.parametrize("job_id", ["prefetch-WVWZZZ1JZXW000001-12", "tr-cat-42", None])
def test_valid_job_ids_are_enqueued(job_id):
    job = queues.enqueue("prefetch", "app.core.tasks.heartbeat", job_id=job_id)

    assert queues.get("prefetch").job_ids == [job.id]
    if job_id:
        assert job.id == job_id


def test_unknown_queue_is_refused():
    with pytest.raises(KeyError):
        queues.enqueue("nightly", "app.core.tasks.heartbeat")


def test_worker_runs_an_enqueued_job_in_a_forked_work_horse(app):
    queues.enqueue("default", "app.core.tasks.heartbeat", job_id="heartbeat-test")
    assert last_heartbeat() is None

    worker.run_worker(app, burst=True)

    assert last_heartbeat() is not None
    assert queues.get("default").count == 0


def test_schedule_registration_is_idempotent():
    scheduler = Scheduler(queue=queues.get("default"), connection=redis_store.client)

    worker.register_schedule(scheduler, worker.SCHEDULE)
    worker.register_schedule(scheduler, worker.SCHEDULE)

    jobs = list(scheduler.get_jobs())
    assert sorted(job.id for job in jobs) == sorted(entry.job_id for entry in worker.SCHEDULE)
    heartbeat = next(job for job in jobs if job.id == "heartbeat")
    assert heartbeat.meta["cron_string"] == "* * * * *"
    assert heartbeat.origin == "default"
    assert heartbeat.result_ttl == 600


def _next_runs(scheduler) -> dict[str, float]:
    return {
        job_id.decode(): score
        for job_id, score in redis_store.client.zrange(scheduler.scheduled_jobs_key, 0, -1, withscores=True)
    }


def test_a_restart_while_a_run_is_due_keeps_that_run():
    scheduler = Scheduler(queue=queues.get("default"), connection=redis_store.client)
    worker.register_schedule(scheduler, worker.SCHEDULE)
    # The daily mail is due (its time has come) when a scheduler starts or restarts.
    redis_store.client.zadd(scheduler.scheduled_jobs_key, {"lifecycle-mail": 1_000})

    worker.register_schedule(Scheduler(queue=queues.get("default"), connection=redis_store.client), worker.SCHEDULE)

    assert _next_runs(scheduler)["lifecycle-mail"] == 1_000
    scheduler.enqueue_jobs()
    assert queues.get("default").job_ids.count("lifecycle-mail") == 1
    assert _next_runs(scheduler)["lifecycle-mail"] > 1_000


def test_a_changed_schedule_replaces_changed_and_dropped_entries():
    scheduler = Scheduler(queue=queues.get("default"), connection=redis_store.client)
    worker.register_schedule(scheduler, worker.SCHEDULE)
    redis_store.client.zadd(scheduler.scheduled_jobs_key, {"heartbeat": 1_000, "email-sweep": 1_000})
    changed = [Periodic(job_id="heartbeat", cron="*/2 * * * *", func="app.core.tasks.heartbeat")]
    changed += [entry for entry in worker.SCHEDULE if entry.job_id not in {"heartbeat", "backfill-scan"}]

    worker.register_schedule(scheduler, changed)

    jobs = {job.id: job for job in scheduler.get_jobs()}
    assert sorted(jobs) == sorted(entry.job_id for entry in changed)
    assert jobs["heartbeat"].meta["cron_string"] == "*/2 * * * *"
    runs = _next_runs(scheduler)
    assert runs["heartbeat"] > 1_000  # changed: registered anew from now
    assert runs["email-sweep"] == 1_000  # unchanged: its due run kept
