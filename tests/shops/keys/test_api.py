"""Shop API keys through HTTP: made by the owner and shown once, kept as a hash, used with no cookie and no Origin,
acting with the key's role and never beyond it, refused once revoked or expired, counted per key by the limits."""

from __future__ import annotations

import hashlib
from datetime import date, timedelta

import pytest
import sqlalchemy as sa
from flask import Blueprint, jsonify
from limits import parse_many

from app.core.db import utcnow
from app.core.security import shop_role
from app.extensions import db
from app.shops.keys.models import ShopApiKey
from tests.conftest import SITE

KEYS = "/api/shop/keys"
INVALID_KEY = "Bu API anahtarı geçersiz: bilinmiyor, iptal edilmiş ya da süresi dolmuş."


@pytest.fixture
def owner(create_user, client, sign_in):
    user = create_user()
    sign_in(user.email)
    return user


def make_key(client, role: str = "clerk", **fields) -> dict:
    response = client.post(KEYS, json={"name": "Muhasebe", "role": role, **fields}, headers=SITE)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def bearer(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


def keyed(app, path: str, secret: str, method: str = "get", **options):
    """A call with only the key: a fresh client, so no cookie, and no Origin."""
    return getattr(app.test_client(), method)(path, headers=bearer(secret), **options)


def test_a_key_is_shown_once_and_only_its_hash_is_kept(app, client, owner):
    made = make_key(client, "manager", expiresOn=(date.today() + timedelta(days=30)).isoformat())
    secret = made["secret"]

    assert secret.startswith("pb_") and len(secret) >= 40
    assert made["key"]["prefix"] == secret[:11] and made["key"]["role"] == "manager"
    listed = client.get(KEYS).get_json()["keys"]
    assert [key["prefix"] for key in listed] == [secret[:11]]
    assert secret not in client.get(KEYS).get_data(as_text=True)
    page = client.get("/shop/keys")
    assert page.status_code == 200 and secret[:11] in page.get_data(as_text=True)
    assert secret not in page.get_data(as_text=True)
    row = db.session.scalar(sa.select(ShopApiKey))
    assert row.key_hash == hashlib.sha256(secret.encode()).hexdigest()
    for table in db.metadata.sorted_tables:
        for stored in db.session.execute(sa.select(table)):
            assert secret not in repr(tuple(stored)), table.name


def test_a_key_acts_in_its_shop_with_no_cookie_and_no_origin(app, client, owner):
    secret = make_key(client)["secret"]
    # A write (POST, a JSON body) with no cookie and no Origin: the cookie's CSRF rule is not a key's.
    created = keyed(app, "/api/quotes", secret, "post", json={"customer": "Ahmet Usta"})
    assert created.status_code == 201, created.get_json()
    listed = client.get("/api/quotes").get_json()
    assert [quote["customer"] for quote in listed["quotes"]] == ["Ahmet Usta"]  # the owner sees the key's quote


def test_the_same_call_with_a_cookie_and_no_origin_is_still_refused(client, owner):
    response = client.post("/api/quotes", json={"customer": "Ahmet Usta"})
    assert response.status_code == 403
    assert response.get_json()["error"]["code"] == "csrf_failed"


@pytest.mark.parametrize("presented", ["pb_not-a-key-at-all", "", "pb_" + "x" * 200, "başka"])
def test_an_unknown_key_answers_401_in_turkish(app, owner, presented):
    response = keyed(app, "/api/quotes", presented)
    assert response.status_code == 401
    assert response.get_json()["error"] == {"code": "invalid_api_key", "message": INVALID_KEY}


def test_a_revoked_key_answers_401(app, client, owner):
    made = make_key(client)
    assert keyed(app, "/api/quotes", made["secret"]).status_code == 200

    revoked = client.delete(f"{KEYS}/{made['key']['id']}", headers=SITE)

    assert revoked.status_code == 200 and revoked.get_json()["key"]["revokedAt"]
    response = keyed(app, "/api/quotes", made["secret"])
    assert response.status_code == 401 and response.get_json()["error"]["message"] == INVALID_KEY


def test_an_expired_key_answers_401(app, client, owner):
    made = make_key(client, expiresOn=date.today().isoformat())
    assert keyed(app, "/api/quotes", made["secret"]).status_code == 200
    row = db.session.get(ShopApiKey, made["key"]["id"])
    row.expires_at = utcnow() - timedelta(seconds=1)
    db.session.commit()

    response = keyed(app, "/api/quotes", made["secret"])

    assert response.status_code == 401 and response.get_json()["error"]["code"] == "invalid_api_key"
    assert client.get(KEYS).get_json()["keys"][0]["live"] is False


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"role": "owner"}, "invalid_role"),
        ({"role": "clerk", "expiresOn": "2020-01-01"}, "invalid_expiry"),
        ({"role": "clerk", "expiresOn": "yarın"}, "invalid_expiry"),
        ({"role": "clerk", "name": ""}, "missing_field"),
    ],
)
def test_a_key_is_clerk_or_manager_and_expires_in_the_future(client, owner, fields, code):
    response = client.post(KEYS, json={"name": "Muhasebe", **fields}, headers=SITE)
    assert response.status_code == 400 and response.get_json()["error"]["code"] == code
    assert db.session.scalar(sa.select(sa.func.count()).select_from(ShopApiKey)) == 0


@pytest.fixture
def role_app(make_app):
    """The app with two views that ask for the manager and the owner, as the shop's routes declare them."""
    application = make_app()
    probe = Blueprint("role_probe", __name__, url_prefix="/api/role-probe")

    @probe.get("/manager")
    @shop_role("manager")
    def manager_view():
        return jsonify(ok=True)

    @probe.get("/clerk")
    @shop_role("clerk")
    def clerk_view():
        return jsonify(ok=True)

    application.register_blueprint(probe)
    return application


def test_a_key_acts_with_its_own_role_never_its_makers(role_app, client, owner):
    clerk = make_key(client, "clerk")["secret"]
    manager = make_key(client, "manager")["secret"]

    assert keyed(role_app, "/api/role-probe/clerk", clerk).status_code == 200
    refused = keyed(role_app, "/api/role-probe/manager", clerk)
    assert refused.status_code == 403 and refused.get_json()["error"]["code"] == "forbidden"
    assert keyed(role_app, "/api/role-probe/manager", manager).status_code == 200
    assert keyed(role_app, KEYS, manager).status_code == 403  # the owner's route, though an owner made the key


def test_a_key_is_capped_by_its_makers_role_too(role_app, client, owner):
    manager = make_key(client, "manager")["secret"]
    owner.shop_role = "clerk"  # the owner was made a clerk after making the key
    db.session.commit()
    assert keyed(role_app, "/api/role-probe/manager", manager).status_code == 403


def test_a_key_stops_when_its_maker_leaves_the_shop(app, client, owner, create_user):
    secret = make_key(client)["secret"]
    owner.shop_id = create_user().shop_id
    db.session.commit()
    assert keyed(app, "/api/quotes", secret).status_code == 401


def test_a_key_never_opens_an_admin_route_nor_the_internal_api(app, client, create_user, sign_in):
    admin = create_user(role="admin")
    sign_in(admin.email)
    secret = make_key(client, "manager")["secret"]

    assert client.get("/api/admin/dashboard").status_code == 200  # the admin's session opens it
    refused = keyed(app, "/api/admin/dashboard", secret)
    assert refused.status_code == 403 and refused.get_json()["error"]["code"] == "forbidden"
    internal = keyed(app, "/api/internal/admin/dashboard", secret)
    assert internal.status_code == 401 and internal.get_json()["error"]["code"] == "invalid_internal_token"


def test_a_key_never_opens_a_persons_own_account(app, client, owner):
    secret = make_key(client, "manager")["secret"]
    refused = keyed(app, "/api/account/connections", secret)
    assert refused.status_code == 403 and refused.get_json()["error"]["code"] == "api_key_not_allowed"
    deleted = keyed(app, "/api/account/delete", secret, "post", json={"confirmation": owner.email})
    assert deleted.status_code == 403
    assert db.session.get(type(owner), owner.id) is not None


def test_a_key_is_not_read_on_a_page(app, client, owner):
    secret = make_key(client, "manager")["secret"]
    page = keyed(app, "/shop/keys", secret)
    assert page.status_code == 302 and "/login" in page.headers["Location"]


def test_the_last_use_is_shown_and_written_at_most_once_a_minute(app, client, owner):
    made = make_key(client)
    assert client.get(KEYS).get_json()["keys"][0]["lastUsedAt"] is None

    keyed(app, "/api/quotes", made["secret"])
    first = client.get(KEYS).get_json()["keys"][0]["lastUsedAt"]
    row = db.session.get(ShopApiKey, made["key"]["id"])
    half_a_minute_ago = utcnow() - timedelta(seconds=30)
    row.last_used_at = half_a_minute_ago
    db.session.commit()
    keyed(app, "/api/quotes", made["secret"])
    kept = client.get(KEYS).get_json()["keys"][0]["lastUsedAt"]
    row.last_used_at = utcnow() - timedelta(minutes=2)
    db.session.commit()
    keyed(app, "/api/quotes", made["secret"])
    written = client.get(KEYS).get_json()["keys"][0]["lastUsedAt"]

    assert first is not None
    assert kept == half_a_minute_ago.isoformat()
    assert written > kept and written > half_a_minute_ago.isoformat()
    page = client.get("/shop/keys?lang=en")
    assert page.status_code == 200 and "Last used" in page.get_data(as_text=True)
    assert "Not used yet" not in page.get_data(as_text=True)


def test_the_limits_count_per_key(make_app, client, owner):
    limited = make_app(RATELIMIT_ENABLED=True)
    allowed = min(item.amount for item in parse_many(limited.config["RATELIMIT_DEFAULT"]))
    first, second = make_key(client)["secret"], make_key(client)["secret"]
    calls = limited.test_client()

    statuses = {calls.get("/api/quotes", headers=bearer(first)).status_code for _ in range(allowed)}
    throttled = calls.get("/api/quotes", headers=bearer(first))

    assert statuses == {200}
    assert throttled.status_code == 429 and throttled.get_json()["error"]["code"] == "rate_limited"
    assert calls.get("/api/quotes", headers=bearer(second)).status_code == 200  # another key, same address and shop


def test_only_the_owner_manages_keys(app, client, create_user, sign_in, owner):
    secret = make_key(client)["secret"]
    manager = create_user(shop_id=owner.shop_id, shop_role="manager")
    other = app.test_client()
    other.post("/api/auth/sign-in/email", json={"email": manager.email, "password": "correct-horse-42"}, headers=SITE)

    assert other.get(KEYS).status_code == 403
    assert other.post(KEYS, json={"name": "X", "role": "clerk"}, headers=SITE).status_code == 403
    assert other.get("/shop/keys").status_code == 403
    assert keyed(app, KEYS, secret).status_code == 403


def test_another_shop_cannot_see_or_revoke_a_key(app, client, owner, create_user):
    made = make_key(client)
    stranger = create_user()
    other = app.test_client()
    other.post("/api/auth/sign-in/email", json={"email": stranger.email, "password": "correct-horse-42"}, headers=SITE)

    assert other.get(KEYS).get_json()["keys"] == []
    assert other.delete(f"{KEYS}/{made['key']['id']}", headers=SITE).status_code == 404
    assert keyed(app, "/api/quotes", made["secret"]).status_code == 200
