"""POST /api/vehicles/decode: each row of the decode order, against the sandbox upstreams through the real adapters."""

from __future__ import annotations

import threading
import time

import pytest
import sqlalchemy as sa

from app.extensions import db, limiter, redis_store
from app.sources.sandbox.catalog import VIN_BMW, VIN_CLIO, VIN_COROLLA, VIN_GOLF, VIN_HONDA, VIN_UNKNOWN
from app.sources.sandbox.scrape_server import VIN_SCRAPE_SEVERAL
from app.vehicles.answers import vehicle_view
from app.vehicles.breaker import portal_breaker
from app.vehicles.cache import ResolveCache, negative_key, positive_key
from app.vehicles.models import QueryLog, UserVehicle, Vehicle, VinRequest
from tests.conftest import csrf_token_from
from tests.support.processes import wait_until

VIN_MERCEDES = "WDD2050421F000006"  # a make whose VIN identification the portal has suspended
TR = {"Accept-Language": "tr"}


def last_log(vin: str) -> QueryLog:
    db.session.expire_all()
    return db.session.scalars(sa.select(QueryLog).where(QueryLog.vin == vin).order_by(QueryLog.id.desc())).first()


def logs(vin: str) -> list[QueryLog]:
    return list(db.session.scalars(sa.select(QueryLog).where(QueryLog.vin == vin).order_by(QueryLog.id)))


# --- input and access --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("vin", "message"),
    [
        ("WVWZZZAUZHW10000", "VIN 17 karakterdir; bu 16 karakter."),
        ("WVWZZZAUZHW1000O1", "VIN yalnızca rakam ve I, O, Q dışındaki harflerden oluşur."),
        ("", "17 karakterli VIN'i girin."),
    ],
)
def test_a_malformed_vin_is_refused_in_turkish_before_any_upstream_call(dealer, client, upstreams, vin, message):
    response = client.post("/api/vehicles/decode", json={"vin": vin}, headers={"Origin": "http://localhost", **TR})

    assert response.status_code == 400
    assert response.get_json()["error"] == {"code": "invalid_vin", "message": message}
    assert upstreams.vin_calls() == {"catapi": 0, "scrape": 0, "portal": 0, "vpic": 0}


def test_spaces_dashes_and_lower_case_are_read_as_the_same_vin(dealer, decode_vin, upstreams):
    response = decode_vin(" wvwzzz-auzhw100001 ")

    assert response.status_code == 200
    assert response.get_json()["vehicle"]["vin"] == VIN_GOLF


def test_decoding_needs_a_session(client, upstreams):
    response = client.post("/api/vehicles/decode", json={"vin": VIN_GOLF}, headers={"Origin": "http://localhost"})

    assert response.status_code == 401


def test_a_brand_outside_the_plan_is_refused_before_decoding(
    create_user, make_subscription, sign_in, decode_vin, upstreams, billing_catalog
):
    user = create_user()
    subscription = make_subscription(user, "active", plan_key="single")
    sign_in(user.email)
    assert "Volkswagen" not in [brand.name for brand in subscription.brands]

    response = decode_vin(VIN_GOLF)

    assert response.status_code == 403
    assert response.get_json()["error"]["code"] == "brand_not_in_plan"
    assert upstreams.vin_calls()["catapi"] == 0


def test_without_a_subscription_decoding_is_refused(create_user, sign_in, decode_vin, upstreams, billing_catalog):
    user = create_user()
    sign_in(user.email)

    response = decode_vin(VIN_GOLF)

    assert response.status_code == 403
    assert response.get_json()["error"]["code"] == "subscription_required"


# --- the race ----------------------------------------------------------------------------------------------------


def test_a_single_catalog_car_is_stored_for_everyone_and_linked_to_the_user(dealer, decode_vin, upstreams):
    response = decode_vin(VIN_GOLF)

    assert response.status_code == 200
    vehicle = response.get_json()["vehicle"]
    assert (vehicle["brandName"], vehicle["model"], vehicle["source"]) == ("Volkswagen", "Golf", "catapi")
    stored = db.session.scalar(sa.select(Vehicle).where(Vehicle.vin == VIN_GOLF))
    assert stored.id == vehicle["id"] and stored.raw_data["carId"]
    assert db.session.get(UserVehicle, (dealer.shop_id, stored.id)) is not None
    log = last_log(VIN_GOLF)
    assert (log.success, log.source, log.brand_id, log.user_id) == (True, "catapi", stored.brand_id, dealer.id)
    assert log.response_time_ms >= 0
    assert log.timings["wmi"] == "WVW"
    assert log.timings["result_kind"] == "vehicle"
    assert log.timings["cache_source"] == "miss"
    assert log.timings["candidate_pick"] == "none"
    assert log.timings["catapi_car_count"] == 1
    assert log.timings["portal_skipped"] is False and log.timings["portal_circuit_open"] is False
    assert isinstance(log.timings["catapi_ms"], int)


def test_the_first_single_car_wins_without_waiting_for_the_slower_source(dealer, decode_vin, upstreams):
    upstreams.catapi.faults.latency_ms = 1500

    started = time.monotonic()
    response = decode_vin(VIN_CLIO)

    assert response.get_json()["vehicle"]["source"] == "scrape"
    assert time.monotonic() - started < 1.4  # answered before catapi could
    timings = last_log(VIN_CLIO).timings
    assert "scrape_ms" in timings and "catapi_ms" not in timings


def test_the_portal_joins_when_catapi_has_no_car(dealer, decode_vin, upstreams):
    response = decode_vin(VIN_BMW)

    assert response.get_json()["vehicle"]["source"] == "portal"
    assert upstreams.vin_calls()["portal"] == 1
    timings = last_log(VIN_BMW).timings
    assert timings["catapi_car_count"] == 0 and "portal_ms" in timings


def test_the_portal_does_not_join_while_catapi_may_still_answer(dealer, decode_vin, upstreams):
    upstreams.catapi.faults.latency_ms = 300

    decode_vin(VIN_GOLF)

    assert upstreams.vin_calls()["portal"] == 0  # catapi found the Golf; the portal was never asked


def test_makes_the_portal_does_not_identify_are_not_sent_to_it(dealer, decode_vin, upstreams):
    for vin in (VIN_HONDA, VIN_MERCEDES):
        decode_vin(vin)
        timings = last_log(vin).timings
        assert timings["portal_skipped"] is True and timings["portal_circuit_open"] is False

    assert upstreams.vin_calls()["portal"] == 0


# --- candidates ----------------------------------------------------------------------------------------------------


def test_catapi_candidates_round_trip_through_catapi_car_id(dealer, decode_vin, upstreams):
    first = decode_vin(VIN_COROLLA).get_json()

    assert first["result"] == "candidates" and first["source"] == "catapi"
    assert [car["model"] for car in first["candidates"]] == ["Corolla", "Corolla"]
    assert last_log(VIN_COROLLA).timings["result_kind"] == "catapi_candidates"
    assert last_log(VIN_COROLLA).timings["catapi_car_count"] == 2
    calls_before_pick = upstreams.vin_calls()
    chosen = first["candidates"][1]

    picked = decode_vin(VIN_COROLLA, catapiCarId=chosen["carId"])

    assert picked.status_code == 200
    vehicle = picked.get_json()["vehicle"]
    assert (vehicle["model"], vehicle["engine"], vehicle["rawData"]["carId"]) == (
        "Corolla",
        chosen["engine"],
        chosen["carId"],
    )
    assert upstreams.vin_calls() == calls_before_pick  # answered from the cached candidate list
    log = last_log(VIN_COROLLA)
    assert log.timings["candidate_pick"] == "catapi" and log.timings["result_kind"] == "vehicle"
    again = decode_vin(VIN_COROLLA).get_json()
    assert again["result"] == "vehicle" and again["vehicle"]["id"] == vehicle["id"]


def test_scrape_candidates_have_the_catapi_shape_and_round_trip_through_their_index(dealer, decode_vin, upstreams):
    first = decode_vin(VIN_SCRAPE_SEVERAL).get_json()

    assert first["result"] == "candidates" and first["source"] == "scrape"
    assert set(first["candidates"][0]) == {
        "index",
        "carId",
        "brand",
        "model",
        "year",
        "engine",
        "criteria",
        "parameters",
        "chosen",
    }
    assert last_log(VIN_SCRAPE_SEVERAL).timings["scrape_candidate_count"] == 2

    picked = decode_vin(VIN_SCRAPE_SEVERAL, scrapeCarIndex=0).get_json()

    assert picked["vehicle"]["source"] == "scrape"
    assert picked["vehicle"]["engine"] == first["candidates"][0]["engine"]
    assert last_log(VIN_SCRAPE_SEVERAL).timings["candidate_pick"] == "scrape"


def test_a_pick_after_the_cache_expired_asks_the_source_again(dealer, decode_vin, upstreams):
    car_id = decode_vin(VIN_COROLLA).get_json()["candidates"][0]["carId"]
    redis_store.client.delete(positive_key(VIN_COROLLA))

    picked = decode_vin(VIN_COROLLA, catapiCarId=car_id)

    assert picked.get_json()["vehicle"]["rawData"]["carId"] == car_id
    assert upstreams.vin_calls()["catapi"] == 2


@pytest.mark.parametrize(
    "pick", [{"catapiCarId": "no-such-car"}, {"scrapeCarIndex": 7}, {"scrapeCarIndex": -1}, {"scrapeCarIndex": "0"}]
)
def test_a_pick_that_is_not_a_candidate_is_refused(dealer, decode_vin, upstreams, pick):
    decode_vin(VIN_COROLLA)

    response = decode_vin(VIN_COROLLA, **pick)

    assert response.status_code == 400
    assert response.get_json()["error"]["code"] == "invalid_candidate"
    assert db.session.scalar(sa.select(Vehicle).where(Vehicle.vin == VIN_COROLLA)) is None


# --- caches ------------------------------------------------------------------------------------------------------


def test_a_repeat_decode_is_answered_from_the_resolve_cache(dealer, decode_vin, upstreams):
    first = decode_vin(VIN_GOLF).get_json()
    calls = upstreams.vin_calls()

    second = decode_vin(VIN_GOLF).get_json()

    assert second == first
    assert upstreams.vin_calls() == calls
    assert redis_store.client.ttl(positive_key(VIN_GOLF)) > 23 * 3600
    timings = last_log(VIN_GOLF).timings
    assert timings["cache_source"] == "redis_positive" and isinstance(timings["cache_hit_ms"], int)


def _redis_commands(app, monkeypatch, action) -> list[str]:
    """The commands `action` sends to Redis, as the client's connections send them (the session check's MGET goes
    straight to a pooled connection, past the client's `execute_command`), the rate limiter's counters left out (they
    share the pool)."""
    monkeypatch.setattr(limiter, "enabled", False)
    with app.app_context():
        connection_class = redis_store.client.connection_pool.connection_class
    sent: list[str] = []
    send = connection_class.send_command

    def record(connection, *args, **options):
        sent.append(str(args[0]))
        return send(connection, *args, **options)

    monkeypatch.setattr(connection_class, "send_command", record)
    action()
    monkeypatch.undo()
    return sent


def test_a_cached_decode_reads_its_answer_with_the_sessions_tokens(
    app, dealer, client, decode_vin, upstreams, monkeypatch
):
    """One Redis round trip: the resolve cache's key is read in the session check's MGET, not by a GET of its own,
    on the API and on the search page alike."""
    first = decode_vin(VIN_GOLF).get_json()
    decode_vin(VIN_GOLF)  # the session is kept from here on
    token = csrf_token_from(client.get("/vin").get_data(as_text=True))
    form = {"vin": VIN_GOLF.lower(), "csrf_token": token}

    api = _redis_commands(app, monkeypatch, lambda: decode_vin(VIN_GOLF.lower()))
    page = _redis_commands(app, monkeypatch, lambda: client.post("/vin/decode", data=form))

    assert decode_vin(VIN_GOLF).get_json() == first
    assert api == ["MGET"], api
    assert page == ["MGET"], page


def test_a_stored_vehicle_answers_when_the_cache_is_gone_and_refills_it(dealer, decode_vin, upstreams):
    vehicle_id = decode_vin(VIN_GOLF).get_json()["vehicle"]["id"]
    redis_store.client.delete(positive_key(VIN_GOLF))
    calls = upstreams.vin_calls()

    again = decode_vin(VIN_GOLF).get_json()

    assert again["vehicle"]["id"] == vehicle_id
    assert upstreams.vin_calls() == calls
    assert last_log(VIN_GOLF).timings["cache_source"] == "db_hit"
    assert redis_store.client.exists(positive_key(VIN_GOLF))


def test_an_unknown_vin_is_cached_negatively_for_six_hours(dealer, client, upstreams):
    first = client.post("/api/vehicles/decode", json={"vin": VIN_UNKNOWN}, headers={"Origin": "http://localhost", **TR})
    calls = upstreams.vin_calls()
    second = client.post(
        "/api/vehicles/decode", json={"vin": VIN_UNKNOWN}, headers={"Origin": "http://localhost", **TR}
    )

    for response in (first, second):
        assert response.status_code == 422
        assert response.get_json()["error"] == {
            "code": "vin_not_recognised",
            "message": "Bu VIN tanınmadı ya da markası desteklenmiyor. VIN'i kontrol edin.",
        }
    assert upstreams.vin_calls() == calls
    assert 5 * 3600 < redis_store.client.ttl(negative_key(VIN_UNKNOWN)) <= 6 * 3600
    first_log, second_log = logs(VIN_UNKNOWN)
    assert (first_log.success, first_log.error_message) == (False, "vin_not_recognised")
    assert first_log.timings["result_kind"] == "unknown" and first_log.timings["vin_api_used"] is True
    assert second_log.timings["cache_source"] == "redis_negative"


def test_a_miss_with_a_failing_source_is_not_cached_negatively(dealer, decode_vin, upstreams):
    upstreams.scrape.faults.error_rate = 1.0

    response = decode_vin(VIN_UNKNOWN)

    assert response.status_code == 422
    assert not redis_store.client.exists(negative_key(VIN_UNKNOWN))


def test_an_identified_vin_without_a_catalog_says_what_it_is_and_saves_the_request(dealer, client, upstreams):
    response = client.post(
        "/api/vehicles/decode", json={"vin": VIN_HONDA}, headers={"Origin": "http://localhost", **TR}
    )

    assert response.status_code == 422
    error = response.get_json()["error"]
    assert error["code"] == "identified_no_catalog"
    assert "Honda Accord (2003)" in error["message"] and "kaydedildi" in error["message"]
    saved = db.session.scalars(sa.select(VinRequest).where(VinRequest.vin == VIN_HONDA)).all()
    assert [(row.kind, row.user_id, row.description) for row in saved] == [
        ("no_catalog", dealer.id, "Honda Accord (2003)")
    ]
    log = last_log(VIN_HONDA)
    assert (log.source, log.error_message, log.timings["vin_api_used"]) == ("vin_api", "identified_no_catalog", True)


def test_when_the_public_decoder_fails_the_wmi_table_still_names_the_make(dealer, decode_vin, upstreams):
    upstreams.vpic.faults.error_rate = 1.0

    response = decode_vin(VIN_HONDA)

    assert response.get_json()["error"]["code"] == "identified_no_catalog"
    assert last_log(VIN_HONDA).source == "wmi"


# --- the portal's circuit breaker ------------------------------------------------------------------------------------


def test_three_portal_failures_open_the_breaker_until_the_cooldown_ends(
    app, dealer, decode_vin, upstreams, monkeypatch
):
    monkeypatch.setitem(app.config, "PORTAL_BREAKER_COOLDOWN_SECONDS", 1)
    upstreams.portal.faults.error_rate = 1.0

    for _ in range(3):
        decode_vin(VIN_BMW)
    portal_calls = upstreams.vin_calls()["portal"]
    decode_vin(VIN_BMW)

    timings = last_log(VIN_BMW).timings
    assert timings["portal_circuit_open"] is True and timings["portal_skipped"] is True
    assert upstreams.vin_calls()["portal"] == portal_calls  # not asked while open

    cooldown_key = portal_breaker().cooldown_key
    assert 0 < redis_store.client.pttl(cooldown_key) <= 1000  # open for the configured cooldown, in Redis
    wait_until(lambda: not redis_store.client.exists(cooldown_key), 5, "the breaker's cooldown to end", 0.05)
    upstreams.portal.faults.error_rate = 0.0
    response = decode_vin(VIN_BMW)

    assert response.get_json()["vehicle"]["source"] == "portal"
    assert last_log(VIN_BMW).timings["portal_circuit_open"] is False


def test_a_portal_success_resets_the_failure_count(dealer, decode_vin, upstreams):
    upstreams.portal.faults.error_rate = 1.0
    for _ in range(2):
        decode_vin(VIN_BMW)
    upstreams.portal.faults.error_rate = 0.0
    decode_vin(VIN_GOLF.replace("W100001", "W100009"))  # catapi does not know it: the portal answers (no car)
    upstreams.portal.faults.error_rate = 1.0

    decode_vin(VIN_BMW)
    decode_vin(VIN_BMW)

    assert last_log(VIN_BMW).timings["portal_circuit_open"] is False  # only two failures since the success


# --- the budget --------------------------------------------------------------------------------------------------


def test_a_decode_past_its_budget_is_aborted_and_not_cached(app, dealer, decode_vin, upstreams, monkeypatch):
    monkeypatch.setitem(app.config, "DECODE_BUDGET_SECONDS", 0.4)
    upstreams.catapi.faults.latency_ms = 1500
    upstreams.scrape.faults.latency_ms = 1500

    started = time.monotonic()
    response = decode_vin(VIN_CLIO)

    assert time.monotonic() - started < 1.2
    assert response.status_code == 504
    assert response.get_json()["error"]["code"] == "decode_timeout"
    assert not redis_store.client.exists(negative_key(VIN_CLIO))
    assert not redis_store.client.exists(positive_key(VIN_CLIO))
    log = last_log(VIN_CLIO)
    assert (log.source, log.success, log.error_message) == ("aborted", False, "aborted")
    assert log.timings["result_kind"] == "aborted" and log.timings["aborted_ms"] >= 400


# --- the lock ----------------------------------------------------------------------------------------------------


def test_a_request_waits_for_the_decode_in_flight_instead_of_starting_another(
    app, dealer, decode_vin, upstreams, monkeypatch
):
    """Another request holds the VIN's lock; when it has stored and cached the car, the waiting one answers with it."""
    cache = ResolveCache(redis_store.client)
    lock = cache.try_lock(VIN_GOLF, ttl_ms=10_000)
    stored = {}
    waiting = threading.Event()
    is_locked = ResolveCache.is_locked

    def watched_is_locked(self: ResolveCache, vin: str) -> bool:
        waiting.set()  # the request has found the lock taken and waits for it
        return is_locked(self, vin)

    monkeypatch.setattr(ResolveCache, "is_locked", watched_is_locked)

    def finish_elsewhere() -> None:
        if not waiting.wait(timeout=5):
            return  # the request never waited: its answer below fails the test
        time.sleep(0.3)  # the holder's decode goes on a while after the request started waiting
        with app.app_context():
            golf = Vehicle(vin=VIN_GOLF, brand_name="Volkswagen", model="Golf", source="catapi", raw_data={})
            db.session.add(golf)
            db.session.commit()
            stored["id"] = golf.id
            cache.remember(VIN_GOLF, {"kind": "vehicle", "source": "catapi", "vehicle": vehicle_view(golf)})
            db.session.remove()
        cache.release(lock)

    holder = threading.Thread(target=finish_elsewhere)
    holder.start()
    response = decode_vin(VIN_GOLF)
    holder.join()

    assert response.get_json()["vehicle"]["id"] == stored["id"]
    assert upstreams.vin_calls() == {"catapi": 0, "scrape": 0, "portal": 0, "vpic": 0}
    timings = last_log(VIN_GOLF).timings
    assert timings["cache_source"] == "lock_wait" and timings["lock_wait_ms"] >= 250
    assert db.session.get(UserVehicle, (dealer.shop_id, stored["id"])) is not None


def test_a_waiting_request_gives_up_at_the_budget(app, dealer, decode_vin, upstreams, monkeypatch):
    monkeypatch.setitem(app.config, "DECODE_BUDGET_SECONDS", 0.3)
    ResolveCache(redis_store.client).try_lock(VIN_GOLF, ttl_ms=10_000)  # a holder that never finishes

    response = decode_vin(VIN_GOLF)

    assert response.status_code == 504
    timings = last_log(VIN_GOLF).timings
    assert timings["result_kind"] == "aborted" and timings["lock_wait_ms"] >= 250
    assert upstreams.vin_calls()["catapi"] == 0


# --- after a decode --------------------------------------------------------------------------------------------------


def test_a_new_vehicle_enqueues_its_catalog_prefetch_once(dealer, decode_vin, upstreams):
    from app.extensions import queues

    vehicle_id = decode_vin(VIN_GOLF).get_json()["vehicle"]["id"]
    decode_vin(VIN_GOLF)

    queue = queues.get("prefetch")
    assert queue.job_ids == [f"prefetch-init-{vehicle_id}"]
    job = queue.fetch_job(f"prefetch-init-{vehicle_id}")
    assert (job.func_name, job.args) == ("app.catalog.tasks.prefetch_init", (vehicle_id,))


def test_the_insights_view_flattens_the_timings_into_typed_columns(dealer, decode_vin, upstreams):
    decode_vin(VIN_GOLF)
    decode_vin(VIN_GOLF)

    rows = db.session.execute(
        sa.text(
            "SELECT wmi, result_kind, cache_source, candidate_pick, catapi_car_count, scrape_candidate_count,"
            " portal_circuit_open, portal_skipped, vin_api_used, catapi_ms, cache_hit_ms, aborted_ms"
            " FROM query_log_insights WHERE vin = :vin ORDER BY id"
        ),
        {"vin": VIN_GOLF},
    ).all()

    miss, hit = rows
    assert miss[:6] == ("WVW", "vehicle", "miss", "none", 1, 0)
    assert not miss.portal_circuit_open and not miss.portal_skipped
    assert miss.vin_api_used is None and isinstance(miss.catapi_ms, int) and miss.cache_hit_ms is None
    assert hit.cache_source == "redis_positive" and isinstance(hit.cache_hit_ms, int) and hit.catapi_ms is None
    assert hit.aborted_ms is None


def test_a_vehicle_removed_from_the_history_comes_back_when_decoded_again(dealer, client, decode_vin, upstreams):
    vehicle_id = decode_vin(VIN_GOLF).get_json()["vehicle"]["id"]
    removed = client.delete(f"/api/vehicles/history/{vehicle_id}", json={}, headers={"Origin": "http://localhost"})
    assert removed.status_code == 200
    assert client.get("/api/vehicles/history").get_json()["items"] == []

    decode_vin(VIN_GOLF)

    assert [item["id"] for item in client.get("/api/vehicles/history").get_json()["items"]] == [vehicle_id]


# --- the web catalog's VIN cache ----------------------------------------------------------------------------------


def forget(vin: str) -> None:
    """The VIN as if never decoded: no stored vehicle, no Redis answer (the database's scrape VIN cache stays)."""
    db.session.execute(sa.delete(Vehicle).where(Vehicle.vin == vin))
    db.session.commit()
    ResolveCache(redis_store.client).clear(vin)


@pytest.mark.parametrize("vin", [VIN_CLIO, VIN_SCRAPE_SEVERAL])
def test_a_repeat_vin_takes_the_web_catalog_s_answer_from_its_cache(dealer, decode_vin, upstreams, vin):
    first = decode_vin(vin).get_json()
    searches = len(upstreams.scrape.calls(path_prefix="/search"))
    forget(vin)

    again = decode_vin(vin).get_json()

    assert searches == 1
    assert len(upstreams.scrape.calls(path_prefix="/search")) == searches  # no second call to the web catalog
    assert again.get("result") == first.get("result") and again.get("source") == first.get("source")
    if "candidates" in first:
        assert [car["carId"] for car in again["candidates"]] == [car["carId"] for car in first["candidates"]]
    else:
        assert (again["vehicle"]["model"], again["vehicle"]["source"]) == (first["vehicle"]["model"], "scrape")
