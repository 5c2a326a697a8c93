"""Admin: creating users; the seed step that creates the first admin."""

import pytest

from app.accounts.services import find_user_by_email, password_matches
from tests.conftest import SITE

NEW = {"email": "Tezgah@Example.com", "name": "Tezgah", "password": "tezgah-sifre-1", "role": "user"}


@pytest.fixture
def admin_client(client, create_user, sign_in):
    sign_in(create_user(role="admin").email)
    return client


def test_admin_creates_a_user_with_a_hashed_password(admin_client):
    response = admin_client.post("/api/admin/users", json=NEW, headers=SITE)

    assert response.status_code == 201
    assert response.get_json()["user"]["email"] == "tezgah@example.com"
    user = find_user_by_email("tezgah@example.com")
    assert user.password_hash != NEW["password"] and password_matches(user, NEW["password"])


def test_admin_can_create_another_admin(admin_client):
    response = admin_client.post("/api/admin/users", json={**NEW, "role": "admin"}, headers=SITE)

    assert response.get_json()["user"]["role"] == "admin"


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({**NEW, "role": "superuser"}, "invalid_role"),
        ({**NEW, "password": "123"}, "weak_password"),
        ({"email": "a@b.co"}, "missing_field"),
    ],
)
def test_bad_input_creates_nothing(admin_client, body, code):
    response = admin_client.post("/api/admin/users", json=body, headers=SITE)

    assert response.status_code == 400
    assert response.get_json()["error"]["code"] == code
    assert find_user_by_email("tezgah@example.com") is None


def test_seed_creates_the_admin_from_settings_once(app, runner, monkeypatch):
    monkeypatch.setitem(app.config, "ADMIN_EMAIL", "kurucu@parcabul.test")
    monkeypatch.setitem(app.config, "ADMIN_PASSWORD", "ilk-admin-sifresi")

    first = runner.invoke(args=["seed"])
    second = runner.invoke(args=["seed"])

    assert "kurucu@parcabul.test created" in first.output
    assert "kurucu@parcabul.test already admin" in second.output
    admin = find_user_by_email("kurucu@parcabul.test")
    assert admin.role == "admin" and admin.email_verified
    assert password_matches(admin, "ilk-admin-sifresi")


def test_seed_skips_the_admin_without_settings(runner):
    assert "skipped" in runner.invoke(args=["seed"]).output
