"""The founder's user operations through HTTP: suspend, ban and reactivate with their refusals (same state, suspended
<-> banned, admins, unknown users, no token, no reason), sessions ended at once; read-only impersonation: the one-shot
link used once within 60 s, reads pass and writes are refused, the banner, admins never impersonated; all audited."""

from __future__ import annotations

from datetime import timedelta

import pytest
import sqlalchemy as sa

from app.auth.models import AuthSession
from app.core.db import utcnow
from app.extensions import db
from app.internal_admin import users
from app.internal_admin.guard import AUTH_HEADER
from app.internal_admin.models import AuditEntry
from tests.conftest import SITE

TOKEN = "internal-test-token-users"
BODY = {"reason": "Ödeme itirazı inceleniyor", "founderId": "kurucu-1"}
PREFIX = "/api/internal/admin/users"


@pytest.fixture(autouse=True)
def _internal_token(app, monkeypatch):
    monkeypatch.setitem(app.config, "INTERNAL_API_TOKEN", TOKEN)


def call(client, user_id, action: str, body: dict | None = BODY, token: str | None = TOKEN):
    headers = {AUTH_HEADER: token} if token else {}
    return client.post(f"{PREFIX}/{user_id}/{action}", json=body, headers=headers)


def sessions_of(user) -> int:
    return db.session.scalar(sa.select(sa.func.count()).select_from(AuthSession).where(AuthSession.user_id == user.id))


def test_a_suspended_user_is_signed_out_at_once_and_refused_in_turkish(app, client, create_user, sign_in):
    dealer = create_user()
    sign_in(dealer.email)
    assert client.get("/api/auth/get-session").get_json()["user"]["id"] == str(dealer.id)

    answer = call(app.test_client(), dealer.id, "suspend")  # the founder panel, server to server

    body = answer.get_json()
    assert answer.status_code == 200
    assert (body["from"], body["to"], body["sessionsKilled"]) == ("active", "suspended", 1)
    assert sessions_of(dealer) == 0
    assert client.get("/api/vehicles/history").status_code == 401
    refused = client.post("/api/auth/sign-in/email", json={"email": dealer.email, "password": "yedek-parca-2026"})
    assert refused.status_code in (401, 403)
    entry = db.session.scalar(sa.select(AuditEntry).where(AuditEntry.action == "user.suspend"))
    assert (entry.founder_id, entry.reason, entry.outcome) == ("kurucu-1", BODY["reason"], "ok")


def test_the_transitions_follow_the_spec(client, create_user):
    dealer = create_user()

    assert call(client, dealer.id, "reactivate").status_code == 409  # already active
    assert call(client, dealer.id, "ban").get_json()["to"] == "banned"
    assert call(client, dealer.id, "ban").status_code == 409  # same state
    assert call(client, dealer.id, "suspend").get_json()["error"]["code"] == "reactivate_first"
    back = call(client, dealer.id, "reactivate", body={"founderId": "kurucu-1"})  # no reason needed here
    assert back.status_code == 200 and (back.get_json()["from"], back.get_json()["to"]) == ("banned", "active")
    assert call(client, dealer.id, "suspend").get_json()["to"] == "suspended"


@pytest.mark.parametrize("action", ["suspend", "ban", "reactivate", "impersonate-readonly"])
def test_refusals_come_before_anything_is_written(client, create_user, action):
    admin, dealer = create_user(role="admin"), create_user()

    assert call(client, admin.id, action).status_code == 403
    assert call(client, "00000000-0000-0000-0000-000000000000", action).status_code == 404
    assert call(client, "not-a-uuid", action).status_code == 404
    assert call(client, dealer.id, action, token=None).status_code == 401
    assert call(client, dealer.id, action, token="wrong").status_code == 401
    assert call(client, dealer.id, action, body={"reason": "x"}).status_code == 400  # no founderId
    if action != "reactivate":
        assert call(client, dealer.id, action, body={"founderId": "kurucu-1"}).status_code == 400  # no reason
    db.session.expire_all()
    assert (admin.status, dealer.status) == ("active", "active") and sessions_of(dealer) == 0


def test_an_impersonation_link_opens_a_read_only_session_once(app, client, create_user):
    dealer = create_user(name="Sayın Bayi")

    opened = call(client, dealer.id, "impersonate-readonly", body={**BODY, "ttlMinutes": 500}).get_json()
    link = opened["redirectUrl"].removeprefix(app.config["BASE_URL"])
    first = client.get(link)
    page = client.get("/vin").get_data(as_text=True)
    write = client.post("/api/referrals/apply", json={"code": "ABCDEFGH"}, headers=SITE)
    second = app.test_client().get(link)

    assert first.status_code == 302 and first.headers["Location"] == "/"
    row = db.session.scalar(sa.select(AuthSession).where(AuthSession.id.startswith(opened["sessionIdPrefix"])))
    assert row.impersonation_readonly and row.impersonated_by == users.founder_uuid("kurucu-1")
    assert timedelta(minutes=59) < row.expires_at - utcnow() <= timedelta(minutes=60)  # clamped to 60
    assert "Sayın Bayi" in page and "salt okunur" in page
    assert write.status_code == 403 and write.get_json()["error"]["code"] == "read_only_session"
    assert client.get("/api/auth/get-session").get_json()["user"]["id"] == str(dealer.id)
    assert second.status_code == 400  # used once


def test_a_link_older_than_60_seconds_or_forged_is_refused(app, client, create_user, monkeypatch):
    dealer = create_user()
    opened = call(client, dealer.id, "impersonate-readonly").get_json()
    link = opened["redirectUrl"].removeprefix(app.config["BASE_URL"])
    token = link.partition("?t=")[2]
    encoded, _dot, mac = token.partition(".")

    forged = client.get(f"{users.CONSUME_PATH}?t={encoded}.{'A' * len(mac)}")
    garbage = client.get(f"{users.CONSUME_PATH}?t=%00%ff..")
    accented = client.get(f"{users.CONSUME_PATH}?t={encoded}.{'é' * len(mac)}")
    assert accented.status_code == 400
    later = utcnow() + timedelta(seconds=61)
    monkeypatch.setattr(users, "utcnow", lambda: later)
    expired = client.get(link)

    assert forged.status_code == garbage.status_code == expired.status_code == 400
    assert "Bu bağlantı geçersiz" in expired.get_data(as_text=True)


def test_ttl_must_be_a_whole_number_and_defaults_to_15_minutes(client, create_user):
    dealer = create_user()

    default = call(client, dealer.id, "impersonate-readonly").get_json()
    refused = call(client, dealer.id, "impersonate-readonly", body={**BODY, "ttlMinutes": "10"})

    row = db.session.scalar(sa.select(AuthSession).where(AuthSession.id.startswith(default["sessionIdPrefix"])))
    assert timedelta(minutes=14) < row.expires_at - utcnow() <= timedelta(minutes=15)
    assert refused.status_code == 400
