"""Captcha on sign-up and sign-in when CAPTCHA_SECRET is set, checked with the provider's siteverify call."""

import json
import socket

import pytest
from werkzeug.wrappers import Request, Response

from app.core.loopback import LoopbackServer
from tests.conftest import PASSWORD, outbox

SECRET = "captcha-secret"
GOOD_TOKEN = "human-token"
SIGN_UP = {"name": "Ayşe Kaya", "email": "ayse@example.com", "password": "filtre-yag-2026"}


class FakeSiteverify:
    """Answers like Turnstile's siteverify: success only for our secret and the good token."""

    def __init__(self) -> None:
        self.calls: list[dict] = []
        self.server = LoopbackServer(self.wsgi, name="fake-siteverify").start()
        self.url = f"{self.server.url}/siteverify"

    @Request.application
    def wsgi(self, request: Request) -> Response:
        form = request.form.to_dict()
        self.calls.append(form)
        success = form.get("secret") == SECRET and form.get("response") == GOOD_TOKEN
        return Response(json.dumps({"success": success}), mimetype="application/json")


@pytest.fixture
def siteverify():
    fake = FakeSiteverify()
    yield fake
    fake.server.stop()


@pytest.fixture
def captcha_client(make_app, siteverify):
    return make_app(CAPTCHA_SECRET=SECRET, CAPTCHA_VERIFY_URL=siteverify.url).test_client()


def test_sign_up_without_captcha_header_is_refused_and_nothing_created(captcha_client, siteverify):
    response = captcha_client.post("/api/auth/sign-up/email", json=SIGN_UP)

    assert response.status_code == 400
    assert response.get_json()["error"] == {
        "code": "captcha_required",
        "message": "Lütfen güvenlik doğrulamasını tamamlayın.",
    }
    assert siteverify.calls == []
    assert outbox() == []


def test_sign_up_with_a_rejected_token_is_refused(captcha_client, siteverify):
    response = captcha_client.post("/api/auth/sign-up/email", json=SIGN_UP, headers={"x-captcha-response": "bot-token"})

    assert response.status_code == 403
    assert response.get_json()["error"]["code"] == "captcha_failed"
    assert captcha_client.post("/api/auth/email-exists", json={"email": SIGN_UP["email"]}).get_json() == {
        "exists": False
    }


def test_sign_up_with_a_confirmed_token_succeeds_and_the_provider_sees_secret_and_address(captcha_client, siteverify):
    response = captcha_client.post(
        "/api/auth/sign-up/email",
        json=SIGN_UP,
        headers={"x-captcha-response": GOOD_TOKEN},
        environ_base={"REMOTE_ADDR": "198.51.100.20"},
    )

    assert response.status_code == 201
    assert siteverify.calls == [{"secret": SECRET, "response": GOOD_TOKEN, "remoteip": "198.51.100.20"}]


def test_sign_in_is_checked_too(captcha_client, create_user):
    user = create_user()
    body = {"email": user.email, "password": PASSWORD}

    refused = captcha_client.post("/api/auth/sign-in/email", json=body)
    accepted = captcha_client.post("/api/auth/sign-in/email", json=body, headers={"x-captcha-response": GOOD_TOKEN})

    assert refused.status_code == 400
    assert accepted.status_code == 200


def test_provider_unreachable_is_503_and_nothing_created(make_app):
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        closed_port = sock.getsockname()[1]
    client = make_app(CAPTCHA_SECRET=SECRET, CAPTCHA_VERIFY_URL=f"http://127.0.0.1:{closed_port}/").test_client()

    response = client.post("/api/auth/sign-up/email", json=SIGN_UP, headers={"x-captcha-response": GOOD_TOKEN})

    assert response.status_code == 503
    assert response.get_json()["error"]["code"] == "captcha_unavailable"
    assert outbox() == []


def test_without_a_secret_no_captcha_is_asked(client):
    assert client.post("/api/auth/sign-up/email", json=SIGN_UP).status_code == 201
