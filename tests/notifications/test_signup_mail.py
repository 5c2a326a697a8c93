"""Done-when of the mail transport, with committed data and a real RQ worker (forked work horses) on both backends:
the verification mail of a sign-up through HTTP arrives at an SMTP server and its link verifies the account; two
workers sending the same message at once send it once; the admins' mailbox page shows what arrived."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest
import sqlalchemy as sa

import worker
from app.accounts.models import User
from app.extensions import db, redis_store
from app.notifications import tasks
from app.notifications.models import OutboxEmail
from app.notifications.services import send_email
from tests.conftest import csrf_token_from

pytestmark = pytest.mark.no_isolation

EMAIL = "mail.test@example.com"


@pytest.fixture
def clean(app) -> Iterator[None]:
    """Committed rows of these tests removed afterwards, and Redis emptied around them."""
    with app.app_context():
        redis_store.client.flushdb()
    yield
    with app.app_context():
        db.session.execute(sa.delete(User).where(User.email.in_([EMAIL, "mail.admin@example.com"])))
        db.session.execute(sa.delete(OutboxEmail).where(OutboxEmail.to_address == EMAIL))
        db.session.commit()
        db.session.remove()
        redis_store.client.flushdb()


def test_the_verification_mail_of_a_sign_up_arrives_and_its_link_verifies(app, client, smtp, clean):
    server = smtp()
    answer = client.post(
        "/api/auth/sign-up/email", json={"name": "Mail Deneme", "email": EMAIL, "password": "yedek-parca-2026"}
    )
    assert answer.status_code == 201

    worker.run_worker(app, burst=True)

    mails = {mail["Subject"]: mail for mail in server.received()}
    assert set(mails) == {"E-posta adresinizi doğrulayın", "Parça Bul'a hoş geldiniz, Mail Deneme"}
    text = mails["E-posta adresinizi doğrulayın"].get_body(preferencelist=("plain",)).get_content()
    link = re.search(r"http://\S+/verify-email\?token=\S+", text).group()
    address = urlsplit(link)
    page = client.get(f"{address.path}?{address.query}")
    assert page.status_code == 200
    token = link.rpartition("token=")[2]
    confirmed = client.post("/verify-email", data={"token": token, "csrf_token": csrf_token_from(page.text)})
    assert confirmed.status_code == 303
    assert client.get("/api/auth/get-session").get_json()["user"]["emailVerified"] is True
    with app.app_context():
        statuses = db.session.scalars(sa.select(OutboxEmail.status).where(OutboxEmail.to_address == EMAIL)).all()
        assert statuses == ["sent", "sent"]


def test_two_workers_sending_one_message_at_once_send_it_once(app, smtp, clean):
    server = smtp(delay=0.5)  # the first worker is still talking to the server when the second starts
    with app.app_context():
        outbox_id = send_email(EMAIL, "welcome", name="Mail Deneme").id
        db.session.commit()
        db.session.remove()
    outcomes: list[str] = []

    def send() -> None:
        with app.app_context():
            outcomes.append(tasks.send_outbox(outbox_id))
            db.session.remove()

    workers = [threading.Thread(target=send) for _ in range(2)]
    for thread in workers:
        thread.start()
    for thread in workers:
        thread.join(timeout=30)

    assert sorted(outcomes) == ["not due", "sent"]
    assert len(server.received()) == 1 and server.handler.tries == 1


def test_the_admins_mailbox_shows_what_arrived_with_working_links(app, client, smtp, create_user, sign_in, clean):
    smtp()
    with app.app_context():
        outbox_id = send_email(
            EMAIL, "reset_password", name="Mail Deneme", link="http://localhost/reset-password?token=t1"
        ).id
        db.session.commit()
        assert tasks.send_outbox(outbox_id) == "sent"
        create_user(email="mail.admin@example.com", role="admin")
        db.session.remove()
    sign_in("mail.admin@example.com")

    listing = client.get("/admin/mail").get_data(as_text=True)
    name = re.search(r'href="/admin/mail/([0-9a-f-]+\.eml)"', listing).group(1)
    message = client.get(f"/admin/mail/{name}").get_data(as_text=True)

    assert "Şifrenizi sıfırlayın" in listing and "Gönderildi" in listing
    assert 'href="http://localhost/reset-password?token=t1"' in message and "Merhaba Mail Deneme" in message
    assert client.get("/admin/mail/..%2F..%2Fetc%2Fpasswd").status_code == 404
    assert client.get("/admin/mail/20260101000000000000-deadbeef.eml").status_code == 404
    with app.app_context():
        create_user(email=EMAIL)
        db.session.remove()
    sign_in(EMAIL)
    assert client.get("/admin/mail").status_code == 403
    assert client.get(f"/admin/mail/{name}").status_code == 403
