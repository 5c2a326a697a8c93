"""Background processes: `python worker.py` runs an RQ worker, `python worker.py scheduler` the periodic schedule."""

from __future__ import annotations

import os
import sys

from dotenv import load_dotenv

from app.core.jobs import Periodic

# Cron times are UTC. Each domain adds its periodic jobs here; their functions live in the domain's tasks.py.
SCHEDULE = [
    Periodic(job_id="heartbeat", cron="* * * * *", func="app.core.tasks.heartbeat"),
]


def run_worker(app, burst: bool = False) -> bool:  # noqa: ANN001
    """Drain every queue in priority order; jobs run in a forked work horse inside this app's context."""
    from rq import Worker

    from app.extensions import db, queues, redis_store

    with app.app_context():
        # A forked work horse must not reuse the parent's database connections.
        os.register_at_fork(after_in_child=lambda: db.engine.dispose(close=False))
        worker = Worker(queues.all(), connection=redis_store.client)
        return worker.work(burst=burst, with_scheduler=True)


def register_schedule(scheduler, schedule: list[Periodic]) -> None:  # noqa: ANN001
    """Replace the scheduler's periodic jobs with `schedule`, so a restart never leaves a stale or double entry."""
    for job in scheduler.get_jobs():
        if job.meta.get("periodic"):
            scheduler.cancel(job)
    for entry in schedule:
        scheduler.cron(
            entry.cron,
            func=entry.func,
            args=list(entry.args),
            id=entry.job_id,
            queue_name=entry.queue,
            result_ttl=entry.result_ttl,
            meta={"periodic": True},
        )


def run_scheduler(app, interval: float = 10.0) -> None:  # noqa: ANN001
    from rq_scheduler import Scheduler

    from app.extensions import queues, redis_store

    with app.app_context():
        scheduler = Scheduler(queue=queues.get("default"), connection=redis_store.client, interval=interval)
        register_schedule(scheduler, SCHEDULE)
        scheduler.run()


def main(argv: list[str]) -> int:
    load_dotenv()
    from app import create_app

    app = create_app()
    if argv[:1] == ["scheduler"]:
        run_scheduler(app)
        return 0
    run_worker(app, burst="--burst" in argv)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
