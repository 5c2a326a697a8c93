"""Guards, in order: authentication, impersonation read-only, roles; public routes are marked explicitly."""

import uuid

import pytest
from flask import url_for
from werkzeug.routing import IntegerConverter, UUIDConverter

from app.auth.sessions import COOKIE_NAME, create_session, sign
from app.extensions import db
from app.internal_admin.guard import AUTH_HEADER, URL_PREFIX
from tests.conftest import SITE, csrf_token_from


def _non_public_rules(app):
    for rule in app.url_map.iter_rules():
        view = app.view_functions[rule.endpoint]
        if rule.endpoint != "static" and not getattr(view, "is_public", False):
            yield rule


def _sample(rule, name, samples):
    converter = rule._converters[name]
    if name in samples:
        return samples[name]
    if isinstance(converter, UUIDConverter):
        return uuid.uuid4()
    return 1 if isinstance(converter, IntegerConverter) else "x"


def test_every_route_not_marked_public_needs_a_session(app, client):
    token = csrf_token_from(client.get("/").get_data(as_text=True))
    checked = 0
    samples = {"provider": "google", "payment_id": uuid.uuid4()}
    for rule in _non_public_rules(app):
        with app.test_request_context():
            path = url_for(rule.endpoint, **{name: _sample(rule, name, samples) for name in rule.arguments})
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            if path.startswith("/api/"):
                response = client.open(path, method=method, json={})
                assert response.status_code == 401, (method, path)
                assert response.get_json()["error"]["code"] == "unauthorized"
            else:
                response = client.open(path, method=method, data={"csrf_token": token})
                assert response.status_code in (302, 303), (method, path)
                assert "/login" in response.headers["Location"]
            checked += 1
    assert checked >= 5


def test_every_internal_route_needs_the_internal_token_instead_of_a_session(app, client, monkeypatch):
    """Internal routes pass the session guard (no session there) only because they demand X-Internal-Token."""
    monkeypatch.setitem(app.config, "INTERNAL_API_TOKEN", "walk-test-internal-token")
    checked = 0
    for rule in app.url_map.iter_rules():
        view = app.view_functions[rule.endpoint]
        if not rule.rule.startswith(URL_PREFIX + "/"):
            assert not getattr(view, "token_guarded", False), rule.rule
            continue
        assert getattr(view, "token_guarded", False), f"{rule.rule} is internal but not token-guarded"
        with app.test_request_context():
            path = url_for(rule.endpoint, **{name: _sample(rule, name, {}) for name in rule.arguments})
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            for headers in ({}, {AUTH_HEADER: "wrong-token"}, {AUTH_HEADER: ""}):
                response = client.open(path, method=method, json={}, headers=headers)
                assert response.status_code == 401, (method, path, headers)
                assert response.get_json()["error"]["code"] == "invalid_internal_token"
            checked += 1
    assert checked >= 2


def _impersonate(client, user, admin, readonly=True):
    row = create_session(user, persistent=False, impersonated_by=admin.id, readonly=readonly)
    db.session.commit()
    client.set_cookie(COOKIE_NAME, sign(row.id))
    return row


@pytest.fixture
def founder(create_user):
    return create_user(role="admin", email="kurucu@example.com")


def test_read_only_impersonation_lets_reads_through(client, create_user, founder):
    user = create_user()
    _impersonate(client, user, founder)

    session = client.get("/api/auth/get-session").get_json()

    assert session["user"]["email"] == user.email
    assert session["session"]["impersonatedBy"] == str(founder.id)
    assert session["session"]["impersonationReadonly"] is True
    assert client.get("/api/account/connections").status_code == 200
    assert client.head("/api/account/connections").status_code == 200
    assert client.options("/api/account/connections").status_code == 200


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("POST", "/api/account/change-password"),
        ("POST", "/api/account/delete"),
        ("DELETE", "/api/account/connections/google"),
        ("POST", "/api/auth/sign-out"),
        ("POST", "/api/auth/send-verification-email"),
    ],
)
def test_read_only_impersonation_refuses_every_change(client, create_user, founder, method, path):
    user = create_user()
    _impersonate(client, user, founder)

    response = client.open(path, method=method, json={"confirmation": "x"}, headers=SITE)

    assert response.status_code == 403
    assert response.get_json()["error"] == {
        "code": "read_only_session",
        "message": "Bu oturum salt okunur: değişiklik yapılamaz.",
    }
    assert client.get("/api/auth/get-session").get_json()["user"]["id"] == str(user.id)


def test_impersonation_that_is_not_read_only_may_write(client, create_user, founder):
    user = create_user()
    _impersonate(client, user, founder, readonly=False)

    assert client.post("/api/auth/sign-out", json={}, headers=SITE).status_code == 200


def test_authentication_is_checked_before_read_only(client, create_user, founder):
    suspended = create_user(status="suspended")
    _impersonate(client, suspended, founder)

    response = client.post("/api/account/change-password", json={}, headers=SITE)

    assert response.get_json()["error"]["code"] == "account_suspended"


def test_read_only_is_checked_before_roles(client, create_user, founder):
    user = create_user()
    _impersonate(client, user, founder)

    response = client.post("/api/admin/users", json={}, headers=SITE)

    assert response.get_json()["error"]["code"] == "read_only_session"


def test_roles_refuse_a_signed_in_user_without_the_role(client, create_user, sign_in):
    user = create_user()
    sign_in(user.email)

    response = client.post("/api/admin/users", json={}, headers=SITE)

    assert response.status_code == 403
    assert response.get_json()["error"]["code"] == "forbidden"


def test_anonymous_admin_call_is_401_not_403(client):
    assert client.post("/api/admin/users", json={}).status_code == 401


@pytest.mark.parametrize(
    ("status", "message"),
    [
        ("suspended", "Hesabınız askıya alındı. Lütfen destek ile iletişime geçin."),
        ("banned", "Hesabınız kapatıldı. Lütfen destek ile iletişime geçin."),
    ],
)
def test_a_live_session_of_a_user_who_became_inactive_is_refused_on_every_request(
    client, create_user, sign_in, status, message
):
    user = create_user()
    sign_in(user.email)
    user.status = status
    db.session.commit()

    api = client.get("/api/account/connections")
    public_api = client.get("/api/auth/get-session")
    page = client.get("/")

    assert api.status_code == public_api.status_code == page.status_code == 403
    assert api.get_json()["error"]["message"] == message
    assert message in page.get_data(as_text=True)


def test_an_inactive_user_can_still_sign_out(client, create_user, sign_in):
    user = create_user()
    sign_in(user.email)
    user.status = "suspended"
    db.session.commit()

    response = client.post("/api/auth/sign-out", json={}, headers=SITE)

    assert response.status_code == 200
    assert client.get_cookie(COOKIE_NAME) is None
    assert client.get("/").status_code == 200
