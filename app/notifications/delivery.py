"""Sending the outbox: each message goes out once, by the `email` job, and its row says how it went.

A message's row is written in the transaction of the change that caused it; when that transaction commits, its job
is queued (`email-<id>-<attempt>`). The job claims the row with one conditional UPDATE (pending and due, or a claim
older than CLAIM_TIMEOUT that a dead worker left), so two workers, or a job and the sweep, never both send it. A
temporary failure puts it back to pending with the next attempt's time and queues that attempt; a permanent refusal,
or the last attempt, marks it failed. Every attempt carries the same Message-ID, so in the one case a send cannot be
known (a worker that died after the server took the message, before the row said so), a receiver can drop the
repeat. The minute sweep queues what Redis lost (an outage at commit time, a missed delayed job).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial

import sqlalchemy as sa
from flask import current_app
from redis.exceptions import RedisError

from app.core.after_commit import after_commit
from app.core.db import begin_writes, utcnow
from app.extensions import db, queues
from app.notifications import transport
from app.notifications.models import EmailAttachment, OutboxEmail

log = logging.getLogger(__name__)

JOB = "app.notifications.tasks.send_outbox"
CLAIM_TIMEOUT = timedelta(minutes=10)  # far above an SMTP conversation's timeout
SWEEP_GRACE = timedelta(seconds=30)  # a new row's own job comes first
SWEEP_BATCH = 200


@dataclass(frozen=True)
class Claimed:
    id: int
    attempt: int
    claimed_at: datetime
    mail: transport.Outgoing


def configured() -> bool:
    return bool(current_app.config.get("MAIL_URL"))


def queue_after_commit(outbox_id: int) -> None:
    """Queue the message's job once the caller's transaction commits (never for a transaction that rolls back)."""
    if configured():
        after_commit(partial(queue, outbox_id, attempt=1))


def queue(outbox_id: int, attempt: int, delay: timedelta | None = None, tag: str = "") -> bool:
    """Queue the send job; False when Redis is away (the sweep queues the row when it is back)."""
    job_id = f"email-{outbox_id}-{attempt}{tag}"
    try:
        if delay:
            queues.get("email").enqueue_in(delay, JOB, outbox_id, job_id=job_id)
        else:
            queues.enqueue("email", JOB, outbox_id, job_id=job_id)
    except RedisError as error:
        log.warning("e-mail %s not queued (%s): the outbox sweep will queue it", outbox_id, error)
        return False
    return True


def deliver(outbox_id: int) -> str:
    """The job: claim the message, send it, record how it went. Returns what happened, for the job's result."""
    if not configured():
        return "no transport"  # the row stays pending until MAIL_URL is set
    server = transport.SmtpServer.from_url(current_app.config["MAIL_URL"])
    claimed = _claim(outbox_id, utcnow())
    if claimed is None:
        return "not due"  # sent, failed, waiting for its next attempt, or being sent by another worker
    try:
        transport.send(server, claimed.mail, timeout=current_app.config["MAIL_TIMEOUT_SECONDS"])
    except transport.TemporaryMailError as error:
        return _retry_or_fail(claimed, str(error))
    except transport.PermanentMailError as error:
        _finish(claimed, status="failed", last_error=str(error), failed_at=utcnow())
        log.error("e-mail %s refused for good: %s", outbox_id, error)
        return "failed"
    _finish(claimed, status="sent", sent_at=utcnow(), last_error=None)
    log.info("e-mail %s sent (attempt %s)", outbox_id, claimed.attempt)
    return "sent"


def _claim(outbox_id: int, now: datetime) -> Claimed | None:
    begin_writes(db.session)
    due = sa.or_(OutboxEmail.next_attempt_at.is_(None), OutboxEmail.next_attempt_at <= now)
    taken = db.session.execute(
        sa.update(OutboxEmail)
        .where(
            OutboxEmail.id == outbox_id,
            sa.or_(
                sa.and_(OutboxEmail.status == "pending", due),
                sa.and_(OutboxEmail.status == "sending", OutboxEmail.claimed_at < now - CLAIM_TIMEOUT),
            ),
        )
        .values(status="sending", claimed_at=now, attempts=OutboxEmail.attempts + 1)
        .execution_options(synchronize_session=False)
    ).rowcount
    if not taken:
        db.session.rollback()
        return None
    row = db.session.get(OutboxEmail, outbox_id, populate_existing=True)
    sender = current_app.config["MAIL_FROM"]
    claimed = Claimed(
        id=row.id,
        attempt=row.attempts,
        claimed_at=now,
        mail=transport.Outgoing(
            message_id=transport.message_id(row.id, row.created_at, sender),
            sender=sender,
            to=row.to_address,
            subject=row.subject,
            text=row.body_text,
            html=row.body_html,
            reply_to=row.reply_to,
            attachments=_attachments(row.id),
        ),
    )
    db.session.commit()
    return claimed


def _attachments(outbox_id: int) -> tuple[transport.Attachment, ...]:
    rows = db.session.scalars(
        sa.select(EmailAttachment).where(EmailAttachment.outbox_id == outbox_id).order_by(EmailAttachment.id)
    )
    return tuple(transport.Attachment(row.filename, row.content_type, row.data) for row in rows)


def _retry_or_fail(claimed: Claimed, error: str) -> str:
    if claimed.attempt >= current_app.config["MAIL_MAX_ATTEMPTS"]:
        _finish(claimed, status="failed", last_error=error, failed_at=utcnow())
        log.error("e-mail %s failed after %s attempts: %s", claimed.id, claimed.attempt, error)
        return "failed"
    delay = retry_delay(claimed.attempt)
    _finish(claimed, status="pending", last_error=error, next_attempt_at=utcnow() + delay)
    log.warning("e-mail %s: attempt %s failed (%s); next in %s", claimed.id, claimed.attempt, error, delay)
    queue(claimed.id, attempt=claimed.attempt + 1, delay=delay)
    return "retrying"


def retry_delay(attempt: int) -> timedelta:
    """The wait after the `attempt`-th failure: MAIL_RETRY_SECONDS in turn, its last value from then on."""
    delays = current_app.config["MAIL_RETRY_SECONDS"]
    return timedelta(seconds=delays[min(attempt, len(delays)) - 1])


def _finish(claimed: Claimed, **values: object) -> None:
    """Record the outcome of our own claim (a claim taken over after CLAIM_TIMEOUT is no longer ours to record)."""
    begin_writes(db.session)
    db.session.execute(
        sa.update(OutboxEmail)
        .where(
            OutboxEmail.id == claimed.id,
            OutboxEmail.status == "sending",
            OutboxEmail.claimed_at == claimed.claimed_at,
        )
        .values(**values)
        .execution_options(synchronize_session=False)
    )
    db.session.commit()


def sweep() -> int:
    """Queue every message that is due but has no job (Redis lost it, or was away at commit time)."""
    if not configured():
        return 0
    now = utcnow()
    due = sa.or_(OutboxEmail.next_attempt_at.is_(None), OutboxEmail.next_attempt_at <= now)
    rows = db.session.execute(
        sa.select(OutboxEmail.id, OutboxEmail.attempts)
        .where(
            sa.or_(
                sa.and_(OutboxEmail.status == "pending", due, OutboxEmail.created_at < now - SWEEP_GRACE),
                sa.and_(OutboxEmail.status == "sending", OutboxEmail.claimed_at < now - CLAIM_TIMEOUT),
            )
        )
        .order_by(OutboxEmail.id)
        .limit(SWEEP_BATCH)
    ).all()
    db.session.rollback()
    stamp = now.strftime("%Y%m%d%H%M")
    return sum(queue(outbox_id, attempt=attempts + 1, tag=f"-sweep{stamp}") for outbox_id, attempts in rows)
