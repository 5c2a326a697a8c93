"""The first-run page a new dealer lands on: the trial in one click, then straight on to the VIN search."""

import pytest

from app.billing import reference_data
from app.extensions import db
from tests.conftest import csrf_token_from


@pytest.fixture
def plans(app):
    reference_data.brands()
    reference_data.plans()
    db.session.commit()


def register(client) -> None:
    form = client.get("/register").get_data(as_text=True)
    response = client.post(
        "/register",
        data={
            "name": "Yeni Bayi",
            "email": "yeni-bayi@example.com",
            "password": "counter-horse-42",
            "csrf_token": csrf_token_from(form),
        },
    )
    assert (response.status_code, response.headers["Location"]) == (303, "/welcome")


def test_a_new_dealer_lands_on_the_welcome_page_and_starts_the_trial_in_one_click(client, plans):
    register(client)
    html = client.get("/welcome").get_data(as_text=True)

    assert "Hoş geldiniz, Yeni Bayi" in html and 'href="/demo"' in html and 'href="/vin"' in html
    assert "Ücretsiz denemeyi başlat" in html
    response = client.post("/subscription/trial", data={"csrf_token": csrf_token_from(html), "next": "/vin"})

    assert (response.status_code, response.headers["Location"]) == (303, "/vin")
    me = client.get("/api/subscriptions/me").get_json()
    assert (me["status"], me["plan"]["key"]) == ("trial", "full")
    after = client.get("/welcome").get_data(as_text=True)
    assert "/subscription/trial" not in after and "Tam Erişim" in after


def test_the_trial_never_sends_the_dealer_off_the_site(client, plans):
    register(client)
    token = csrf_token_from(client.get("/welcome").get_data(as_text=True))

    response = client.post("/subscription/trial", data={"csrf_token": token, "next": "https://evil.example/"})

    assert response.headers["Location"] == "/subscription"


def test_the_welcome_page_needs_a_session(client):
    response = client.get("/welcome")

    assert response.status_code in (302, 303) and "/login" in response.headers["Location"]
