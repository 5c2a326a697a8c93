"""Language: `?lang=`, the account's choice, the cookie, Accept-Language on /api only, then Turkish."""

import pytest

from app.core.i18n import LOCALE_COOKIE
from tests.conftest import PASSWORD, SITE, csrf_token_from


def test_turkish_is_the_default(client):
    html = client.get("/").get_data(as_text=True)

    assert '<html lang="tr">' in html
    assert "Şasi numarasıyla doğru parçayı bulun" in html


def test_pages_stay_turkish_whatever_the_browser_asks(client):
    html = client.get("/", headers={"Accept-Language": "en-GB,en;q=0.8"}).get_data(as_text=True)

    assert '<html lang="tr">' in html
    assert "Şasi numarasıyla doğru parçayı bulun" in html


def test_lang_parameter_gives_english(client):
    html = client.get("/?lang=en").get_data(as_text=True)

    assert '<html lang="en">' in html
    assert "Find the right part by VIN" in html


def test_api_answers_in_the_language_the_client_asks_for(client):
    english = client.get("/api/no-such-thing", headers={"Accept-Language": "en-US,en;q=0.9"}).get_json()
    turkish = client.get("/api/no-such-thing", headers={"Accept-Language": "de"}).get_json()

    assert english["error"]["message"] != turkish["error"]["message"]
    assert client.get("/api/no-such-thing?lang=en").get_json() == english


def test_unsupported_accept_language_falls_back_to_turkish(client):
    html = client.get("/", headers={"Accept-Language": "de-DE,fr;q=0.5"}).get_data(as_text=True)

    assert '<html lang="tr">' in html


def test_saved_choice_beats_accept_language(client):
    client.set_cookie(LOCALE_COOKIE, "tr")

    response = client.get("/api/no-such-thing", headers={"Accept-Language": "en"})

    assert response.get_json()["error"]["message"] == client.get("/api/no-such-thing").get_json()["error"]["message"]
    client.set_cookie(LOCALE_COOKIE, "en")
    assert '<html lang="en">' in client.get("/").get_data(as_text=True)


def test_a_signed_in_choice_is_kept_on_the_account_and_follows_to_another_browser(app, client, create_user, sign_in):
    user = create_user(email="dil@example.com")
    sign_in(user.email)
    token = csrf_token_from(client.get("/").get_data(as_text=True))

    client.post("/language", data={"lang": "en", "next": "/account", "csrf_token": token})

    other = app.test_client()
    other.post("/api/auth/sign-in/email", json={"email": user.email, "password": PASSWORD}, headers=SITE)
    assert other.get_cookie(LOCALE_COOKIE) is None
    assert '<html lang="en">' in other.get("/account").get_data(as_text=True)
    assert '<html lang="tr">' in app.test_client().get("/").get_data(as_text=True)  # signed out: Turkish


def test_language_switch_sets_the_cookie_and_returns_to_the_page(client):
    token = csrf_token_from(client.get("/").get_data(as_text=True))

    response = client.post("/language", data={"lang": "en", "next": "/?x=1", "csrf_token": token})

    assert response.status_code == 303
    assert response.headers["Location"] == "/?x=1"
    cookie = client.get_cookie(LOCALE_COOKIE)
    assert cookie.value == "en" and cookie.http_only
    assert '<html lang="en">' in client.get("/").get_data(as_text=True)


@pytest.mark.parametrize("target", ["https://evil.example/", "//evil.example/x", "javascript:alert(1)", "/\\evil"])
def test_language_switch_never_redirects_off_site(client, target):
    token = csrf_token_from(client.get("/").get_data(as_text=True))

    response = client.post("/language", data={"lang": "en", "next": target, "csrf_token": token})

    assert response.status_code == 303
    assert response.headers["Location"] == "/"


def test_language_switch_ignores_unknown_languages(client):
    token = csrf_token_from(client.get("/").get_data(as_text=True))

    client.post("/language", data={"lang": "xx", "csrf_token": token})

    assert client.get_cookie(LOCALE_COOKIE) is None


def test_messages_outside_a_request_are_turkish(app):
    from flask_babel import gettext

    with app.app_context():
        assert gettext("The request is invalid.") == "İstek geçersiz."
