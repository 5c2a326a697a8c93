"""The public extras through HTTP: the contact form (escaped, mailed to the team with the sender as reply-to, captcha
when set, 5 per 10 minutes), the live-chat identity, /collect forwarding, the changelog (automation token, documented
change types, signed-in reading, the "what's new" page) and the legal pages in both languages."""

from __future__ import annotations

import hashlib
import hmac
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from tests.conftest import csrf_token_from, outbox

MESSAGE = {
    "name": "Kemal <b>Usta</b>",
    "email": "Kemal@Example.com",
    "message": "<script>alert(1)</script> Clio filtresi?",
}


def test_a_contact_message_is_escaped_and_mailed_to_the_team_with_the_sender_as_reply_to(app, client, monkeypatch):
    monkeypatch.setitem(app.config, "CONTACT_EMAIL", "ekip@parcabul.example")

    answer = client.post("/api/contact", json=MESSAGE)

    assert answer.status_code == 201 and answer.get_json() == {"status": True}
    [mail] = outbox("contact_message")
    assert (mail.to_address, mail.reply_to) == ("ekip@parcabul.example", "kemal@example.com")
    assert "<script>" not in mail.body_text and "&lt;script&gt;" in mail.body_text
    assert "<script>" not in mail.body_html and "<b>Usta" not in mail.subject


def test_the_contact_throttle_refuses_the_sixth_message_in_ten_minutes(client):
    answers = [client.post("/api/contact", json=MESSAGE).status_code for _ in range(6)]

    assert answers == [201] * 5 + [429]
    assert len(outbox("contact_message")) == 5


@pytest.mark.parametrize(
    ("change", "code"),
    [({"email": "değil"}, 400), ({"message": "kısa"}, 400), ({"name": ""}, 400), ({"message": "x" * 5001}, 400)],
)
def test_a_bad_contact_message_is_refused_in_turkish(client, change, code):
    answer = client.post("/api/contact", json={**MESSAGE, **change})

    assert answer.status_code == code and answer.get_json()["error"]["message"]
    assert outbox("contact_message") == []


def test_the_captcha_is_checked_when_a_secret_is_set(app, client, monkeypatch):
    monkeypatch.setitem(app.config, "CAPTCHA_SECRET", "secret")

    assert client.post("/api/contact", json=MESSAGE).get_json()["error"]["code"] == "captcha_required"


def test_the_contact_page_sends_the_form(client):
    page = client.get("/contact").get_data(as_text=True)
    data = {**MESSAGE, "csrf_token": csrf_token_from(page)}

    sent = client.post("/contact", data=data)

    assert "Bize yazın" in page and sent.status_code == 303
    assert "İletiniz yola çıktı" in client.get("/contact").get_data(as_text=True)
    assert len(outbox("contact_message")) == 1


def test_the_livechat_identity_is_the_user_id_s_hmac_and_nothing_without_a_secret(app, client, create_user, sign_in):
    user = create_user()
    sign_in(user.email)

    off = client.get("/api/livechat/identity").get_json()
    app.config["LIVECHAT_IDENTITY_SECRET"] = "sohbet-gizli"
    try:
        on = client.get("/api/livechat/identity").get_json()
    finally:
        app.config["LIVECHAT_IDENTITY_SECRET"] = ""

    expected = hmac.new(b"sohbet-gizli", str(user.id).encode(), hashlib.sha256).hexdigest()
    assert off == {"enabled": False, "userId": None, "hash": None}
    assert on == {"enabled": True, "userId": str(user.id), "hash": expected}
    assert app.test_client().get("/api/livechat/identity").status_code == 401


class Collector(BaseHTTPRequestHandler):
    received: list[tuple[str, bytes]] = []

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        Collector.received.append((self.path, body))
        self.send_response(200)
        self.end_headers()

    def log_message(self, *_args) -> None:
        pass


def test_collect_forwards_the_body_without_keeping_the_visitor_waiting(app, client, monkeypatch):
    server = ThreadingHTTPServer(("127.0.0.1", 0), Collector)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    Collector.received = []
    try:
        assert client.post("/collect/abc", data=b"{}").status_code == 204  # no collector set: dropped
        monkeypatch.setitem(app.config, "COLLECT_UPSTREAM_URL", f"http://127.0.0.1:{server.server_port}/ingest")
        answer = client.post("/collect/frontend-1", data=b'{"event":"error"}', content_type="application/json")
        too_big = client.post("/collect/frontend-1", data=b"x" * (64 * 1024 + 1))
        bad_id = client.post("/collect/not.an.id", data=b"{}")
        for _ in range(50):
            if Collector.received:
                break
            time.sleep(0.05)
    finally:
        server.shutdown()
        server.server_close()

    assert answer.status_code == 204 and too_big.status_code == 413 and bad_id.status_code == 404
    assert Collector.received == [("/ingest/frontend-1", b'{"event":"error"}')]


TOKEN = "degisiklik-otomasyonu"


def test_the_changelog_is_written_by_the_automation_and_read_by_signed_in_users(
    app, client, create_user, sign_in, monkeypatch
):
    monkeypatch.setitem(app.config, "CHANGELOG_AUTOMATION_TOKEN", TOKEN)
    entry = {"title": "Tarayıcıdan katalog gezme", "body": "Şasi numarası olmadan", "changeType": "feature"}
    headers = {"X-Automation-Token": TOKEN}

    created = client.post("/api/changelog/internal", json=entry, headers=headers)
    wrong_type = client.post("/api/changelog/internal", json={**entry, "changeType": "misc"}, headers=headers)
    forged = client.post("/api/changelog/internal", json=entry, headers={"X-Automation-Token": TOKEN + "x"})
    missing = client.post("/api/changelog/internal", json=entry)

    assert created.status_code == 201 and created.get_json()["entry"]["changeType"] == "feature"
    assert wrong_type.status_code == 400 and "feature" in wrong_type.get_json()["error"]["message"]
    assert forged.status_code == missing.status_code == 401
    assert client.get("/api/changelog").status_code == 401
    sign_in(create_user().email)
    listed = client.get("/api/changelog").get_json()
    assert [item["title"] for item in listed["items"]] == ["Tarayıcıdan katalog gezme"]
    page = client.get("/whats-new").get_data(as_text=True)
    assert "Tarayıcıdan katalog gezme" in page and "Yeni" in page


def test_the_changelog_refuses_every_call_without_a_configured_token(client):
    assert client.post("/api/changelog/internal", json={"title": "x", "changeType": "fix"}).status_code == 401


@pytest.mark.parametrize(("path", "turkish", "english"), [
    ("/privacy", "Kişisel Verilerin Korunması Kanunu", "Personal Data Protection Law"),
    ("/terms", "Kullanım Koşulları", "Terms of use"),
    ("/cookies", "Çerez Bildirimi", "Cookie notice"),
])  # fmt: skip
def test_the_legal_pages_are_public_in_both_languages_and_linked(client, path, turkish, english):
    in_turkish = client.get(path).get_data(as_text=True)
    english_client = client.application.test_client()
    english_client.set_cookie("lang", "en")
    in_english = english_client.get(path).get_data(as_text=True)

    assert turkish in in_turkish and english in in_english
    assert f'href="{path}"' in client.get("/").get_data(as_text=True)
    if path != "/cookies":
        assert f'href="{path}"' in client.get("/register").get_data(as_text=True)
