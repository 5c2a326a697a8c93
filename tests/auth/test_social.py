"""Social sign-in through an OpenID Connect provider, played end to end against a fake provider on 127.0.0.1."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest
import requests
import sqlalchemy as sa

from app.accounts.models import User
from app.extensions import db
from tests.conftest import PASSWORD, SITE, csrf_token_from, outbox
from tests.support.fake_oidc import FakeOidcProvider

CLIENT_ID = "parcabul-test-client"
CLIENT_SECRET = "parcabul-test-secret"
BASE_URL = "https://parcabul.test"
CALLBACK_PATH = "/api/auth/callback/google"


@pytest.fixture(scope="module")
def provider_server():
    with FakeOidcProvider(CLIENT_ID, CLIENT_SECRET) as server:
        yield server


@pytest.fixture
def fake(provider_server):
    provider_server.reset()
    return provider_server


@pytest.fixture
def social_app(make_app, fake):
    return make_app(
        OIDC_CLIENT_ID=CLIENT_ID,
        OIDC_CLIENT_SECRET=CLIENT_SECRET,
        OIDC_DISCOVERY_URL=fake.discovery_url,
        BASE_URL=BASE_URL,
    )


@pytest.fixture
def browser(social_app):
    return social_app.test_client()


# --- the flow, step by step, as a browser walks it ---------------------------------------------------------------


def start_via_api(browser, callback_url: str = "/") -> str:
    response = browser.post(
        "/api/auth/sign-in/social", json={"provider": "google", "callbackURL": callback_url}, headers=SITE
    )
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert body["redirect"] is True
    return body["url"]


def visit_provider(authorize_url: str) -> str:
    """Open the provider's authorize URL and return where it sends the browser back to."""
    response = requests.get(authorize_url, allow_redirects=False, timeout=5)
    assert response.status_code == 302, response.text
    return response.headers["Location"]


def return_from_provider(browser, callback_url: str):
    parts = urlsplit(callback_url)
    assert f"{parts.scheme}://{parts.netloc}{parts.path}" == BASE_URL + CALLBACK_PATH
    return browser.get(f"{parts.path}?{parts.query}")


def social_sign_in(browser, callback_url: str = "/"):
    return return_from_provider(browser, visit_provider(start_via_api(browser, callback_url)))


def session_of(browser) -> dict | None:
    return browser.get("/api/auth/get-session").get_json()


def connections_of(browser) -> dict:
    response = browser.get("/api/account/connections")
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def email_exists(browser, email: str) -> bool:
    return browser.post("/api/auth/email-exists", json={"email": email}, headers=SITE).get_json()["exists"]


def password_sign_in(browser, email: str):
    return browser.post(
        "/api/auth/sign-in/email", json={"email": email, "password": PASSWORD, "rememberMe": False}, headers=SITE
    )


def assert_refused(response, code: str) -> None:
    assert response.status_code == 303
    assert response.headers["Location"] == f"/login?social_error={code}"


# --- signing in ----------------------------------------------------------------------------------------------------


def test_first_sign_in_creates_a_verified_user_without_password_and_mails_welcome(browser, fake):
    fake.next_user = {"sub": "g-100", "email": "Usta@Example.com", "email_verified": True, "name": "Usta Bayi"}

    response = social_sign_in(browser, "/parcalar?vin=WVW")

    assert response.status_code == 303
    assert response.headers["Location"] == "/parcalar?vin=WVW"
    current = session_of(browser)
    assert current["user"]["email"] == "usta@example.com"
    assert current["user"]["name"] == "Usta Bayi"
    assert current["user"]["emailVerified"] is True
    assert current["session"]["persistent"] is True
    methods = connections_of(browser)
    assert methods["hasPassword"] is False
    assert [(c["provider"], c["email"]) for c in methods["connections"]] == [("google", "usta@example.com")]
    assert [mail.to_address for mail in outbox("welcome")] == ["usta@example.com"]


def test_sign_in_started_from_the_page_form_returns_to_next(browser, fake):
    page = browser.get("/login?next=/garaj")
    assert 'action="/login/social"' in page.text
    assert "Google ile devam et" in page.text

    response = browser.post(
        "/login/social", data={"csrf_token": csrf_token_from(page.text), "provider": "google", "next": "/garaj"}
    )

    assert response.status_code == 302
    assert response.headers["Location"].startswith(f"{fake.issuer}/authorize?")
    finished = return_from_provider(browser, visit_provider(response.headers["Location"]))
    assert finished.status_code == 303
    assert finished.headers["Location"] == "/garaj"
    assert session_of(browser)["user"]["email"] == "usta@example.com"


def test_page_form_without_csrf_token_is_refused(browser):
    response = browser.post("/login/social", data={"provider": "google", "next": "/"})

    assert response.status_code == 403
    assert session_of(browser) is None


def test_existing_password_user_gets_the_provider_linked_and_keeps_the_password(browser, fake, create_user):
    user = create_user(email="bayi@example.com")
    fake.next_user = {"sub": "g-200", "email": "bayi@example.com", "email_verified": True, "name": "Other Name"}

    assert social_sign_in(browser).status_code == 303

    current = session_of(browser)
    assert current["user"]["id"] == str(user.id)
    assert current["user"]["name"] == user.name
    methods = connections_of(browser)
    assert methods["hasPassword"] is True
    assert [c["provider"] for c in methods["connections"]] == ["google"]
    assert outbox("welcome") == []
    other_browser = browser.application.test_client()
    assert password_sign_in(other_browser, "bayi@example.com").status_code == 200


def test_second_sign_in_with_the_same_subject_is_the_same_user_and_adds_no_account(browser, social_app, fake):
    fake.next_user = {"sub": "g-300", "email": "ayni@example.com", "email_verified": True, "name": "Aynı Kişi"}
    social_sign_in(browser)
    first_id = session_of(browser)["user"]["id"]

    # The provider may report a new address; the subject is what identifies the person.
    fake.next_user = {**fake.next_user, "email": "yeni@example.com"}
    again = social_app.test_client()
    assert social_sign_in(again).status_code == 303

    assert session_of(again)["user"]["id"] == first_id
    assert len(connections_of(again)["connections"]) == 1
    assert len(outbox("welcome")) == 1
    assert not email_exists(again, "yeni@example.com")


def test_redirect_uri_comes_from_base_url_not_the_host_header(browser):
    response = browser.post(
        "/api/auth/sign-in/social",
        json={"provider": "google", "callbackURL": "/"},
        base_url="http://attacker.example",
    )

    query = parse_qs(urlsplit(response.get_json()["url"]).query)
    assert query["redirect_uri"] == [BASE_URL + CALLBACK_PATH]
    assert query["scope"] == ["openid email profile"]
    assert query["client_id"] == [CLIENT_ID]
    assert query["nonce"][0] and query["state"][0] and query["code_challenge"][0]


@pytest.mark.parametrize("off_site", ["https://evil.example/steal", "//evil.example/x", "javascript:alert(1)"])
def test_off_site_callback_url_falls_back_to_home(browser, off_site):
    response = social_sign_in(browser, off_site)

    assert response.status_code == 303
    assert response.headers["Location"] == "/"
    assert session_of(browser) is not None


# --- refusals: nobody is signed in and nothing is written ---------------------------------------------------------


def test_tampered_state_is_refused(browser, fake):
    callback = visit_provider(start_via_api(browser))
    state = parse_qs(urlsplit(callback).query)["state"][0]

    response = return_from_provider(browser, callback.replace(f"state={state}", "state=forged-state"))

    assert_refused(response, "invalid_state")
    assert session_of(browser) is None
    assert not email_exists(browser, fake.next_user["email"])


def test_callback_in_a_browser_that_did_not_start_the_flow_is_refused(browser, social_app, fake):
    callback = visit_provider(start_via_api(browser))

    stranger = social_app.test_client()
    response = return_from_provider(stranger, callback)

    assert_refused(response, "invalid_state")
    assert session_of(stranger) is None
    assert not email_exists(stranger, fake.next_user["email"])


@pytest.mark.parametrize(
    ("provider_error", "code"), [("access_denied", "cancelled"), ("server_error", "provider_error")]
)
def test_error_from_the_provider_is_refused(browser, fake, provider_error, code):
    fake.authorize_error = provider_error

    assert_refused(social_sign_in(browser), code)
    assert session_of(browser) is None


@pytest.mark.parametrize(
    "break_token",
    [
        pytest.param(lambda fake: setattr(fake, "token_error", "invalid_grant"), id="token endpoint refuses"),
        pytest.param(lambda fake: fake.id_token_overrides.update(nonce="replayed-nonce"), id="wrong nonce"),
        pytest.param(lambda fake: fake.id_token_overrides.update(aud="another-client"), id="wrong audience"),
        pytest.param(lambda fake: fake.id_token_overrides.update(iss="http://127.0.0.1:1"), id="wrong issuer"),
    ],
)
def test_failed_or_untrustworthy_token_is_refused(browser, fake, break_token):
    break_token(fake)

    assert_refused(social_sign_in(browser), "token_failed")
    assert session_of(browser) is None
    assert not email_exists(browser, fake.next_user["email"])
    assert outbox("welcome") == []


def test_unverified_provider_email_does_not_link_an_existing_account(browser, fake, create_user):
    create_user(email="bayi@example.com")
    fake.next_user = {"sub": "g-400", "email": "bayi@example.com", "email_verified": False, "name": "Sahte"}

    assert_refused(social_sign_in(browser), "email_not_verified")

    assert session_of(browser) is None
    assert password_sign_in(browser, "bayi@example.com").status_code == 200
    assert connections_of(browser)["connections"] == []


def test_unverified_provider_email_does_not_create_an_account(browser, fake):
    fake.next_user = {"sub": "g-401", "email": "kimse@example.com", "email_verified": False, "name": "Kimse"}

    assert_refused(social_sign_in(browser), "email_not_verified")
    assert session_of(browser) is None
    assert not email_exists(browser, "kimse@example.com")


def test_existing_account_with_an_unverified_email_is_not_linked(browser, fake, create_user):
    create_user(email="dogrulanmamis@example.com", email_verified=False)
    fake.next_user = {"sub": "g-402", "email": "dogrulanmamis@example.com", "email_verified": True, "name": "X"}

    assert_refused(social_sign_in(browser), "account_not_verified")

    assert session_of(browser) is None
    assert password_sign_in(browser, "dogrulanmamis@example.com").status_code == 200
    assert connections_of(browser)["connections"] == []


@pytest.mark.parametrize(("status", "code"), [("suspended", "account_suspended"), ("banned", "account_banned")])
def test_inactive_user_found_by_email_is_refused(browser, fake, create_user, status, code):
    create_user(email="kapali@example.com", status=status)
    fake.next_user = {"sub": "g-500", "email": "kapali@example.com", "email_verified": True, "name": "Kapalı"}

    assert_refused(social_sign_in(browser), code)
    assert session_of(browser) is None


def test_linked_user_who_is_suspended_later_is_refused(browser, social_app, fake):
    fake.next_user = {"sub": "g-600", "email": "sonra@example.com", "email_verified": True, "name": "Sonra"}
    social_sign_in(browser)
    db.session.execute(sa.update(User).where(User.email == "sonra@example.com").values(status="suspended"))
    db.session.commit()

    fresh_browser = social_app.test_client()
    assert_refused(social_sign_in(fresh_browser), "account_suspended")
    assert session_of(fresh_browser) is None


# --- provider availability -----------------------------------------------------------------------------------------


def test_provider_not_configured_answers_404_in_the_error_shape(client):
    response = client.post("/api/auth/sign-in/social", json={"provider": "google", "callbackURL": "/"})

    assert response.status_code == 404
    assert response.get_json() == {
        "error": {"code": "provider_unavailable", "message": "Bu giriş yöntemi kullanılamıyor."}
    }
    assert client.get(CALLBACK_PATH + "?code=x&state=y").status_code == 404


def test_login_page_shows_no_social_button_when_not_configured(client):
    page = client.get("/login")

    assert page.status_code == 200
    assert "/login/social" not in page.text


def test_unknown_provider_name_answers_404(browser):
    response = browser.post("/api/auth/sign-in/social", json={"provider": "github", "callbackURL": "/"}, headers=SITE)

    assert response.status_code == 404
    assert response.get_json()["error"]["code"] == "provider_unavailable"
    assert browser.get("/api/auth/callback/github?code=x&state=y").status_code == 404


def test_starting_is_rate_limited_per_client_address(make_app, fake):
    app = make_app(
        OIDC_CLIENT_ID=CLIENT_ID,
        OIDC_CLIENT_SECRET=CLIENT_SECRET,
        OIDC_DISCOVERY_URL=fake.discovery_url,
        BASE_URL=BASE_URL,
        SIGN_IN_RATE_LIMIT="2 per minute",
    )
    browser = app.test_client()
    statuses = [
        browser.post("/api/auth/sign-in/social", json={"provider": "google", "callbackURL": "/"}).status_code
        for _attempt in range(3)
    ]

    assert statuses == [200, 200, 429]


def test_unreachable_provider_answers_502(make_app):
    app = make_app(
        OIDC_CLIENT_ID=CLIENT_ID,
        OIDC_CLIENT_SECRET=CLIENT_SECRET,
        # A loopback port nothing listens on: the discovery request fails at once.
        OIDC_DISCOVERY_URL="http://127.0.0.1:9/.well-known/openid-configuration",
        BASE_URL=BASE_URL,
    )

    response = app.test_client().post("/api/auth/sign-in/social", json={"provider": "google", "callbackURL": "/"})

    assert response.status_code == 502
    assert response.get_json()["error"]["code"] == "provider_unreachable"
