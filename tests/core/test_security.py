"""Response security policy and CSRF protection."""

import re
import time
from datetime import timedelta

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


@pytest.mark.parametrize(
    ("origin", "status"),
    [
        ("https://xn--yedekpara-z4a.com.tr", 200),  # yedekparça.com.tr as a browser names it
        ("https://xn--yedekpara-z4a.com.tr/raf", 200),
        ("https://yedekparça.com.tr", 403),  # no browser sends it so
        ("https://xn--yedekpara-z4a.com.tr.evil.example", 403),
        ("http://xn--yedekpara-z4a.com.tr", 403),  # another scheme is another site
    ],
)
def test_a_turkish_domain_names_its_site_in_punycode(api_write_app, origin, status):
    client = api_write_app.test_client(use_cookies=False)  # its cookie jar would match the host decoded to Unicode
    response = client.post(
        "/api/test/write",
        json={},
        base_url="https://xn--yedekpara-z4a.com.tr",
        headers={"Origin": origin, "Cookie": "pb_session=anything"},
    )

    assert response.status_code == status


def test_api_call_without_the_session_cookie_needs_no_origin(api_write_app):
    assert api_write_app.test_client().post("/api/test/write", json={}).status_code == 200


# --- Flask's signed cookie session: each cookie verified once per process, its contents copied per request ----------


@pytest.fixture
def make_session_app(make_app):
    """An app with routes that start, read and change the cookie session (two hours' lifetime unless told)."""
    from flask import Blueprint, request, session

    from app.core.security import public

    def contents() -> dict:
        return {key: value for key, value in session.items() if not key.startswith("_")}  # Flask-Login's "_fresh"

    def build(**overrides):
        app = make_app(**{"PERMANENT_SESSION_LIFETIME": timedelta(hours=2), **overrides})
        routes = Blueprint("session_routes", __name__, url_prefix="/api/test/session")

        @routes.post("/start")
        @public
        def start():
            session.update(request.get_json() or {"seen": ["start"]})
            return contents()

        @routes.post("/read")
        @public
        def read():
            return contents()

        @routes.post("/add/<value>")
        @public
        def add(value):
            session["seen"].append(value)  # in place: Flask does not even notice the change
            session["last"] = value
            return contents()

        @routes.post("/rename/<value>")
        @public
        def rename(value):
            before, session["name"] = session.get("name"), value
            return {"before": before}

        app.register_blueprint(routes)
        return app

    return build


@pytest.fixture
def session_app(make_session_app):
    return make_session_app()


def session_cookie(app, contents: dict | None = None) -> str:
    """A browser's cookie session holding `contents` (else {"seen": ["start"]}), as the app set it."""
    client = app.test_client()
    client.post("/api/test/session/start", json=contents or {})
    return client.get_cookie("session").value


def read_with(app, cookie: str) -> dict:
    client = app.test_client()
    client.set_cookie("session", cookie)
    return client.post("/api/test/session/read", json={}).get_json()


def test_the_same_cookie_opens_the_same_session_on_every_request(session_app):
    cookie = session_cookie(session_app)

    assert [read_with(session_app, cookie) for _ in range(3)] == [{"seen": ["start"]}] * 3


@pytest.mark.parametrize("tamper", ["signature", "payload", "other key"])
def test_a_tampered_cookie_is_refused_after_the_genuine_one_was_opened(session_app, make_session_app, tamper):
    genuine = session_cookie(session_app)
    assert read_with(session_app, genuine) == {"seen": ["start"]}
    payload, timestamp, signature = genuine.split(".")
    if tamper == "other key":
        forged = session_cookie(make_session_app(SECRET_KEY="another-site's-key"))
    else:
        changed = {"signature": signature, "payload": payload}[tamper]
        other = changed[:-2] + ("AA" if changed[-2:] != "AA" else "BB")
        forged = genuine.replace(changed, other)

    assert read_with(session_app, forged) == {}
    assert read_with(session_app, genuine) == {"seen": ["start"]}


def test_a_new_secret_key_refuses_the_cookies_opened_under_the_old_one_unless_it_is_a_fallback(session_app):
    cookie = session_cookie(session_app)
    assert read_with(session_app, cookie) == {"seen": ["start"]}
    old_key = session_app.config["SECRET_KEY"]

    session_app.config["SECRET_KEY"] = "the-rotated-key"
    assert read_with(session_app, cookie) == {}

    session_app.config["SECRET_KEY_FALLBACKS"] = [old_key]
    assert read_with(session_app, cookie) == {"seen": ["start"]}


@pytest.mark.parametrize("opened_before", [False, True])
def test_a_session_cookie_older_than_the_session_lifetime_is_refused(session_app, opened_before):
    an_hour_ago = int(time.time()) - 3600
    serializer = session_app.session_interface.get_signing_serializer(session_app)
    signer = serializer.make_signer()
    signer.get_timestamp = lambda: an_hour_ago
    cookie = signer.sign(serializer.dump_payload({"seen": ["start"]})).decode()
    if opened_before:  # while the lifetime (two hours) allowed it
        assert read_with(session_app, cookie) == {"seen": ["start"]}

    session_app.config["PERMANENT_SESSION_LIFETIME"] = timedelta(minutes=30)

    assert read_with(session_app, cookie) == {}


def test_requests_that_change_the_same_session_do_not_see_each_others_changes(session_app):
    cookie = session_cookie(session_app)
    first, second = session_app.test_client(), session_app.test_client()
    first.set_cookie("session", cookie)
    second.set_cookie("session", cookie)

    changed_first = first.post("/api/test/session/add/first", json={}).get_json()
    changed_second = second.post("/api/test/session/add/second", json={}).get_json()

    assert changed_first == {"seen": ["start", "first"], "last": "first"}
    assert changed_second == {"seen": ["start", "second"], "last": "second"}
    assert read_with(session_app, cookie) == {"seen": ["start"]}


def test_requests_that_replace_a_value_of_the_same_session_do_not_see_each_others_values(session_app):
    cookie = session_cookie(session_app, {"name": "start"})
    first, second = session_app.test_client(), session_app.test_client()
    first.set_cookie("session", cookie)
    second.set_cookie("session", cookie)

    assert first.post("/api/test/session/rename/first", json={}).get_json() == {"before": "start"}
    assert second.post("/api/test/session/rename/second", json={}).get_json() == {"before": "start"}
    assert read_with(session_app, cookie) == {"name": "start"}
