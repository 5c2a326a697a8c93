"""Under FORCE_HTTPS: plain-HTTP requests go to HTTPS keeping their method, and every session cookie is Secure."""

import pytest

from app.auth.sessions import COOKIE_NAME
from tests.conftest import PASSWORD, SITE, csrf_token_from

HTTPS_SITE = {"Origin": "https://localhost"}


@pytest.fixture
def https_app(make_app):
    return make_app(FORCE_HTTPS=True, SESSION_COOKIE_SECURE=True)


def session_cookie_headers(response) -> list[str]:
    return [value for value in response.headers.getlist("Set-Cookie") if value.startswith(f"{COOKIE_NAME}=")]


@pytest.mark.parametrize("method", ["POST", "PUT", "PATCH", "DELETE"])
def test_a_plain_http_write_is_redirected_with_308_so_it_stays_a_write(https_app, method):
    response = https_app.test_client().open("/api/auth/sign-in/email?x=1", method=method, json={}, headers=SITE)

    assert response.status_code == 308
    assert response.headers["Location"] == "https://localhost/api/auth/sign-in/email?x=1"


def test_a_plain_http_form_post_is_redirected_before_its_form_token_is_checked(https_app):
    response = https_app.test_client().post("/login", data={"email": "a@example.com"})

    assert response.status_code == 308 and response.headers["Location"] == "https://localhost/login"


@pytest.mark.parametrize("method", ["GET", "HEAD"])
def test_a_plain_http_read_is_redirected_permanently(https_app, method):
    response = https_app.test_client().open("/login?next=/vin", method=method)

    assert response.status_code == 301 and response.headers["Location"] == "https://localhost/login?next=/vin"


def test_https_requests_and_those_a_proxy_marks_as_https_are_served(https_app):
    client = https_app.test_client()

    assert client.get("/login", base_url="https://localhost").status_code == 200
    assert client.get("/login", headers={"X-Forwarded-Proto": "https"}).status_code == 200


def test_without_force_https_nothing_is_redirected(client):
    assert client.post("/api/auth/sign-in/email", json={}, headers=SITE).status_code == 400


def test_api_sign_out_clears_the_cookie_with_secure(https_app, create_user):
    client = https_app.test_client()
    user = create_user()
    signed_in = client.post(
        "https://localhost/api/auth/sign-in/email", json={"email": user.email, "password": PASSWORD}, headers=HTTPS_SITE
    )
    assert "Secure" in session_cookie_headers(signed_in)[0]

    response = client.post("https://localhost/api/auth/sign-out", json={}, headers=HTTPS_SITE)

    [cleared] = session_cookie_headers(response)
    assert cleared.startswith(f"{COOKIE_NAME}=;") and "Secure" in cleared and "HttpOnly" in cleared
    assert "Expires=Thu, 01 Jan 1970" in cleared


def test_page_logout_clears_the_cookie_with_secure(https_app, create_user):
    client = https_app.test_client()
    user = create_user()
    client.post(
        "https://localhost/api/auth/sign-in/email", json={"email": user.email, "password": PASSWORD}, headers=HTTPS_SITE
    )
    token = csrf_token_from(client.get("https://localhost/account").get_data(as_text=True))

    response = client.post(
        "https://localhost/logout", data={"csrf_token": token}, headers={"Referer": "https://localhost/account"}
    )

    assert response.status_code == 303
    [cleared] = session_cookie_headers(response)
    assert "Secure" in cleared and "Max-Age=0" in cleared
