"""Admin service-test tool: each decode source (or the chain) asked about a VIN, with nothing written anywhere."""

import pytest
import sqlalchemy as sa

from app.extensions import db, redis_store
from app.sources import pool as source_pool
from app.vehicles.models import QueryLog, UserVehicle, Vehicle, VinRequest
from tests.conftest import SITE

GOLF = "WVWZZZAUZHW100001"  # catapi and the portal know it
CLIO = "VF1RFB00X56100002"  # only the web catalog (scrape) knows it
ACCORD = "1HGCM82633A004352"  # only the public VIN decoder knows it
UNKNOWN = "ZZZ99999999999999"

SOURCES = ["catapi", "scrape", "portal", "vin_api", "wmi"]


@pytest.fixture(autouse=True)
def _own_adapters(monkeypatch):
    """Build the adapters afresh here: logins and tokens gained by these tests must not carry into others."""
    monkeypatch.setattr(source_pool, "_pool", {})


@pytest.fixture
def admin_client(client, create_user, sign_in):
    sign_in(create_user(role="admin").email)
    return client


def service_test(client, vin, source):
    return client.post("/api/admin/service-test", json={"vin": vin, "source": source}, headers=SITE)


def results_by_source(response):
    assert response.status_code == 200, response.get_json()
    return {result["source"]: result for result in response.get_json()["results"]}


def snapshot():
    """Row counts of every table a decode writes, and the Redis keys a decode or the breaker would leave."""
    db.session.expire_all()
    counts = {
        model.__name__: db.session.scalar(sa.select(sa.func.count()).select_from(model))
        for model in (Vehicle, UserVehicle, QueryLog, VinRequest)
    }
    keys = sorted(
        key.decode() if isinstance(key, bytes) else key
        for pattern in ("vin:*", "breaker:*")
        for key in redis_store.client.scan_iter(match=pattern)
    )
    return counts, keys


@pytest.mark.parametrize(
    ("vin", "found"),
    [
        (GOLF, {"catapi": "Golf", "portal": "Golf"}),
        (CLIO, {"scrape": "Clio"}),
        (ACCORD, {"vin_api": "Accord"}),
        (UNKNOWN, {}),
    ],
)
@pytest.mark.parametrize("source", SOURCES[:4])
def test_each_source_answers_for_the_sandbox_vins(admin_client, upstreams, vin, found, source):
    results = results_by_source(service_test(admin_client, vin, source))

    assert list(results) == [source]
    result = results[source]
    assert set(result) == {"source", "success", "outcome", "data", "error", "elapsedMs"}
    assert result["error"] is None
    assert isinstance(result["elapsedMs"], int) and result["elapsedMs"] >= 0
    if source in found:
        assert result["success"] is True and result["outcome"] == "one"
        [car] = result["data"]
        assert car["model"] == found[source]
        assert car["source"] == source
    else:
        assert result["success"] is False and result["outcome"] == "none"
        assert result["data"] == []


def test_the_chain_asks_every_source_and_the_wmi_table(admin_client, upstreams):
    response = service_test(admin_client, GOLF.lower(), "chain")

    results = results_by_source(response)
    assert response.get_json()["vin"] == GOLF
    assert response.get_json()["source"] == "chain"
    assert list(results) == SOURCES
    assert {name: result["success"] for name, result in results.items()} == {
        "catapi": True,
        "scrape": False,
        "portal": True,
        "vin_api": False,
        "wmi": True,
    }
    assert results["catapi"]["data"][0]["brand"] == "Volkswagen"
    assert results["wmi"]["data"] == {
        "wmi": "WVW",
        "brand": "Volkswagen",
        "brandSlug": "volkswagen",
        "country": "Germany",
        "portalService": "vw",
        "routedToPortal": True,
    }
    assert all(upstreams.vin_calls().values())  # every upstream was asked (the portal may log in first)


def test_the_chain_for_an_unknown_vin_finds_nothing_anywhere(admin_client, upstreams):
    results = results_by_source(service_test(admin_client, UNKNOWN, "chain"))

    assert not any(result["success"] for result in results.values())
    assert results["wmi"] == {
        "source": "wmi",
        "success": False,
        "outcome": "none",
        "data": None,
        "error": None,
        "elapsedMs": results["wmi"]["elapsedMs"],
    }


def test_the_wmi_table_alone_needs_no_upstream(admin_client, upstreams):
    results = results_by_source(service_test(admin_client, CLIO, "wmi"))

    assert results["wmi"]["success"] is True
    assert results["wmi"]["data"]["brand"] == "Renault"
    assert upstreams.vin_calls() == {"catapi": 0, "scrape": 0, "portal": 0, "vpic": 0}


def test_a_failing_source_shows_its_error(admin_client, upstreams):
    upstreams.catapi.faults.error_rate = 1.0

    results = results_by_source(service_test(admin_client, GOLF, "chain"))

    catapi = results["catapi"]
    assert catapi["success"] is False and catapi["outcome"] == "failure"
    assert "503" in catapi["error"]
    assert catapi["data"] == []
    assert results["portal"]["success"] is True  # the others still answer


def test_a_source_that_does_not_answer_in_time_is_reported_as_a_timeout(app, admin_client, upstreams, monkeypatch):
    monkeypatch.setitem(app.config, "DECODE_BUDGET_SECONDS", 0.3)
    upstreams.catapi.faults.hang = True
    upstreams.catapi.faults.hang_seconds = 1.0

    results = results_by_source(service_test(admin_client, GOLF, "catapi"))

    assert results["catapi"]["success"] is False
    assert results["catapi"]["outcome"] == "timeout"
    assert results["catapi"]["error"] == "Kaynak 0,3 saniye içinde yanıt vermedi."


def test_a_source_that_is_not_configured_says_so(app, admin_client, upstreams, monkeypatch):
    monkeypatch.setitem(app.config, "PORTAL_BASE_URL", "")

    results = results_by_source(service_test(admin_client, GOLF, "chain"))

    assert results["portal"] == {
        "source": "portal",
        "success": False,
        "outcome": "not_configured",
        "data": None,
        "error": "Bu kaynak bu sunucuda yapılandırılmamış.",
        "elapsedMs": 0,
    }
    assert results["catapi"]["success"] is True


@pytest.mark.parametrize("source", ["chain", "catapi"])
def test_the_service_test_writes_nothing(admin_client, upstreams, source):
    upstreams.portal.faults.error_rate = 1.0  # a decode would count these failures in the portal's breaker
    before = snapshot()

    assert service_test(admin_client, GOLF, source).status_code == 200
    assert service_test(admin_client, CLIO, source).status_code == 200

    assert snapshot() == before
    assert before[1] == []


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"vin": GOLF, "source": "google"}, "invalid_source"),
        ({"vin": GOLF}, "missing_field"),
        ({"vin": "WVWZZZ", "source": "catapi"}, "invalid_vin"),
        ({"source": "catapi"}, "invalid_vin"),
    ],
)
def test_bad_input_is_refused(admin_client, upstreams, body, code):
    response = admin_client.post("/api/admin/service-test", json=body, headers=SITE)

    assert response.status_code == 400
    assert response.get_json()["error"]["code"] == code
    assert upstreams.vin_calls() == {"catapi": 0, "scrape": 0, "portal": 0, "vpic": 0}


def test_the_source_list_is_named_in_turkish(admin_client):
    response = admin_client.post("/api/admin/service-test", json={"vin": GOLF, "source": "x"}, headers=SITE)

    assert response.get_json()["error"]["message"] == ("Bir kaynak seçin: catapi, scrape, portal, vin_api, wmi, chain.")


def test_a_plain_user_is_refused(client, create_user, sign_in, upstreams):
    sign_in(create_user().email)

    response = service_test(client, GOLF, "chain")

    assert response.status_code == 403
    assert response.get_json()["error"]["code"] == "forbidden"
    assert upstreams.vin_calls() == {"catapi": 0, "scrape": 0, "portal": 0, "vpic": 0}


def test_an_anonymous_caller_is_refused(client, upstreams):
    assert service_test(client, GOLF, "chain").status_code == 401
