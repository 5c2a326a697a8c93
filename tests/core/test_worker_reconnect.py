"""The RQ worker and the scheduler wait out a Redis outage and carry on: run as `python worker.py [scheduler]`
against a real redis-server that the test stops, crashes and starts again."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from rq import Queue
from rq.job import Job, JobStatus

from tests.support.processes import Process, wait_until
from tests.support.redis_server import redis_server  # noqa: F401 - fixture used here

pytestmark = pytest.mark.no_isolation  # the processes use their own Redis, and no database rows

START_SECONDS = 30  # the process imports and builds the whole app first
RECOVER_SECONDS = 20


def process_env(tmp_path: Path, redis_url: str) -> dict[str, str]:
    return {
        "REDIS_URL": redis_url,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'unused.sqlite3'}",
        "SECRET_KEY": "test",
        "AUTH_SECRET": "test",
        "LOG_LEVEL": "INFO",
        "SCHEDULER_INTERVAL_SECONDS": "1",
    }


@pytest.fixture
def start(tmp_path, redis_server):  # noqa: F811
    """Start `python worker.py *args` on the test's Redis; stopped at the end."""
    started = []

    def run(*args: str) -> Process:
        log_path = tmp_path / f"process-{len(started)}.log"
        process = Process(["worker.py", *args], process_env(tmp_path, redis_server.url), log_path)
        started.append(process)
        return process

    yield run
    for process in started:
        process.stop()


def runs(path: Path) -> list[str]:
    return sorted(path.read_text().split()) if path.exists() else []


def enqueue(server, path: Path, label: str) -> None:
    Queue("default", connection=server.client()).enqueue(
        "tests.support.outage_jobs.note", str(path), label, job_id=f"outage-{label}"
    )


def test_the_worker_waits_out_outages_and_runs_the_jobs_queued_before_and_after(tmp_path, redis_server, start):  # noqa: F811
    done = tmp_path / "runs.txt"
    for label in ("a", "b", "c"):
        enqueue(redis_server, done, label)
    redis_server.stop()  # saved to disk, as Redis with AOF keeps its queues across a restart

    worker = start()
    wait_until(lambda: "Redis is not answering" in worker.output(), START_SECONDS, "the worker says Redis is down")
    assert worker.alive
    redis_server.start()
    wait_until(lambda: runs(done) == ["a", "b", "c"], RECOVER_SECONDS, "the jobs queued before the outage ran")

    logged = len(worker.output())
    redis_server.kill()  # a crash while the worker waits for jobs: the new Redis starts empty
    wait_until(lambda: "Redis" in worker.output()[logged:], RECOVER_SECONDS, "the loss is logged")
    assert worker.alive
    redis_server.start()
    enqueue(redis_server, done, "d")

    wait_until(lambda: runs(done) == ["a", "b", "c", "d"], RECOVER_SECONDS, "a job queued after the crash ran")
    assert worker.alive


def test_a_job_ending_during_an_outage_is_recorded_when_redis_returns_and_runs_once(tmp_path, redis_server, start):  # noqa: F811
    done = tmp_path / "runs.txt"
    worker = start()
    Queue("default", connection=redis_server.client()).enqueue(
        "tests.support.outage_jobs.slow_note", str(done), "slow", 1, job_id="outage-slow"
    )
    enqueue(redis_server, done, "next")
    wait_until(lambda: "slow-started" in runs(done), START_SECONDS, "the slow job started")

    redis_server.stop()  # while the job runs; saved to disk, as AOF would
    wait_until(lambda: "slow" in runs(done), RECOVER_SECONDS, "the slow job ended while Redis was down")
    redis_server.start()

    wait_until(lambda: runs(done) == ["next", "slow", "slow-started"], RECOVER_SECONDS, "both jobs ran")
    assert Job.fetch("outage-slow", connection=redis_server.client()).get_status() == JobStatus.FINISHED
    time.sleep(1.5)
    assert runs(done) == ["next", "slow", "slow-started"]  # neither ran twice
    assert worker.alive


def test_the_scheduler_waits_out_outages_and_registers_its_schedule_again(tmp_path, redis_server, start):  # noqa: F811
    scheduler = start("scheduler")
    scheduled = lambda: redis_server.client().zcard("rq:scheduler:scheduled_jobs")  # noqa: E731
    wait_until(scheduled, START_SECONDS, "the schedule is registered")

    redis_server.client().flushall()  # an emptied Redis that never went away: only the schedule is missing
    wait_until(scheduled, RECOVER_SECONDS, "the schedule is registered again")
    assert "registering it again" in scheduler.output()

    redis_server.kill()
    wait_until(lambda: "Redis is not answering" in scheduler.output(), RECOVER_SECONDS, "the loss is logged")
    assert scheduler.alive
    redis_server.start()
    wait_until(scheduled, RECOVER_SECONDS, "the schedule is registered once more")
    assert scheduler.alive
    assert scheduler.stop() == 0
