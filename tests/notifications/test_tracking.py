"""Tracked calls to action: with TRACKING_SECRET set a message's call to action is a signed /t/<token> link that is
counted and redirects to its page; verification and reset links never are; a forged or altered token is refused and
nothing but a path of this site is ever a target."""

from __future__ import annotations

import base64
import hashlib
import hmac
import re

import pytest
import sqlalchemy as sa

from app.extensions import db
from app.notifications.models import EmailClick
from tests.conftest import outbox

SECRET = "tracking-test-secret"


@pytest.fixture
def tracked(app, monkeypatch):
    monkeypatch.setitem(app.config, "TRACKING_SECRET", SECRET)


def sign_up(client) -> None:
    body = {"name": "İzlenen Bayi", "email": "izlenen@example.com", "password": "yedek-parca-2026"}
    assert client.post("/api/auth/sign-up/email", json=body).status_code == 201


def signed(payload: str) -> str:
    """A token as the app makes it, for a payload the app would never sign (to prove the target rules hold anyway)."""
    mac = hmac.new(SECRET.encode(), payload.encode(), hashlib.sha256).digest()[:16]
    encode = lambda raw: base64.urlsafe_b64encode(raw).decode().rstrip("=")  # noqa: E731
    return f"{encode(payload.encode())}.{encode(mac)}"


def clicks() -> list[tuple[str, str]]:
    return [tuple(row) for row in db.session.execute(sa.select(EmailClick.template, EmailClick.path)).all()]


def test_a_call_to_action_is_a_counted_link_and_verification_links_stay_plain(client, tracked):
    sign_up(client)
    [welcome] = outbox("welcome")
    [verification] = outbox("verify_email")

    link = re.search(r"http://\S+/t/(\S+)", welcome.body_text)
    followed = client.get(f"/t/{link.group(1)}")

    assert followed.status_code == 302 and followed.headers["Location"] == "/vin"
    assert clicks() == [("welcome", "/vin")]
    assert "/t/" not in verification.body_text and "/verify-email?token=" in verification.body_text
    assert f'href="{link.group()}"' in welcome.body_html


def test_a_forged_or_altered_token_is_refused_and_not_counted(client, tracked):
    genuine = signed("welcome|/vin")
    encoded, _, mac = genuine.partition(".")
    altered_path = f"{signed('welcome|/plans').partition('.')[0]}.{mac}"
    forged = [
        altered_path,
        f"{encoded}.{'A' * 22}",
        f"{encoded}.{mac[:-1]}",
        "garbage",
        f"{'x' * 2000}.{mac}",
        signed("welcome|//evil.example/steal"),
        signed("welcome|https://evil.example"),
        signed("welcome|/\\evil.example"),
        signed("<b>|/vin"),
    ]

    for token in forged:
        refused = client.get(f"/t/{token}")
        assert refused.status_code == 404, token
        assert "Bu bağlantı geçersiz veya değiştirilmiş." in refused.get_data(as_text=True)
    assert clicks() == []
    assert client.get(f"/t/{genuine}").headers["Location"] == "/vin"


def test_without_a_secret_links_are_plain_and_no_token_is_taken(client):
    sign_up(client)

    assert "/t/" not in outbox("welcome")[0].body_text
    assert client.get(f"/t/{signed('welcome|/vin')}").status_code == 404
