"""Background processes: `python worker.py` runs an RQ worker, `python worker.py scheduler` the periodic schedule.

Both outlive a Redis outage: they wait for Redis with backoff and carry on (app.core.reconnect), and every worker
process beats every few seconds so /api/health knows within seconds whether one runs (app.core.worker_beat).
"""

from __future__ import annotations

import logging
import os
import signal
import sys
import time
from collections.abc import Callable
from contextlib import suppress

import redis
from dotenv import load_dotenv
from rq import Worker
from rq.exceptions import StopRequested
from rq_scheduler import Scheduler

from app.core.jobs import Periodic
from app.core.reconnect import STOP, Backoff, keep_running

# Cron times are UTC. Each domain adds its periodic jobs here; their functions live in the domain's tasks.py (or,
# for a sweep of what another job left, its own module).
SCHEDULE = [
    Periodic(job_id="heartbeat", cron="* * * * *", func="app.core.tasks.heartbeat"),
    # Access ends at the end date anyway; this records it and starts scheduled downgrades within minutes.
    Periodic(job_id="billing-period-end", cron="*/5 * * * *", func="app.billing.tasks.end_periods"),
    # 09:00 in Istanbul (UTC+3, no daylight saving): trial-ending and win-back mails, once per subscription.
    Periodic(job_id="lifecycle-mail", cron="0 6 * * *", func="app.billing.tasks.lifecycle_mail"),
    # Stored vehicles whose catalog is incomplete (app.catalog.backfill: batch, backlog, cooldown, portal hours).
    Periodic(job_id="backfill-scan", cron="7 * * * *", func="app.catalog.tasks.backfill_scan", queue="prefetch"),
    # Mail whose job Redis lost (an outage when its transaction committed) goes out within a minute of its return.
    Periodic(job_id="email-sweep", cron="* * * * *", func="app.notifications.tasks.sweep_outbox", queue="email"),
    # Shelf imports whose job Redis lost are queued again within minutes; one stranded for hours fails, and says so.
    Periodic(job_id="shelf-import-sweep", cron="* * * * *", func="app.shelf.recovery.sweep"),
    # Suppliers' lists pulled from their URLs when due (one job per supplier at a time: its job id).
    Periodic(job_id="supplier-pull-sweep", cron="*/5 * * * *", func="app.suppliers.pulls.sweep"),
    # Supplier list imports whose job Redis lost, as the shelf's.
    Periodic(job_id="supplier-import-sweep", cron="* * * * *", func="app.suppliers.recovery.sweep"),
    # Part rows stored before the fit rules in force (a migration marked them) get their answer: the fit-recompute jobs.
    Periodic(job_id="fit-recompute-sweep", cron="*/5 * * * *", func="app.catalog.fit.recompute.sweep"),
    # The shops' activity entries past 12 months go, nightly (03:30 in Istanbul).
    Periodic(job_id="shop-activity-purge", cron="30 0 * * *", func="app.shops.tasks.purge_activity"),
    # TCMB publishes the day's rates at 15:30 in Istanbul on working days: fetch them at 15:40, and at 16:40 in case
    # the bulletin was late (the second run of the same bulletin changes nothing).
    Periodic(job_id="currency-rates", cron="40 12,13 * * 1-5", func="app.suppliers.currency.tasks.queue_fetch"),
]

log = logging.getLogger("worker")

# How long a work horse keeps trying to record its job's outcome in a Redis that went away as the job ended.
RECORD_WAIT_SECONDS = 60.0


class ReconnectingWorker(Worker):
    """An RQ worker whose stop request ends keep_running too, and which signs off quietly when Redis is gone."""

    # RQ retries a lost connection while waiting for jobs itself; wait no longer than keep_running would.
    max_connection_wait_time = Backoff.cap

    def request_stop(self, signum, frame):
        STOP.set()
        try:
            super().request_stop(signum, frame)
        except redis.RedisError:  # a busy worker records the request in Redis: gone, so stop now
            raise StopRequested() from None

    def _install_signal_handlers(self) -> None:
        super()._install_signal_handlers()
        if STOP.is_set():  # asked to stop before these handlers were in place: the loop stops before its first job
            self._stop_requested = True

    def monitor_work_horse(self, job, queue, execution) -> None:
        try:
            super().monitor_work_horse(job, queue, execution)
        except redis.RedisError:
            if self.horse_pid:
                self.wait_for_horse()  # let the job finish (it records itself) rather than leave its process behind
            raise

    # These two run in the work horse as its job ends: a Redis that blinked then must not lose the job's outcome.
    def _finalize_success(self, job, queue, execution, return_value) -> None:
        finalize = super()._finalize_success
        record_when_redis_returns(f"job {job.id}", lambda: finalize(job, queue, execution, return_value))

    def _finalize_failure(self, job, queue, execution, exc_info) -> None:
        finalize = super()._finalize_failure
        record_when_redis_returns(f"job {job.id}", lambda: finalize(job, queue, execution, exc_info))

    def teardown(self) -> None:
        try:
            super().teardown()
        except redis.RedisError as error:
            log.warning("worker %s: could not sign off in Redis (%s)", self.name, error)
            if self.pubsub_thread is not None:
                self.pubsub_thread.stop()


def record_when_redis_returns(what: str, record: Callable[[], None]) -> None:
    """Call `record`, again with backoff while Redis does not answer, for up to RECORD_WAIT_SECONDS; then give up
    (RQ's clean-up then treats the job as abandoned and retries it if it has retries left)."""
    backoff, deadline = Backoff(first=0.2, cap=2.0), time.monotonic() + RECORD_WAIT_SECONDS
    while True:
        try:
            return record()
        except redis.RedisError as error:
            if time.monotonic() > deadline:
                raise
            delay = backoff.next_delay()
            log.warning("%s: outcome not recorded (%s); trying again in %.1f s", what, error, delay)
            time.sleep(delay)


class ReconnectingScheduler(Scheduler):
    """rq-scheduler that registers its schedule again when Redis lost it, and whose stop ends keep_running too."""

    def __init__(self, *args, schedule: list[Periodic], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.schedule = schedule

    def enqueue_jobs(self):
        if self._schedule_lost():
            log.warning("scheduler: the schedule is gone from Redis (a new or emptied Redis); registering it again")
            register_schedule(self, self.schedule)
        return super().enqueue_jobs()

    def _schedule_lost(self) -> bool:
        job_ids = [entry.job_id for entry in self.schedule]
        return bool(job_ids) and None in self.connection.zmscore(self.scheduled_jobs_key, job_ids)

    def _install_signal_handlers(self) -> None:
        def stop(_signum, _frame):
            STOP.set()
            with suppress(redis.RedisError):
                self.register_death()
                self.remove_lock()
            raise SystemExit()

        signal.signal(signal.SIGINT, stop)
        signal.signal(signal.SIGTERM, stop)
        if STOP.is_set():  # asked to stop while registering (before these handlers were in place): stop now
            stop(signal.SIGTERM, None)


def run_worker(app, burst: bool = False) -> bool:
    """Drain every queue in priority order; jobs run in a forked work horse inside this app's context."""
    from app.core.redis_store import make_client
    from app.core.worker_beat import WorkerBeat
    from app.extensions import db, redis_store
    from app.storage import storage_for

    with app.app_context():
        # A forked work horse must not reuse the parent's database connections.
        os.register_at_fork(after_in_child=lambda: db.engine.dispose(close=False))
        # Built here once, the picture storage (on S3: boto3 and a client, a second or more to load) is inherited by
        # every job's work horse instead of being built again in each; it has opened no connection yet.
        storage_for(app)
        if burst:
            return _work(burst=True)
        _queue_at_start_up()
        config = app.config
        beat_client = make_client(config["REDIS_URL"], config["REDIS_CONNECT_TIMEOUT"], config["REDIS_SOCKET_TIMEOUT"])
        beat = WorkerBeat(lambda: beat_client).start()
        try:
            keep_running("worker", _work, redis_store.client)
        finally:
            beat.stop()
        return True


def _queue_at_start_up() -> None:
    """What a starting worker queues without waiting for the scheduler: part rows waiting for their fit answer, and
    the day's currency rates when none were fetched today."""
    from app.catalog.fit.recompute import queue_when_pending
    from app.suppliers.currency.tasks import queue_when_missing

    queue_when_pending()
    queue_when_missing()


def _work(burst: bool = False) -> bool:
    from app.extensions import queues, redis_store

    # Maintenance also restarts RQ's own scheduler (retries, delayed jobs) if an outage ended it: every minute, not 10.
    worker = ReconnectingWorker(queues.all(), connection=redis_store.client, maintenance_interval=60)
    return worker.work(burst=burst, with_scheduler=True)


def register_schedule(scheduler, schedule: list[Periodic]) -> None:
    """Make the scheduler's periodic jobs exactly `schedule`, never leaving a stale or double entry.

    An entry already registered as it is keeps its next run time: a scheduler that starts or restarts (or a second
    one) while a run is due must not move that run to the next period (a daily mail would skip a day).
    """
    wanted = {entry.job_id: entry for entry in schedule}
    kept = set()
    for job in scheduler.get_jobs():
        if not job.meta.get("periodic"):
            continue
        entry = wanted.get(job.id)
        if entry is not None and job.meta.get("signature") == _signature(entry):
            kept.add(job.id)
        else:
            scheduler.cancel(job)
    for entry in schedule:
        if entry.job_id in kept:
            continue
        scheduler.cron(
            entry.cron,
            func=entry.func,
            args=list(entry.args),
            id=entry.job_id,
            queue_name=entry.queue,
            result_ttl=entry.result_ttl,
            meta={"periodic": True, "signature": _signature(entry)},
        )


def _signature(entry: Periodic) -> str:
    return repr((entry.cron, entry.func, list(entry.args), entry.queue, entry.result_ttl))


def run_scheduler(app, interval: float | None = None) -> None:
    """Enqueue the periodic jobs when due, every `interval` seconds (SCHEDULER_INTERVAL_SECONDS), through outages."""
    from app.extensions import redis_store

    interval = interval or app.config["SCHEDULER_INTERVAL_SECONDS"]
    with app.app_context():
        keep_running("scheduler", lambda: _schedule(interval), redis_store.client)


def _schedule(interval: float) -> None:
    from app.extensions import queues, redis_store

    scheduler = ReconnectingScheduler(
        queue=queues.get("default"), connection=redis_store.client, interval=interval, schedule=SCHEDULE
    )
    register_schedule(scheduler, SCHEDULE)
    scheduler.run()


def main(argv: list[str]) -> int:
    load_dotenv()
    from app import create_app_or_exit

    app = create_app_or_exit()
    if argv[:1] == ["scheduler"]:
        run_scheduler(app)
        return 0
    run_worker(app, burst="--burst" in argv)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
