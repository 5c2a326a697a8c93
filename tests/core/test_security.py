"""Response security policy and CSRF protection."""

import re

from app.core.security import THEME_SCRIPT, script_hash
from tests.conftest import csrf_token_from


def _csp(response) -> dict[str, list[str]]:
    directives = {}
    for part in response.headers["Content-Security-Policy"].split(";"):
        name, *values = part.split()
        directives[name] = values
    return directives


def test_csp_allows_configured_hosts_in_their_directives(make_app):
    app = make_app(
        STORAGE_URL="https://cdn.parcabul.test",
        ANALYTICS_HOST="https://eu.analytics.test",
        LIVECHAT_HOST="https://chat.livechat.test",
        LIVECHAT_WS_HOST="wss://ws.livechat.test",
        CAPTCHA_HOST="https://captcha.test",
        ERROR_TRACKING_HOST="https://o1.ingest.errors.test",
    )
    csp = _csp(app.test_client().get("/"))

    assert csp["default-src"] == ["'self'"]
    assert csp["img-src"] == ["'self'", "data:", "https://cdn.parcabul.test"]
    assert csp["media-src"] == ["'self'", "data:"]
    third_party = [
        "https://eu.analytics.test",
        "https://chat.livechat.test",
        "https://captcha.test",
        "https://o1.ingest.errors.test",
    ]
    assert csp["script-src"] == ["'self'", script_hash(THEME_SCRIPT), *third_party]
    assert csp["connect-src"] == ["'self'", "https://cdn.parcabul.test", *third_party, "wss://ws.livechat.test"]
    assert csp["frame-src"] == third_party
    assert csp["object-src"] == ["'none'"]
    assert csp["frame-ancestors"] == ["'none'"]
    assert "'unsafe-inline'" not in " ".join(csp["script-src"] + csp["style-src"])


def test_csp_without_third_parties_allows_only_this_site(client):
    csp = _csp(client.get("/"))

    assert csp["script-src"] == ["'self'", script_hash(THEME_SCRIPT)]
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


def test_api_csrf_refusal_uses_the_json_error_shape(make_app):
    from flask import Blueprint

    app = make_app()
    writes = Blueprint("writes", __name__)
    writes.post("/api/test/write")(lambda: {"ok": True})
    app.register_blueprint(writes)

    response = app.test_client().post("/api/test/write", json={}, headers={"Accept-Language": "en"})

    assert response.status_code == 403
    assert response.get_json()["error"]["code"] == "csrf_failed"
    assert response.get_json()["error"]["message"].startswith("Your form has expired")
