"""Internal admin API: token authentication, founderId/reason checks, VIN cache clearing and vehicle deletion."""

import logging

import pytest
import sqlalchemy as sa

from app.extensions import db, redis_store
from app.internal_admin.guard import AUTH_HEADER
from app.internal_admin.models import AuditEntry
from app.vehicles.cache import keys_for, lock_key, negative_key, positive_key
from app.vehicles.models import QueryLog, UserVehicle, Vehicle
from tests.billing.conftest import billing_catalog, make_subscription  # noqa: F401 - fixtures used here
from tests.conftest import SITE
from tests.vehicles.conftest import dealer, decode_vin  # noqa: F401 - fixtures used here

TOKEN = "internal-test-token-5f0c2a9e"
VIN = "WVWZZZAUZHW100001"
OTHER_VIN = "VF1RFB00X56100002"
BODY = {"reason": "Yanlış eşleşme bildirildi", "founderId": "kurucu-1"}
PREFIX = "/api/internal/admin"


@pytest.fixture(autouse=True)
def _internal_token(app, monkeypatch):
    monkeypatch.setitem(app.config, "INTERNAL_API_TOKEN", TOKEN)


def call(client, method, path, body=BODY, token=TOKEN, headers=None):
    headers = dict(headers or {})
    if token is not None:
        headers[AUTH_HEADER] = token
    return client.open(PREFIX + path, method=method, json=body, headers=headers)


def fill_cache(vin):
    for key in keys_for(vin):
        redis_store.client.set(key, "{}")


def make_vehicle(vin=VIN, **fields):
    vehicle = Vehicle(vin=vin, brand_name="Volkswagen", model="Golf", source="catapi", **fields)
    db.session.add(vehicle)
    db.session.commit()
    return vehicle


def vehicle_by_vin(vin):
    db.session.expire_all()
    return db.session.scalar(sa.select(Vehicle).where(Vehicle.vin == vin))


# --- the token ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("token", [None, "", "wrong-token", TOKEN + "x", TOKEN[:-1], TOKEN.upper()])
@pytest.mark.parametrize(("method", "path"), [("POST", f"/vehicles/{VIN}/cache-clear"), ("DELETE", f"/vehicles/{VIN}")])
def test_a_missing_or_wrong_token_is_refused_and_changes_nothing(client, method, path, token):
    fill_cache(VIN)
    make_vehicle()

    response = call(client, method, path, token=token)

    assert response.status_code == 401
    assert response.get_json()["error"] == {
        "code": "invalid_internal_token",
        "message": "Bu çağrı için geçerli bir dahili anahtar (token) gerekir.",
    }
    assert all(redis_store.client.exists(key) for key in keys_for(VIN))
    assert vehicle_by_vin(VIN) is not None


@pytest.mark.parametrize("token", ["", "anything", None])
def test_an_empty_configured_token_refuses_every_call(app, client, monkeypatch, token):
    monkeypatch.setitem(app.config, "INTERNAL_API_TOKEN", "")
    fill_cache(VIN)

    response = call(client, "POST", f"/vehicles/{VIN}/cache-clear", token=token)

    assert response.status_code == 401
    assert all(redis_store.client.exists(key) for key in keys_for(VIN))


def test_an_app_built_without_a_token_refuses_internal_calls(make_app):
    application = make_app(INTERNAL_API_TOKEN="")

    response = application.test_client().post(
        f"{PREFIX}/vehicles/{VIN}/cache-clear", json=BODY, headers={AUTH_HEADER: ""}
    )

    assert response.status_code == 401
    assert response.get_json()["error"]["code"] == "invalid_internal_token"


def test_an_admin_session_is_no_substitute_for_the_token(client, create_user, sign_in):
    sign_in(create_user(role="admin").email)
    fill_cache(VIN)

    response = call(client, "POST", f"/vehicles/{VIN}/cache-clear", token=None, headers=SITE)

    assert response.status_code == 401
    assert response.get_json()["error"]["code"] == "invalid_internal_token"
    assert redis_store.client.exists(positive_key(VIN))


def test_the_token_never_appears_in_responses_or_logs(client, caplog):
    caplog.set_level(logging.DEBUG)

    refused = call(client, "POST", f"/vehicles/{VIN}/cache-clear", token=TOKEN + "-wrong")
    accepted = call(client, "POST", f"/vehicles/{VIN}/cache-clear")

    assert refused.status_code == 401 and accepted.status_code == 200
    for response in (refused, accepted):
        assert TOKEN not in response.get_data(as_text=True)
        assert TOKEN not in str(response.headers)
    assert "internal call refused" in caplog.text
    assert TOKEN not in caplog.text


# --- founderId and reason -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "status", "code", "message"),
    [
        ({"founderId": "kurucu-1"}, 400, "missing_field", "Gerekçe zorunludur."),
        ({"founderId": "kurucu-1", "reason": "   "}, 400, "missing_field", "Gerekçe zorunludur."),
        ({"reason": "temizlik"}, 400, "missing_field", "Kurucu kimliği zorunludur."),
        ({"reason": 42, "founderId": "kurucu-1"}, 400, "invalid_field", "Gerekçe metin olmalıdır."),
        ({"reason": "x" * 501, "founderId": "kurucu-1"}, 400, "field_too_long", None),
        ({"reason": "temizlik", "founderId": ["kurucu-1"]}, 400, "invalid_field", None),
        (["not", "an", "object"], 400, "invalid_json", None),
    ],
)
@pytest.mark.parametrize(("method", "path"), [("POST", f"/vehicles/{VIN}/cache-clear"), ("DELETE", f"/vehicles/{VIN}")])
def test_founder_and_reason_are_checked_before_anything_is_written(client, method, path, body, status, code, message):
    fill_cache(VIN)
    make_vehicle()

    response = call(client, method, path, body=body)

    assert response.status_code == status
    error = response.get_json()["error"]
    assert error["code"] == code
    if message:
        assert error["message"] == message
    assert all(redis_store.client.exists(key) for key in keys_for(VIN))
    assert vehicle_by_vin(VIN) is not None


def test_a_body_that_is_not_json_is_refused(client):
    response = client.post(f"{PREFIX}/vehicles/{VIN}/cache-clear", data="reason=x", headers={AUTH_HEADER: TOKEN})

    assert response.status_code == 415
    assert response.get_json()["error"]["code"] == "invalid_json"


@pytest.mark.parametrize(("method", "suffix"), [("POST", "/cache-clear"), ("DELETE", "")])
def test_an_invalid_vin_is_refused(client, method, suffix):
    response = call(client, method, f"/vehicles/WVWZZZAUZHW10000O{suffix}")

    assert response.status_code == 400
    assert response.get_json()["error"]["code"] == "invalid_vin"


# --- cache-clear ----------------------------------------------------------------------------------------------------


def test_cache_clear_deletes_the_three_keys_of_that_vin_only(client):
    fill_cache(VIN)
    fill_cache(OTHER_VIN)

    response = call(client, "POST", f"/vehicles/{VIN.lower()}/cache-clear")

    assert response.status_code == 200
    assert response.get_json() == {
        "clearedKeys": [positive_key(VIN), negative_key(VIN), lock_key(VIN)],
        "totalKeysChecked": 3,
    }
    assert not any(redis_store.client.exists(key) for key in keys_for(VIN))
    assert all(redis_store.client.exists(key) for key in keys_for(OTHER_VIN))


def test_cache_clear_reports_only_the_keys_that_existed(client):
    redis_store.client.set(negative_key(VIN), "{}")

    response = call(client, "POST", f"/vehicles/{VIN}/cache-clear")

    assert response.get_json() == {"clearedKeys": [negative_key(VIN)], "totalKeysChecked": 3}


def test_cache_clear_without_keys_is_a_safe_no_op(client):
    response = call(client, "POST", f"/vehicles/{VIN}/cache-clear")

    assert response.status_code == 200
    assert response.get_json() == {"clearedKeys": [], "totalKeysChecked": 3}


def test_internal_actions_are_logged_with_founder_reason_action_and_target(client, caplog):
    caplog.set_level(logging.INFO, logger="app.internal_admin")
    fill_cache(VIN)

    call(client, "POST", f"/vehicles/{VIN}/cache-clear")

    [record] = [record for record in caplog.records if record.name == "app.internal_admin"]
    assert record.levelno == logging.INFO
    text = record.getMessage()
    for expected in ("vehicle.cache_clear", VIN, "kurucu-1", "Yanlış eşleşme bildirildi"):
        assert expected in text
    assert TOKEN not in text


# --- delete ---------------------------------------------------------------------------------------------------------


def test_delete_removes_the_vehicle_and_its_user_links_keeps_query_logs_and_clears_the_keys(client, create_user):
    vehicle = make_vehicle(year=2017, engine="1.6 TDI")
    other = make_vehicle(OTHER_VIN)
    users = [create_user() for _ in range(3)]
    db.session.add_all(
        [UserVehicle(shop_id=user.shop_id, user_id=user.id, vehicle_id=vehicle.id) for user in users[:2]]
    )
    db.session.add(UserVehicle(shop_id=users[2].shop_id, user_id=users[2].id, vehicle_id=other.id))
    db.session.add(QueryLog(user_id=users[0].id, vin=VIN, source="catapi", success=True, response_time_ms=120))
    db.session.commit()
    vehicle_id, other_id = vehicle.id, other.id
    fill_cache(VIN)
    fill_cache(OTHER_VIN)

    response = call(client, "DELETE", f"/vehicles/{VIN}")

    assert response.status_code == 200
    assert response.get_json() == {
        "vehicleId": vehicle_id,
        "brandName": "Volkswagen",
        "model": "Golf",
        "source": "catapi",
        "cascadedUserLinks": 2,
    }
    assert vehicle_by_vin(VIN) is None
    assert db.session.scalars(sa.select(UserVehicle.vehicle_id)).all() == [other_id]
    assert db.session.scalars(sa.select(QueryLog.vin)).all() == [VIN]
    assert not any(redis_store.client.exists(key) for key in keys_for(VIN))
    assert all(redis_store.client.exists(key) for key in keys_for(OTHER_VIN))


def test_delete_without_user_links_reports_zero(client):
    make_vehicle()

    response = call(client, "DELETE", f"/vehicles/{VIN}")

    assert response.status_code == 200
    assert response.get_json()["cascadedUserLinks"] == 0


def test_delete_of_a_vin_without_a_vehicle_is_not_found(client):
    fill_cache(VIN)

    response = call(client, "DELETE", f"/vehicles/{VIN}")

    assert response.status_code == 404
    assert response.get_json()["error"] == {"code": "vehicle_not_found", "message": "Bu VIN'e ait araç bulunamadı."}
    assert all(redis_store.client.exists(key) for key in keys_for(VIN))


def test_a_decoded_vehicle_once_deleted_is_decoded_afresh(app, client, upstreams, dealer, decode_vin):  # noqa: F811
    first = decode_vin(VIN)
    assert first.status_code == 200, first.get_json()
    first_id = first.get_json()["vehicle"]["id"]
    assert redis_store.client.exists(positive_key(VIN))
    founder_panel = app.test_client()  # calls server to server, without the dealer's cookie

    response = call(founder_panel, "DELETE", f"/vehicles/{VIN}")

    assert response.status_code == 200
    body = response.get_json()
    assert body["vehicleId"] == first_id
    assert body["brandName"] == "Volkswagen" and "Golf" in body["model"]
    assert body["cascadedUserLinks"] == 1
    assert not redis_store.client.exists(positive_key(VIN))
    assert client.get(f"/api/vehicles/{first_id}").status_code == 404
    assert db.session.scalar(sa.select(sa.func.count()).select_from(QueryLog).where(QueryLog.vin == VIN)) == 1
    catapi_calls = upstreams.vin_calls()["catapi"]

    again = decode_vin(VIN)

    assert again.status_code == 200
    assert upstreams.vin_calls()["catapi"] == catapi_calls + 1  # decoded upstream again, not served from a cache
    assert vehicle_by_vin(VIN) is not None


# --- the audit table ------------------------------------------------------------------------------------------------


def audit_rows():
    return [
        (
            entry.action,
            entry.target_type,
            entry.target_id,
            entry.founder_id,
            entry.reason,
            entry.outcome,
            entry.before,
            entry.after,
        )
        for entry in db.session.scalars(sa.select(AuditEntry).order_by(AuditEntry.id))
    ]


def test_vehicle_calls_land_in_the_audit_table_done_or_refused(client):
    redis_store.client.set(negative_key(VIN), "{}")
    vehicle_id = make_vehicle().id

    call(client, "POST", f"/vehicles/{VIN.lower()}/cache-clear")
    call(client, "DELETE", f"/vehicles/{VIN}")
    call(client, "DELETE", f"/vehicles/{VIN}")

    founder = ("kurucu-1", "Yanlış eşleşme bildirildi")
    deleted = {"vehicleId": vehicle_id, "brandName": "Volkswagen", "model": "Golf", "source": "catapi", "userLinks": 0}
    assert audit_rows() == [
        ("vehicle.cache_clear", "vehicle", VIN, *founder, "ok", {"cacheKeys": [negative_key(VIN)]}, {"cacheKeys": []}),
        ("vehicle.delete", "vehicle", VIN, *founder, "ok", deleted, None),
        ("vehicle.delete", "vehicle", VIN, *founder, "vehicle_not_found", None, None),
    ]


def test_calls_refused_before_the_founder_is_known_are_not_in_the_audit_table(client):
    call(client, "POST", f"/vehicles/{VIN}/cache-clear", token="wrong")
    call(client, "POST", f"/vehicles/{VIN}/cache-clear", body={"reason": "temizlik"})

    assert audit_rows() == []
