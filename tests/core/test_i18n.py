"""Language: the visitor's choice (cookie), then Accept-Language, then Turkish."""

import pytest

from app.core.i18n import LOCALE_COOKIE
from tests.conftest import csrf_token_from


def test_turkish_is_the_default(client):
    html = client.get("/").get_data(as_text=True)

    assert '<html lang="tr">' in html
    assert "Şasi numarasıyla doğru parçayı bulun" in html


def test_accept_language_english_gives_english(client):
    html = client.get("/", headers={"Accept-Language": "en-GB,en;q=0.8"}).get_data(as_text=True)

    assert '<html lang="en">' in html
    assert "Find the right part by VIN" in html


def test_unsupported_accept_language_falls_back_to_turkish(client):
    html = client.get("/", headers={"Accept-Language": "de-DE,fr;q=0.5"}).get_data(as_text=True)

    assert '<html lang="tr">' in html


def test_saved_choice_beats_accept_language(client):
    client.set_cookie(LOCALE_COOKIE, "tr")

    html = client.get("/", headers={"Accept-Language": "en"}).get_data(as_text=True)

    assert '<html lang="tr">' in html


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
