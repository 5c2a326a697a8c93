"""A Redis outage degrades the product instead of stopping it: stored pages keep answering from the database, health
says Redis is down (503) and ok again soon after it returns. Against a real redis-server the test stops and starts."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass

import pytest

from app.catalog import store
from app.catalog.providers import Node, PartLine
from app.extensions import db, limiter
from app.vehicles.models import UserVehicle, Vehicle
from tests.billing.conftest import billing_catalog, make_subscription  # noqa: F401 - fixtures used here
from tests.conftest import PASSWORD, SITE, csrf_token_from
from tests.support.processes import wait_until
from tests.support.redis_server import redis_server  # noqa: F401 - fixture used here
from tests.support.scan_images import engine_in_health

HEALTH_RECOVERY_SECONDS = 10
SOCKET_TIMEOUT = 0.5
# While Redis hangs, a request pays at most a few socket timeouts (the limiter's call, its check that falls back to
# in-process counting, the page's or health's own call): bounded, never a hang.
PAGE_SECONDS = 3 * SOCKET_TIMEOUT + 1.0


@dataclass(frozen=True)
class StoredCatalog:
    vehicle_id: int
    root: int
    leaf: int


@pytest.fixture
def stored_catalog(app, create_user, make_subscription) -> StoredCatalog:  # noqa: F811
    """A dealer with a Full plan and a stored vehicle in their history: roots, one leaf with its parts."""
    vehicle = Vehicle(vin="NM0KXXTTGKEA00001", brand_name="Ford", model="Focus", year=2019, source="portal")
    db.session.add(vehicle)
    db.session.flush()
    store.save_nodes(vehicle.id, "portal", None, [Node("1", "Motor"), Node("2", "Yakıt sistemi")])
    root = store.roots(vehicle.id)[0]
    store.save_nodes(vehicle.id, "portal", root.id, [Node("11", "FİLTRELER", is_leaf=True)])
    leaf = store.children(root.id)[0]
    store.save_parts(vehicle.id, leaf.id, "portal", [PartLine("03L 115 562", "YAĞ FİLTRESİ", position="1")])
    user = create_user(email="kesinti@example.com")
    make_subscription(user, "active", plan_key="full")
    db.session.add(
        UserVehicle(shop_id=user.shop_id, user_id=user.id, vehicle_id=vehicle.id, last_decoded_at=vehicle.created_at)
    )
    db.session.commit()
    return StoredCatalog(vehicle.id, root.id, leaf.id)


@pytest.fixture
def outage_app(make_app, redis_server):  # noqa: F811
    """An app on the test's own redis-server. Flask-Limiter keeps one storage for every app of the process: the
    limiter is put back as it was afterwards, so later tests do not count their limits on a dead Redis."""
    saved = dict(vars(limiter))
    yield make_app(REDIS_URL=redis_server.url, REDIS_SOCKET_TIMEOUT=SOCKET_TIMEOUT)
    vars(limiter).clear()
    vars(limiter).update(saved)


def stored_pages(catalog: StoredCatalog) -> list[str]:
    vehicle, root, leaf = catalog.vehicle_id, catalog.root, catalog.leaf
    return [
        "/",
        "/vin",
        f"/vehicles/{vehicle}",
        f"/vehicles/{vehicle}?q=filtre",
        f"/vehicles/{vehicle}/categories/{root}",
        f"/vehicles/{vehicle}/categories/{leaf}",
        f"/api/vehicles/{vehicle}",
        f"/api/vehicles/{vehicle}/categories",
        f"/api/vehicles/{vehicle}/categories/{root}",
        f"/api/vehicles/{vehicle}/categories/{root}/children",
        f"/api/vehicles/{vehicle}/categories/{leaf}",
        f"/api/vehicles/{vehicle}/categories/progress",
        f"/api/categories/search/{vehicle}?q=filtre",
        "/api/vehicles/history",
        "/api/vehicles/preview/NM0KXXTTGKEA00001",  # its cache is skipped; the stored vehicle answers
        "/account",
        "/api/auth/get-session",
        "/api/account/connections",
        "/plans",
        "/subscription",
        "/payments",
        "/api/subscriptions/plans",
        "/api/subscriptions/me",
        "/api/subscriptions/brands",
        "/api/payments/me",
    ]


def signed_in(app, email: str):
    client = app.test_client()
    response = client.post("/api/auth/sign-in/email", json={"email": email, "password": PASSWORD}, headers=SITE)
    assert response.status_code == 200, response.get_json()
    return client


def get_timed(client, url: str, headers: dict | None = None):
    started = time.monotonic()
    response = client.get(url, headers=headers)
    return response, time.monotonic() - started


def test_stored_pages_answer_while_redis_is_down(outage_app, redis_server, stored_catalog):  # noqa: F811
    client = signed_in(outage_app, "kesinti@example.com")
    redis_server.kill()

    slow, failed = [], []
    for url in stored_pages(stored_catalog):
        response, seconds = get_timed(client, url)
        if response.status_code != 200:
            failed.append((url, response.status_code))
        if seconds > PAGE_SECONDS:
            slow.append((url, round(seconds, 2)))

    progress, _ = get_timed(client, f"/vehicles/{stored_catalog.vehicle_id}/catalog-progress", {"HX-Request": "true"})
    assert failed == []
    assert slow == []
    assert progress.status_code == 200


def test_forgetting_a_vehicle_works_while_redis_is_down(outage_app, redis_server, stored_catalog):  # noqa: F811
    client = signed_in(outage_app, "kesinti@example.com")
    redis_server.kill()

    response = client.delete(f"/api/vehicles/history/{stored_catalog.vehicle_id}", json={}, headers=SITE)

    assert response.status_code == 200, response.get_json()
    assert client.get("/api/vehicles/history").get_json()["items"] == []


def test_stored_pages_answer_while_redis_hangs(outage_app, redis_server, stored_catalog):  # noqa: F811
    client = signed_in(outage_app, "kesinti@example.com")
    redis_server.pause()  # connections are accepted, nothing is answered

    answers = [get_timed(client, url) for url in stored_pages(stored_catalog)[:6]]

    assert [response.status_code for response, _seconds in answers] == [200] * 6
    assert max(seconds for _response, seconds in answers) < PAGE_SECONDS


def test_health_names_redis_while_it_is_down_and_is_ok_again_soon_after_it_returns(outage_app, redis_server):  # noqa: F811
    client = outage_app.test_client()
    assert client.get("/api/health").status_code == 200
    redis_server.stop()

    down = client.get("/api/health")
    assert down.status_code == 503
    assert down.get_json() == {
        "status": "degraded",
        "database": "ok",
        "redis": "down",
        "worker": "unknown",
        "textEngine": engine_in_health(),
    }

    redis_server.start()
    started = time.monotonic()
    wait_until(lambda: client.get("/api/health").status_code == 200, HEALTH_RECOVERY_SECONDS, "health 200 again")
    assert time.monotonic() - started < HEALTH_RECOVERY_SECONDS


def test_health_is_503_while_redis_hangs(outage_app, redis_server):  # noqa: F811
    client = outage_app.test_client()
    assert client.get("/api/health").status_code == 200
    redis_server.pause()

    response, seconds = get_timed(client, "/api/health")

    assert response.status_code == 503 and response.get_json()["redis"] == "down"
    assert seconds < PAGE_SECONDS


def test_a_decode_progress_poll_while_redis_is_down_says_so_in_turkish(outage_app, redis_server, stored_catalog):  # noqa: F811
    client = signed_in(outage_app, "kesinti@example.com")
    redis_server.kill()

    page = client.get("/vin/decode/" + "a" * 24)
    fragment = client.get("/vin/decode/" + "a" * 24, headers={"HX-Request": "true"})

    assert page.status_code == 503
    assert "Bu aramanın ilerlemesi şu anda gösterilemiyor" in page.get_data(as_text=True)
    assert fragment.status_code == 200  # htmx swaps only a 2xx: the message replaces the progress list
    assert "Bu aramanın ilerlemesi şu anda gösterilemiyor" in fragment.get_data(as_text=True)


def test_a_page_search_of_a_stored_vin_opens_its_vehicle_while_redis_is_down(outage_app, redis_server, stored_catalog):  # noqa: F811
    client = signed_in(outage_app, "kesinti@example.com")
    token = csrf_token_from(client.get("/vin").get_data(as_text=True))
    redis_server.kill()  # no progress record to poll: the search runs within the request instead

    response = client.post(
        "/vin/decode", data={"vin": "NM0KXXTTGKEA00001", "csrf_token": token}, headers={"HX-Request": "true"}
    )

    assert response.status_code == 200
    assert response.headers["HX-Redirect"] == f"/vehicles/{stored_catalog.vehicle_id}"


def test_the_session_check_reads_a_restarted_redis_again_without_falling_back(
    outage_app,
    redis_server,  # noqa: F811
    stored_catalog,
    caplog,
):
    """The session's tokens are read on a pooled connection past redis-py's command layer: the pool replaces the
    connection the restart closed, so the session check answers from Redis again at once, not from the database."""
    client = signed_in(outage_app, "kesinti@example.com")
    assert client.get("/api/vehicles/history").status_code == 200
    redis_server.stop()
    redis_server.start()

    with caplog.at_level(logging.WARNING, logger="app.auth.session_cache"):
        assert client.get("/api/vehicles/history").status_code == 200
    assert not [record for record in caplog.records if "session versions unreadable" in record.getMessage()]


def test_the_session_check_falls_back_to_the_database_while_redis_hangs(
    outage_app,
    redis_server,  # noqa: F811
    stored_catalog,
    caplog,
):
    client = signed_in(outage_app, "kesinti@example.com")
    assert client.get("/api/vehicles/history").status_code == 200
    redis_server.pause()
    try:
        with caplog.at_level(logging.WARNING, logger="app.auth.session_cache"):
            response, seconds = get_timed(client, "/api/vehicles/history")
    finally:
        redis_server.resume()
    assert response.status_code == 200
    assert seconds < PAGE_SECONDS
    assert [record for record in caplog.records if "session versions unreadable" in record.getMessage()]
