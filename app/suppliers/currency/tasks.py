"""The TCMB rates job: the scheduler queues it on working days after the 15:30 bulletin, a starting worker when
nothing was fetched today. A failed fetch changes nothing (the last rates stay in use) and is retried by RQ; a second
run on the same bulletin updates the same rows, so running it twice has the effect of running it once."""

from __future__ import annotations

import logging

import sqlalchemy as sa
from flask import current_app
from redis.exceptions import RedisError
from rq import Retry

from app.extensions import db, queues
from app.sources.tcmb import TcmbError, fetch_bulletin
from app.suppliers.currency import services

log = logging.getLogger(__name__)

QUEUE = "default"
JOB_ID = "currency-rates-fetch"
RETRY = Retry(max=4, interval=[60, 300, 900, 1800])


def fetch_rates() -> int:
    """Fetch today's bulletin and store its rates; returns how many. TcmbError (retried) leaves the stored ones."""
    config = current_app.config
    try:
        bulletin = fetch_bulletin(config["TCMB_RATES_URL"], config["TCMB_TIMEOUT_MS"] / 1000)
    except TcmbError as error:
        log.warning("TCMB rates not fetched, the last ones stay: %s", error)
        raise
    stored = services.store_bulletin(bulletin)
    db.session.commit()
    log.info("TCMB rates of %s stored: %d currencies", bulletin.day, stored)
    return stored


def queue_fetch() -> str | None:
    """Queue `fetch_rates` with its retries, unless one is already queued or running; the scheduler's entry."""
    if not queues.free_id(QUEUE, JOB_ID):
        return None
    queues.enqueue(QUEUE, fetch_rates, job_id=JOB_ID, retry=RETRY)
    return JOB_ID


def queue_when_missing() -> None:
    """At a worker's start: queue the fetch when no rate was fetched today (Redis or the database away: the
    scheduler's run fetches them later)."""
    try:
        if not services.fetched_on(services.istanbul_today()):
            queue_fetch()
        db.session.commit()  # no transaction left open in a process that forks work horses
    except (RedisError, sa.exc.SQLAlchemyError) as error:
        db.session.rollback()
        log.warning("TCMB rates not queued at start-up: %s", error)
