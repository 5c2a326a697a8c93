"""The outbox's transport over real SMTP (aiosmtpd in the test process): each message out once with a plain-text and
an HTML part, temporary failures retried and then failed, permanent refusals failed at once, nothing queued for a
transaction that rolled back, and the sweep queueing what Redis lost."""

from __future__ import annotations

from datetime import timedelta

import sqlalchemy as sa

from app.core.db import utcnow
from app.extensions import db, queues
from app.notifications import tasks
from app.notifications.models import OutboxEmail
from app.notifications.services import send_email


def written(locale: str = "tr", **context: object) -> int:
    """A verification message in the outbox, committed (its job queued)."""
    context = {"name": "Ayşe", "link": "http://localhost/verify-email?token=abc", **context}
    message = send_email("ayse@example.com", "verify_email", locale=locale, **context)
    db.session.commit()
    return message.id


def row(outbox_id: int) -> OutboxEmail:
    return db.session.get(OutboxEmail, outbox_id, populate_existing=True)


def test_a_message_goes_out_once_with_a_text_and_an_html_part(app, smtp):
    server = smtp()
    outbox_id = written()

    first, again = tasks.send_outbox(outbox_id), tasks.send_outbox(outbox_id)

    assert (first, again) == ("sent", "not due")
    [mail] = server.received()
    assert mail["To"] == "ayse@example.com" and mail["Subject"] == "E-posta adresinizi doğrulayın"
    assert mail["Message-ID"].startswith(f"<outbox-{outbox_id}-")
    text = mail.get_body(preferencelist=("plain",)).get_content()
    html = mail.get_body(preferencelist=("html",)).get_content()
    assert "Merhaba Ayşe" in text and "http://localhost/verify-email?token=abc" in text
    assert 'href="http://localhost/verify-email?token=abc"' in html and '<html lang="tr">' in html
    stored = row(outbox_id)
    assert (stored.status, stored.attempts, stored.last_error) == ("sent", 1, None) and stored.sent_at is not None


def test_a_message_is_written_in_the_recipient_s_language(app, smtp):
    server = smtp()
    tasks.send_outbox(written(locale="en"))

    [mail] = server.received()
    assert mail["Subject"] == "Confirm your e-mail address"
    assert "Hello Ayşe" in mail.get_body(preferencelist=("plain",)).get_content()


def test_markup_in_the_context_is_escaped_in_the_html_part(app, smtp):
    server = smtp()
    tasks.send_outbox(written(name='<img src=x onerror="alert(1)">'))

    html = server.received()[0].get_body(preferencelist=("html",)).get_content()
    assert "<img" not in html and "&lt;img" in html


def test_temporary_failures_are_retried_and_then_the_message_is_failed(app, smtp):
    server = smtp(answers=("451 4.3.0 Try again later",) * 5)
    outbox_id = written()

    outcomes = [tasks.send_outbox(outbox_id) for _ in range(4)]

    assert outcomes == ["retrying", "retrying", "failed", "not due"]
    assert server.received() == [] and server.handler.tries == 3
    stored = row(outbox_id)
    assert (stored.status, stored.attempts) == ("failed", 3) and "451" in stored.last_error
    assert stored.failed_at is not None


def test_a_retry_that_gets_through_sends_the_message_once(app, smtp):
    server = smtp(answers=("421 4.7.0 Busy",))
    outbox_id = written()

    outcomes = [tasks.send_outbox(outbox_id) for _ in range(3)]

    assert outcomes == ["retrying", "sent", "not due"]
    assert len(server.received()) == 1 and row(outbox_id).attempts == 2


def test_a_permanent_refusal_fails_the_message_at_once(app, smtp):
    server = smtp(answers=("550 5.1.1 No such user",))
    outbox_id = written()

    assert tasks.send_outbox(outbox_id) == "failed"
    assert server.handler.tries == 1 and row(outbox_id).status == "failed" and "550" in row(outbox_id).last_error


def test_an_unreachable_server_is_a_temporary_failure(app, smtp, monkeypatch):
    server = smtp()
    server.catcher.stop()
    outbox_id = written()

    assert tasks.send_outbox(outbox_id) == "retrying"
    stored = row(outbox_id)
    assert stored.status == "pending" and "Connection" in stored.last_error


def test_a_message_waits_for_its_next_attempt(app, smtp, monkeypatch):
    server = smtp(answers=("451 4.3.0 Try again later",))
    monkeypatch.setitem(app.config, "MAIL_RETRY_SECONDS", (60,))
    outbox_id = written()

    assert tasks.send_outbox(outbox_id) == "retrying"
    assert tasks.send_outbox(outbox_id) == "not due"
    assert server.handler.tries == 1
    assert row(outbox_id).next_attempt_at > utcnow() + timedelta(seconds=50)


def test_a_committed_message_is_queued_and_a_rolled_back_one_is_not(app, smtp):
    smtp()
    kept = written()
    dropped = send_email("ayse@example.com", "welcome", name="Ayşe").id
    db.session.rollback()

    job_ids = queues.get("email").job_ids
    assert f"email-{kept}-1" in job_ids and f"email-{dropped}-1" not in job_ids


def test_without_a_transport_messages_wait_in_the_outbox(app):
    outbox_id = written()

    assert tasks.send_outbox(outbox_id) == "no transport"
    assert row(outbox_id).status == "pending" and queues.get("email").job_ids == []


def test_the_sweep_queues_what_redis_lost(app, smtp):
    server = smtp()
    outbox_id = written()
    queues.get("email").empty()  # Redis lost the job
    db.session.execute(
        sa.update(OutboxEmail).where(OutboxEmail.id == outbox_id).values(created_at=utcnow() - timedelta(minutes=2))
    )
    db.session.commit()

    tasks.sweep_outbox()
    ours = [job_id for job_id in queues.get("email").job_ids if job_id.startswith(f"email-{outbox_id}-")]
    assert len(ours) == 1 and ours[0].startswith(f"email-{outbox_id}-1-sweep") and ":" not in ours[0]
    assert tasks.send_outbox(outbox_id) == "sent" and len(server.received()) == 1
    queues.get("email").empty()
    tasks.sweep_outbox()
    assert not [job_id for job_id in queues.get("email").job_ids if job_id.startswith(f"email-{outbox_id}-")]
