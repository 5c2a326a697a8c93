"""Decode under load and outages (issue 13 part 5): one shared limit, a per-process cap on decodes past the cache,
the portal joining once catapi fails, an outage told as such, Redis down, and no history keys left behind."""

from __future__ import annotations

import socket
import threading
import time
from datetime import timedelta

import pytest
import redis
import requests
import sqlalchemy as sa

from app.core.db import utcnow
from app.core.loopback import LoopbackServer
from app.extensions import db, limiter, redis_store
from app.sources.sandbox.catalog import VIN_BMW, VIN_CLIO, VIN_GOLF, VIN_HONDA
from app.vehicles.cache import negative_key, positive_key
from app.vehicles.capacity import SLOTS
from app.vehicles.models import QueryLog, UserVehicle, Vehicle, VinRequest
from tests.conftest import PASSWORD, SITE, csrf_token_from
from tests.support.committed_dealer import committed_dealer
from tests.support.processes import wait_until
from tests.support.redis_server import redis_server  # noqa: F401 - fixture used here

TR = {**SITE, "Accept-Language": "tr"}


def last_log(vin: str) -> QueryLog:
    db.session.expire_all()
    return db.session.scalars(sa.select(QueryLog).where(QueryLog.vin == vin).order_by(QueryLog.id.desc())).first()


@pytest.fixture
def quick_catapi_timeouts(app, monkeypatch):
    """catapi attempts that time out after 0.3 s, and a 3 s budget."""
    monkeypatch.setitem(app.config, "PCAT_DECODE_TIMEOUT_MS", 300)
    monkeypatch.setitem(app.config, "DECODE_BUDGET_SECONDS", 3)


# --- one limit for the API and the page --------------------------------------------------------------------------


def test_the_api_and_the_search_page_share_one_decode_limit(app, client, dealer, decode_vin, upstreams, monkeypatch):
    monkeypatch.setitem(app.config, "RATELIMIT_ENABLED", True)
    monkeypatch.setattr(limiter, "enabled", True)  # one object for every app: the last one built set it
    monkeypatch.setitem(app.config, "DECODE_RATE_LIMIT", "3 per minute")

    form = {"vin": VIN_GOLF, "csrf_token": csrf_token_from(client.get("/vin").get_data(as_text=True))}

    assert decode_vin(VIN_GOLF).status_code == 200
    assert client.post("/vin/decode", data=form).status_code == 303  # straight to the vehicle
    assert decode_vin(VIN_GOLF).status_code == 200
    refused_api = client.post("/api/vehicles/decode", json={"vin": VIN_GOLF}, headers=TR)
    refused_page = client.post("/vin/decode", data=form, headers={"HX-Request": "true", "Accept-Language": "tr"})

    assert refused_api.status_code == 429
    assert refused_api.get_json()["error"]["code"] == "rate_limited"
    assert "Retry-After" in refused_api.headers
    assert "çok fazla" in refused_page.get_data(as_text=True).lower()


# --- catapi slow or down ---------------------------------------------------------------------------------------------


def test_the_portal_joins_as_soon_as_a_catapi_attempt_fails(dealer, decode_vin, upstreams, quick_catapi_timeouts):
    upstreams.catapi.faults.latency_ms = 2000  # every attempt times out (0.3 s each, five attempts)

    started = time.monotonic()
    response = decode_vin(VIN_BMW)

    assert response.status_code == 200
    assert response.get_json()["vehicle"]["source"] == "portal"
    assert time.monotonic() - started < 1.5  # not after all of catapi's retries (1.5 s and more)
    assert last_log(VIN_BMW).timings["catapi_failed"] is True


def test_a_vin_the_public_decoder_knows_is_identified_within_the_budget_while_catapi_times_out(
    app, dealer, client, upstreams, quick_catapi_timeouts, monkeypatch
):
    monkeypatch.setitem(app.config, "PCAT_DECODE_TIMEOUT_MS", 1000)  # its retries would end at 5 s
    upstreams.catapi.faults.latency_ms = 5000

    started = time.monotonic()
    response = client.post("/api/vehicles/decode", json={"vin": VIN_HONDA}, headers=TR)

    assert time.monotonic() - started < 3
    assert response.status_code == 422
    assert response.get_json()["error"]["code"] == "identified_no_catalog"  # scrape answered: no catalog has it
    timings = last_log(VIN_HONDA).timings
    assert timings["catapi_failed"] is True and timings["gave_up"] == ["catapi"]  # given up at 2.25 s for vPIC


def test_when_every_source_fails_the_dealer_hears_the_make_and_try_again_and_the_request_is_saved(
    dealer, client, upstreams, quick_catapi_timeouts
):
    upstreams.catapi.faults.error_rate = 1.0
    upstreams.scrape.faults.error_rate = 1.0

    response = client.post("/api/vehicles/decode", json={"vin": VIN_HONDA}, headers=TR)

    assert response.status_code == 503
    assert int(response.headers["Retry-After"]) >= 30  # the limiter may name its own, later reset
    assert response.get_json()["error"] == {
        "code": "sources_unavailable",
        "message": "Bu VIN bir Honda aracına ait. Araç kataloglarına şu anda ulaşılamıyor; talebiniz kaydedildi. "
        "Lütfen birkaç dakika sonra yeniden deneyin.",
    }
    assert not redis_store.client.exists(negative_key(VIN_HONDA))
    saved = db.session.scalars(sa.select(VinRequest).where(VinRequest.vin == VIN_HONDA)).all()
    assert [(row.kind, row.user_id, row.description) for row in saved] == [("unavailable", dealer.id, "Honda")]
    log = last_log(VIN_HONDA)
    assert (log.success, log.error_message, log.timings["result_kind"]) == (False, "sources_unavailable", "unavailable")
    assert upstreams.vin_calls()["vpic"] == 0  # the offline WMI table names the make; the outage is no identification


def test_an_outage_is_shown_on_the_search_page_with_a_retry(dealer, client, upstreams, quick_catapi_timeouts):
    upstreams.catapi.faults.error_rate = 1.0
    upstreams.scrape.faults.error_rate = 1.0

    form = {"vin": VIN_HONDA, "csrf_token": csrf_token_from(client.get("/vin").get_data(as_text=True))}
    page = client.post("/vin/decode", data=form, headers={"Accept-Language": "tr"})

    assert page.status_code == 200
    assert "Bu VIN bir Honda aracına ait. Araç kataloglarına şu anda ulaşılamıyor" in page.get_data(as_text=True)


# --- the per-process cap -----------------------------------------------------------------------------------------


def test_a_decode_that_finds_no_free_slot_is_refused_as_busy_and_cached_ones_still_answer(
    app, dealer, client, decode_vin, upstreams, monkeypatch
):
    assert decode_vin(VIN_GOLF).status_code == 200  # cached from now on
    monkeypatch.setitem(app.config, "DECODE_MAX_CONCURRENT", 1)
    monkeypatch.setitem(app.config, "DECODE_QUEUE_SECONDS", 0.2)
    _taken, token = SLOTS.take(1, 0, lambda: False)  # a decode hanging elsewhere in this process
    try:
        busy = client.post("/api/vehicles/decode", json={"vin": VIN_CLIO}, headers=TR)
        cached = decode_vin(VIN_GOLF)
    finally:
        SLOTS.give_back(token)

    assert busy.status_code == 503
    assert int(busy.headers["Retry-After"]) >= 5
    assert busy.get_json()["error"]["code"] == "decode_busy"
    assert "VIN sorgusu" in busy.get_json()["error"]["message"]
    assert upstreams.vin_calls()["scrape"] == 1  # the Golf's decode only
    assert last_log(VIN_CLIO).error_message == "decode_busy"
    assert cached.status_code == 200


def test_a_decode_waiting_for_a_slot_answers_as_soon_as_another_decode_cached_its_vin(
    app, dealer, decode_vin, upstreams, monkeypatch
):
    decode_vin(VIN_GOLF)
    document = redis_store.client.get(positive_key(VIN_GOLF))
    redis_store.client.delete(positive_key(VIN_GOLF))  # as if another request were still decoding it
    monkeypatch.setitem(app.config, "DECODE_QUEUE_SECONDS", 2)
    _taken, token = SLOTS.take(int(app.config["DECODE_MAX_CONCURRENT"]), 0, lambda: False)
    _others, other = SLOTS.take(int(app.config["DECODE_MAX_CONCURRENT"]), 0, lambda: False)
    store = redis_store.client
    filler = threading.Timer(0.3, lambda: store.set(positive_key(VIN_GOLF), document))
    filler.start()
    try:
        response = decode_vin(VIN_GOLF)
    finally:
        filler.join()
        SLOTS.give_back(token)
        SLOTS.give_back(other)

    assert response.status_code == 200
    timings = last_log(VIN_GOLF).timings
    assert timings["cache_source"] == "redis_positive" and 250 <= timings["slot_wait_ms"] < 2000


@pytest.mark.no_isolation
def test_stored_pages_and_health_answer_at_once_while_decodes_hang(app, upstreams, monkeypatch):
    """Six decodes of new VINs against hung catalog sources on a live threaded server: two hang in their slots, the
    others are refused at once; health, the history and a stored vehicle answer within a second meanwhile."""
    monkeypatch.setitem(app.config, "DECODE_MAX_CONCURRENT", 2)
    monkeypatch.setitem(app.config, "DECODE_QUEUE_SECONDS", 0.3)
    monkeypatch.setitem(app.config, "DECODE_BUDGET_SECONDS", 6)
    with committed_dealer(app) as dealer:
        server = LoopbackServer(app, name="decode-load", quiet=True).start()
        http = requests.Session()
        http.headers["Origin"] = server.url
        try:
            sign_in = {"email": dealer.email, "password": dealer.password}
            assert http.post(f"{server.url}/api/auth/sign-in/email", json=sign_in, timeout=10).status_code == 200
            golf = http.post(f"{server.url}/api/vehicles/decode", json={"vin": VIN_GOLF}, timeout=10).json()
            for sandbox in (upstreams.catapi, upstreams.scrape, upstreams.portal):
                sandbox.faults.latency_ms = 5000
            answers = _decode_in_threads(http, server.url, [VIN_CLIO, VIN_BMW, *_new_vins(4)])
            # The excess decodes are refused at once while two hang in the two slots: measure only then.
            wait_until(
                lambda: SLOTS.busy == 2 and sum("status" in answer for answer in answers.values()) == 4,
                timeout=10,
                what="four decodes refused and two hanging in their slots",
            )
            quick = {path: _timed_get(http, server.url + path) for path in _stored_pages(golf["vehicle"]["id"])}
            _join(answers)
        finally:
            server.stop()
    assert all(status == 200 and seconds < 1 for status, seconds in quick.values()), quick
    statuses = sorted(answer["status"] for answer in answers.values())
    assert statuses.count(503) >= 4, statuses


def _new_vins(count: int) -> list[str]:
    return [f"WVWZZZAUZHW2{number:05d}" for number in range(count)]


def _stored_pages(vehicle_id: int) -> list[str]:
    return ["/api/health", "/api/vehicles/history", f"/api/vehicles/{vehicle_id}"]


def _decode_in_threads(http: requests.Session, url: str, vins: list[str]) -> dict[str, dict]:
    answers: dict[str, dict] = {vin: {} for vin in vins}

    def decode(vin: str) -> None:
        response = http.post(f"{url}/api/vehicles/decode", json={"vin": vin}, timeout=30)
        answers[vin]["status"] = response.status_code

    for vin in vins:
        answers[vin]["thread"] = threading.Thread(target=decode, args=(vin,))
        answers[vin]["thread"].start()
    return answers


def _join(answers: dict[str, dict]) -> None:
    for answer in answers.values():
        answer.pop("thread").join(30)


def _timed_get(http: requests.Session, url: str) -> tuple[int, float]:
    started = time.monotonic()
    status = http.get(url, timeout=30).status_code
    return status, time.monotonic() - started


# --- Redis down --------------------------------------------------------------------------------------------------


@pytest.fixture
def redis_down(app, monkeypatch):
    """Point the app's Redis client at a port nobody listens on (the limiter keeps its own storage)."""

    def stop() -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        dead = redis.Redis(host="127.0.0.1", port=port, socket_connect_timeout=0.2, socket_timeout=0.2)
        monkeypatch.setitem(app.extensions, "redis", dead)

    return stop


def test_with_redis_down_a_new_vin_is_refused_and_nothing_is_written_half_done(dealer, client, upstreams, redis_down):
    redis_down()

    response = client.post("/api/vehicles/decode", json={"vin": VIN_CLIO}, headers=TR)

    assert response.status_code == 503
    assert int(response.headers["Retry-After"]) >= 15
    assert response.get_json()["error"]["code"] == "decode_unavailable"
    assert "Yeni VIN'ler şu anda sorgulanamıyor" in response.get_json()["error"]["message"]
    assert upstreams.vin_calls() == {"catapi": 0, "scrape": 0, "portal": 0, "vpic": 0}
    assert db.session.scalar(sa.select(Vehicle).where(Vehicle.vin == VIN_CLIO)) is None
    assert last_log(VIN_CLIO).error_message == "decode_unavailable"


def test_with_redis_down_a_stored_vehicle_still_decodes(dealer, decode_vin, upstreams, redis_down):
    stored = decode_vin(VIN_GOLF).get_json()["vehicle"]
    redis_down()

    response = decode_vin(VIN_GOLF)

    assert response.status_code == 200
    assert response.get_json()["vehicle"]["id"] == stored["id"]
    assert last_log(VIN_GOLF).timings["cache_source"] == "db_hit"


# --- the history leaves no keys ------------------------------------------------------------------------------------


def test_the_internal_delete_leaves_no_history_keys_and_a_new_decode_is_in_the_history_at_once(
    app, client, dealer, decode_vin, upstreams, monkeypatch
):
    monkeypatch.setitem(app.config, "INTERNAL_API_TOKEN", "internal-token-for-load-tests")
    decode_vin(VIN_GOLF)
    body = {"reason": "Yanlış eşleşme", "founderId": "kurucu-1"}
    headers = {**SITE, "X-Internal-Token": "internal-token-for-load-tests"}

    deleted = client.delete(f"/api/internal/admin/vehicles/{VIN_GOLF}", json=body, headers=headers)
    again = decode_vin(VIN_GOLF).get_json()["vehicle"]

    assert deleted.status_code == 200
    assert list(redis_store.client.scan_iter("history:touched:*")) == []
    history = client.get("/api/vehicles/history").get_json()["items"]
    assert [item["id"] for item in history] == [again["id"]]


# --- the cached path's writes ------------------------------------------------------------------------------------


def test_every_cached_decode_is_logged_and_moves_the_vehicle_up_at_most_once_a_minute(
    dealer, client, decode_vin, upstreams
):
    golf = decode_vin(VIN_GOLF).get_json()["vehicle"]["id"]
    decode_vin(VIN_CLIO)
    link = UserVehicle.__table__
    an_hour_ago = utcnow() - timedelta(hours=1)
    db.session.execute(sa.update(link).where(link.c.user_id == dealer.id).values(last_decoded_at=an_hour_ago))
    db.session.commit()

    decode_vin(VIN_GOLF)
    moved_at = _last_decoded(dealer.shop_id, golf)
    decode_vin(VIN_GOLF)

    assert moved_at > an_hour_ago
    assert _last_decoded(dealer.shop_id, golf) == moved_at  # within the minute: the row is left as it is
    history = client.get("/api/vehicles/history").get_json()["items"]
    assert [item["vin"] for item in history] == [VIN_GOLF, VIN_CLIO]
    golf_logs = db.session.scalars(sa.select(QueryLog).where(QueryLog.vin == VIN_GOLF).order_by(QueryLog.id)).all()
    assert [log.timings.get("cache_source") for log in golf_logs] == ["miss", "redis_positive", "redis_positive"]


def _last_decoded(shop_id, vehicle_id):
    db.session.expire_all()
    return db.session.get(UserVehicle, (shop_id, vehicle_id)).last_decoded_at


@pytest.fixture
def real_redis_app(make_app, redis_server, upstreams):  # noqa: F811
    """An app on a redis-server of the test's own (the limiter is put back afterwards, as in the outage tests)."""
    saved = dict(vars(limiter))
    yield make_app(REDIS_URL=redis_server.url, REDIS_SOCKET_TIMEOUT=0.5, **upstreams.settings)
    vars(limiter).clear()
    vars(limiter).update(saved)


@pytest.mark.parametrize("outage", ["kill", "pause"])
def test_a_real_redis_going_away_refuses_new_vins_with_503_and_keeps_stored_ones(
    real_redis_app,
    redis_server,  # noqa: F811 - the fixture imported above
    create_user,
    make_subscription,
    upstreams,
    outage,
):
    user = create_user()
    make_subscription(user, "active", plan_key="full")
    client = real_redis_app.test_client()
    body = {"email": user.email, "password": PASSWORD}
    assert client.post("/api/auth/sign-in/email", json=body, headers=SITE).status_code == 200
    stored = client.post("/api/vehicles/decode", json={"vin": VIN_GOLF}, headers=SITE).get_json()["vehicle"]
    getattr(redis_server, outage)()

    started = time.monotonic()
    new = client.post("/api/vehicles/decode", json={"vin": VIN_CLIO}, headers=TR)
    again = client.post("/api/vehicles/decode", json={"vin": VIN_GOLF}, headers=TR)

    assert time.monotonic() - started < 5
    assert (new.status_code, new.get_json()["error"]["code"]) == (503, "decode_unavailable")
    assert int(new.headers["Retry-After"]) >= 15
    assert (again.status_code, again.get_json()["vehicle"]["id"]) == (200, stored["id"])
    assert db.session.scalar(sa.select(Vehicle).where(Vehicle.vin == VIN_CLIO)) is None
    assert last_log(VIN_CLIO).error_message == "decode_unavailable"


@pytest.mark.no_isolation
def test_cached_decodes_on_the_apps_own_engine_log_each_and_leave_no_connection_in_autocommit(app, upstreams):
    """On the app's own engine (no test transaction around it), a found car's log row and history link are one
    statement, on PostgreSQL its own transaction: every decode is logged, the link is one row, and the connections
    go back to the pool in transactions again (a later request's writes stay atomic)."""
    with committed_dealer(app) as dealer:
        client = app.test_client()
        signed = client.post(
            "/api/auth/sign-in/email", json={"email": dealer.email, "password": PASSWORD}, headers=SITE
        )
        assert signed.status_code == 200
        answers = [client.post("/api/vehicles/decode", json={"vin": VIN_GOLF}, headers=SITE) for _ in range(5)]
        assert [answer.status_code for answer in answers] == [200] * 5
        vehicle_id = answers[0].get_json()["vehicle"]["id"]
        with app.app_context():
            logged = db.session.scalars(sa.select(QueryLog.vin).where(QueryLog.user_id == dealer.id)).all()
            links = db.session.scalars(sa.select(UserVehicle.vehicle_id).where(UserVehicle.user_id == dealer.id)).all()
            db.session.remove()
            pooled = [db.engine.connect() for _ in range(db.engine.pool.checkedin())]  # every idle one
            in_autocommit = [
                getattr(connection.connection.driver_connection, "autocommit", False) is True for connection in pooled
            ]
            for connection in pooled:
                connection.close()
    assert logged == [VIN_GOLF] * 5
    assert links == [vehicle_id]
    assert in_autocommit and not any(in_autocommit)
