"""The signed-in user's account: sign-in methods, password change, deletion."""

import sqlalchemy as sa

from app.accounts.models import User
from app.accounts.services import link_account
from app.auth.models import AuthSession
from app.auth.sessions import COOKIE_NAME
from app.extensions import db
from app.vehicles.models import QueryLog, UserVehicle, Vehicle
from tests.conftest import PASSWORD, SITE


def sign_in_status(app, email: str, password: str) -> int:
    """The status of a password sign-in from a new device."""
    response = app.test_client().post(
        "/api/auth/sign-in/email", json={"email": email, "password": password}, headers=SITE
    )
    return response.status_code


def test_connections_list_password_and_linked_providers(client, create_user, sign_in):
    user = create_user()
    link_account(user, "google", "google-sub-1", user.email)
    db.session.commit()
    sign_in(user.email)

    body = client.get("/api/account/connections").get_json()

    assert body["hasPassword"] is True
    assert [(item["provider"], item["email"]) for item in body["connections"]] == [("google", user.email)]


def test_unlink_a_provider_when_a_password_remains(client, create_user, sign_in):
    user = create_user()
    link_account(user, "google", "google-sub-1", user.email)
    db.session.commit()
    sign_in(user.email)

    response = client.delete("/api/account/connections/google", json={}, headers=SITE)

    assert response.status_code == 200
    assert response.get_json()["connections"] == []


def test_unlink_refused_when_it_is_the_last_way_to_sign_in(client, create_user, sign_in, app):
    from app.auth.sessions import create_session, sign

    user = create_user()
    link_account(user, "google", "google-sub-1", user.email)
    user.password_hash = None
    row = create_session(user, persistent=False)
    db.session.commit()
    client.set_cookie(COOKIE_NAME, sign(row.id))

    response = client.delete("/api/account/connections/google", json={}, headers=SITE)

    assert response.status_code == 409
    assert response.get_json()["error"]["code"] == "last_sign_in_method"
    assert len(client.get("/api/account/connections").get_json()["connections"]) == 1


def test_unlink_unknown_provider_is_404(client, create_user, sign_in):
    sign_in(create_user().email)

    assert client.delete("/api/account/connections/google", json={}, headers=SITE).status_code == 404


def test_change_password_keeps_this_session_and_ends_the_others(app, client, create_user, sign_in):
    user = create_user()
    other_device = app.test_client()
    other_device.post("/api/auth/sign-in/email", json={"email": user.email, "password": PASSWORD})
    sign_in(user.email)

    response = client.post(
        "/api/account/change-password",
        json={"currentPassword": PASSWORD, "newPassword": "yeni-sifre-2026"},
        headers=SITE,
    )

    assert response.get_json() == {"status": True, "otherSessionsEnded": 1}
    assert client.get("/api/auth/get-session").get_json() is not None
    assert other_device.get("/api/auth/get-session").get_json() is None
    assert sign_in_status(app, user.email, "yeni-sifre-2026") == 200
    assert sign_in_status(app, user.email, PASSWORD) == 401


def test_change_password_with_a_wrong_current_password_changes_nothing(client, create_user, sign_in):
    user = create_user()
    sign_in(user.email)

    response = client.post(
        "/api/account/change-password",
        json={"currentPassword": "not-it", "newPassword": "yeni-sifre-2026"},
        headers=SITE,
    )

    assert response.status_code == 400
    assert response.get_json()["error"]["message"] == "Mevcut şifre hatalı."
    db.session.refresh(user)
    from app.accounts.services import password_matches

    assert password_matches(user, PASSWORD)
    assert not password_matches(user, "yeni-sifre-2026")


def test_delete_account_needs_the_password(client, create_user, sign_in):
    user = create_user()
    sign_in(user.email)

    wrong = client.post("/api/account/delete", json={"confirmation": "nope"}, headers=SITE)

    assert wrong.status_code == 400
    assert wrong.get_json()["error"]["code"] == "confirmation_mismatch"
    assert db.session.get(User, user.id) is not None


def test_delete_account_removes_the_user_and_its_sessions(app, client, create_user, sign_in):
    user = create_user()
    link_account(user, "google", "google-sub-1", user.email)
    db.session.commit()
    email = user.email
    sign_in(email)

    response = client.post("/api/account/delete", json={"confirmation": PASSWORD}, headers=SITE)

    assert response.get_json() == {"status": True}
    assert client.get_cookie(COOKIE_NAME) is None
    db.session.expire_all()
    assert db.session.scalar(sa.select(User).where(User.email == email)) is None
    from app.accounts.models import Account

    assert db.session.scalars(sa.select(AuthSession)).all() == []
    assert db.session.scalars(sa.select(Account)).all() == []
    refused = client.post("/api/auth/sign-in/email", json={"email": email, "password": PASSWORD}, headers=SITE)
    assert refused.status_code == 401


def test_social_only_user_confirms_deletion_with_the_email(client, create_user):
    from app.auth.sessions import create_session, sign

    user = create_user()
    user.password_hash = None
    row = create_session(user, persistent=False)
    db.session.commit()
    client.set_cookie(COOKIE_NAME, sign(row.id))

    vehicle = Vehicle(vin="WVWZZZ1KZAW000125", brand_name="Volkswagen", model="Golf", source="catapi")
    db.session.add(vehicle)
    db.session.flush()
    db.session.add(UserVehicle(shop_id=user.shop_id, user_id=user.id, vehicle_id=vehicle.id))
    db.session.add(QueryLog(user_id=user.id, vin=vehicle.vin, success=True, response_time_ms=5))
    db.session.commit()
    user_id, vehicle_id = user.id, vehicle.id

    response = client.post("/api/account/delete", json={"confirmation": user.email.upper()}, headers=SITE)

    assert response.get_json() == {"status": True}
    assert client.get("/api/auth/get-session").get_json() is None  # the old cookie opens nothing any more
    db.session.expire_all()
    assert db.session.get(User, user_id) is None
    assert db.session.scalars(sa.select(AuthSession).where(AuthSession.user_id == user_id)).all() == []
    assert db.session.scalars(sa.select(UserVehicle).where(UserVehicle.user_id == user_id)).all() == []
    assert db.session.get(Vehicle, vehicle_id) is not None  # shared with every dealer: kept
    assert [log.user_id for log in db.session.scalars(sa.select(QueryLog).where(QueryLog.vin == vehicle.vin))] == [
        None
    ]  # kept, anonymised
