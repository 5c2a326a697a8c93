"""One sign-in counter per client address and one per e-mail address, whichever entry point is used."""

import pytest

from tests.conftest import PASSWORD, SITE, csrf_token_from


@pytest.fixture
def client(make_app):
    return make_app(SIGN_IN_RATE_LIMIT="3 per minute").test_client()


def page_login(client, email: str, address: str) -> int:
    environ = {"REMOTE_ADDR": address}
    token = csrf_token_from(client.get("/login", environ_base=environ).get_data(as_text=True))
    form = {"csrf_token": token, "email": email, "password": "wrong-password"}
    return client.post("/login", data=form, environ_base=environ).status_code


def api_sign_in(client, email: str, address: str) -> int:
    body = {"email": email, "password": "wrong-password"}
    return client.post("/api/auth/sign-in/email", json=body, environ_base={"REMOTE_ADDR": address}).status_code


def api_sign_up(client, email: str, address: str) -> int:
    body = {"name": "Bayi", "email": email, "password": PASSWORD}
    return client.post(
        "/api/auth/sign-up/email", json=body, headers=SITE, environ_base={"REMOTE_ADDR": address}
    ).status_code


def test_the_login_page_and_the_api_share_one_counter_per_address(client):
    attempts = [page_login, api_sign_in, page_login, api_sign_in]

    statuses = [attempt(client, f"x{n}@example.com", "203.0.113.9") for n, attempt in enumerate(attempts)]

    assert statuses == [401, 401, 401, 429]


def test_the_login_page_and_the_api_share_one_counter_per_email(client, create_user):
    user = create_user()
    attempts = [api_sign_in, page_login, api_sign_in, page_login]

    statuses = [attempt(client, user.email, f"198.51.100.{n}") for n, attempt in enumerate(attempts, start=1)]

    assert statuses == [401, 401, 401, 429]


def test_sign_up_counts_towards_the_same_address_counter(client):
    failed = [api_sign_in(client, f"y{n}@example.com", "203.0.113.7") for n in range(3)]

    assert failed == [401, 401, 401]
    assert api_sign_up(client, "new@example.com", "203.0.113.7") == 429
    assert api_sign_up(client, "new@example.com", "203.0.113.8") == 201
