"""Response security policy and CSRF protection."""

import re

import pytest

from app.core.security import THEME_SCRIPT, script_hash
from tests.conftest import csrf_token_from
from tests.support.csp import csp_directives


def test_csp_allows_configured_hosts_in_their_directives(make_app):
    app = make_app(
        STORAGE_URL="https://cdn.parcabul.test",
        ANALYTICS_HOST="https://eu.analytics.test",
        LIVECHAT_HOST="https://chat.livechat.test",
        LIVECHAT_WS_HOST="wss://ws.livechat.test",
        CAPTCHA_HOST="https://captcha.test",
        ERROR_TRACKING_HOST="https://o1.ingest.errors.test",
    )
    csp = csp_directives(app.test_client().get("/"))

    assert csp["default-src"] == ["'self'"]
    assert csp["img-src"] == ["'self'", "data:", "https://cdn.parcabul.test"]
    assert csp["media-src"] == ["'self'", "data:"]
    third_party = [
        "https://eu.analytics.test",
        "https://chat.livechat.test",
        "https://captcha.test",
        "https://o1.ingest.errors.test",
    ]
    assert csp["script-src"] == ["'self'", "'wasm-unsafe-eval'", script_hash(THEME_SCRIPT), *third_party]
    assert csp["connect-src"] == ["'self'", "https://cdn.parcabul.test", *third_party, "wss://ws.livechat.test"]
    assert csp["frame-src"] == third_party
    assert csp["object-src"] == ["'none'"]
    assert csp["form-action"] == ["'self'", "https://checkout.stripe.com"]
    assert csp["frame-ancestors"] == ["'none'"]
    assert "'unsafe-inline'" not in " ".join(csp["script-src"] + csp["style-src"])
    assert "'unsafe-eval'" not in csp["script-src"]  # WebAssembly's own keyword only, for the VIN scan's reader


def test_csp_without_third_parties_allows_only_this_site(client):
    csp = csp_directives(client.get("/"))

    assert csp["script-src"] == ["'self'", "'wasm-unsafe-eval'", script_hash(THEME_SCRIPT)]
    assert csp["connect-src"] == ["'self'"]
    assert csp["frame-src"] == ["'none'"]


def test_theme_script_hash_matches_the_inline_script_served(client):
    html = client.get("/").get_data(as_text=True)
    inline = re.findall(r"<script>(.*?)</script>", html, flags=re.S)

    assert inline == [THEME_SCRIPT]
    assert script_hash(inline[0]) in client.get("/").headers["Content-Security-Policy"]


def test_security_headers_are_set(client):
    response = client.get("/api/health")

    assert response.headers["X-Frame-Options"] == "DENY"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "strict-origin-when-cross-origin"


def test_forged_form_post_without_token_is_refused(client):
    client.get("/")  # the visitor has a cookie session

    response = client.post("/language", data={"lang": "en", "next": "/"})

    assert response.status_code == 403
    assert "Formun süresi dolmuş" in response.get_data(as_text=True)
    assert client.get_cookie("lang") is None


def test_forged_post_with_a_token_from_another_session_is_refused(app, client):
    other = app.test_client()
    foreign_token = csrf_token_from(other.get("/").get_data(as_text=True))
    client.get("/")

    response = client.post("/language", data={"lang": "en", "csrf_token": foreign_token})

    assert response.status_code == 403


def test_json_call_with_cookie_session_needs_the_csrf_header(client):
    token = csrf_token_from(client.get("/").get_data(as_text=True))

    refused = client.post("/language", json={"lang": "en"}, headers={"Accept-Language": "en"})
    accepted = client.post("/language", data={"lang": "en"}, headers={"X-CSRFToken": token})

    assert refused.status_code == 403
    assert accepted.status_code == 303


@pytest.fixture
def api_write_app(make_app):
    from flask import Blueprint

    from app.core.security import public

    app = make_app()
    writes = Blueprint("writes", __name__, url_prefix="/api/test")
    writes.post("/write")(public(lambda: {"ok": True}))
    app.register_blueprint(writes)
    return app


def test_cookie_api_call_without_site_origin_is_refused_in_the_json_shape(api_write_app):
    client = api_write_app.test_client()
    client.set_cookie("pb_session", "anything")

    response = client.post("/api/test/write", json={}, headers={"Accept-Language": "en"})

    assert response.status_code == 403
    assert response.get_json()["error"]["code"] == "csrf_failed"
    assert response.get_json()["error"]["message"].startswith("Your form has expired")


@pytest.mark.parametrize(
    ("content_type", "origin"),
    [
        ("application/x-www-form-urlencoded", "http://localhost"),
        ("text/plain", "http://localhost"),
        ("application/json", "http://evil.example"),
        ("application/json", "http://localhost.evil.example"),
    ],
)
def test_cookie_api_call_must_be_json_from_this_site(api_write_app, content_type, origin):
    client = api_write_app.test_client()
    client.set_cookie("pb_session", "anything")

    response = client.post("/api/test/write", data="{}", content_type=content_type, headers={"Origin": origin})

    assert response.status_code == 403


@pytest.mark.parametrize("header", ["Origin", "Referer"])
def test_cookie_api_call_from_this_site_passes(api_write_app, header):
    client = api_write_app.test_client()
    client.set_cookie("pb_session", "anything")
    value = "http://localhost" if header == "Origin" else "http://localhost/account"

    response = client.post("/api/test/write", json={}, headers={header: value})

    assert response.status_code == 200


def test_api_call_without_the_session_cookie_needs_no_origin(api_write_app):
    assert api_write_app.test_client().post("/api/test/write", json={}).status_code == 200
