"""Candidates are each dealer's own choice and can be chosen again (issue 15, part 8), through the API and the pages.

Two dealers decode the same VIN with several candidate cars: each picks their own, and each one's later decodes,
history and vehicle page follow their own pick; "not this vehicle" lists the candidates again with the pick marked,
and choosing another replaces it. A source answering with exactly one car makes the vehicle everyone's.
"""

from __future__ import annotations

import html
import json
import re

import pytest
import sqlalchemy as sa

from app.extensions import db, redis_store
from app.sources.sandbox.catalog import VIN_COROLLA, VIN_GOLF, VIN_UNKNOWN, SandboxCatalog
from app.vehicles.cache import positive_key
from app.vehicles.models import QueryLog, UserVehicle, Vehicle, VehiclePick
from tests.conftest import PASSWORD, SITE, csrf_token_from
from tests.vehicles.test_decode_load import redis_down  # noqa: F401 - the fixture used here

NOT_THIS_VEHICLE = "Bu araç değil"
CURRENT_CHOICE = "Şu anki seçiminiz"
STALE_CHOICE = "Seçilen araç adaylar arasında yok. VIN'i yeniden sorgulayın."


@pytest.fixture
def other_dealer(app, create_user, make_subscription):
    """A second signed-in dealer with a Full plan, on a client of their own."""
    user = create_user()
    make_subscription(user, "active", plan_key="full")
    other = app.test_client()
    signed_in = other.post("/api/auth/sign-in/email", json={"email": user.email, "password": PASSWORD}, headers=SITE)
    assert signed_in.status_code == 200
    return other


def decode(client, vin: str = VIN_COROLLA, **pick):
    return client.post("/api/vehicles/decode", json={"vin": vin, **pick}, headers=SITE)


def choose_again(client, vehicle_id: int):
    return client.post(f"/api/vehicles/{vehicle_id}/choose-again", json={}, headers=SITE)


def candidate_ids(client) -> list[str]:
    answer = decode(client).get_json()
    assert answer["result"] == "candidates", answer
    return [car["carId"] for car in answer["candidates"]]


def picked(client, car_id: str) -> dict:
    response = decode(client, catapiCarId=car_id)
    assert response.status_code == 200, response.get_json()
    return response.get_json()["vehicle"]


def history_ids(client) -> list[int]:
    return [item["id"] for item in client.get("/api/vehicles/history").get_json()["items"]]


def page_token(client) -> str:
    return csrf_token_from(client.get("/vin").get_data(as_text=True))


@pytest.fixture
def catapi_now_answers(monkeypatch):
    """`catapi_now_answers(*vehicle_keys)`: from now on the catalog API answers the Corolla's VIN with these sandbox
    vehicles, and the cached candidate list has expired."""
    cars_for_vin = SandboxCatalog.cars_for_vin

    def now(*keys: str) -> None:
        def answer(catalog, vin, source):
            if vin.upper() == VIN_COROLLA and source == "catapi":
                return tuple(catalog.vehicle(key) for key in keys)
            return cars_for_vin(catalog, vin, source)

        monkeypatch.setattr(SandboxCatalog, "cars_for_vin", answer)
        redis_store.client.delete(positive_key(VIN_COROLLA))

    return now


# --- each dealer's own pick --------------------------------------------------------------------------------------


def test_two_dealers_each_keep_their_own_pick_of_the_same_vin(client, dealer, other_dealer, upstreams):
    first_ids = candidate_ids(client)
    mine = picked(client, first_ids[0])

    other_answer = decode(other_dealer).get_json()  # the first dealer's pick is not the VIN's vehicle for everyone

    assert other_answer["result"] == "candidates"
    assert [car["chosen"] for car in other_answer["candidates"]] == [False, False]
    theirs = picked(other_dealer, other_answer["candidates"][1]["carId"])
    assert theirs["id"] != mine["id"] and theirs["rawData"]["carId"] == first_ids[1]
    assert mine["confirmed"] is False and theirs["confirmed"] is False
    assert decode(client).get_json()["vehicle"]["id"] == mine["id"]
    assert decode(other_dealer).get_json()["vehicle"]["id"] == theirs["id"]
    assert history_ids(client) == [mine["id"]] and history_ids(other_dealer) == [theirs["id"]]
    assert last_timings(VIN_COROLLA)["cache_source"] == "db_hit" and last_timings(VIN_COROLLA)["own_pick"] is True


def test_dealers_who_pick_the_same_candidate_share_its_stored_vehicle(client, dealer, other_dealer, upstreams):
    car_id = candidate_ids(client)[1]
    mine = picked(client, car_id)

    theirs = picked(other_dealer, car_id)

    assert theirs["id"] == mine["id"]
    assert db.session.scalar(sa.select(sa.func.count()).select_from(Vehicle).where(Vehicle.vin == VIN_COROLLA)) == 1


def test_not_this_vehicle_lists_the_candidates_again_and_a_new_pick_replaces_the_old(
    client, dealer, other_dealer, upstreams
):
    car_ids = candidate_ids(client)
    first = picked(client, car_ids[0])
    theirs = picked(other_dealer, car_ids[1])
    calls = upstreams.vin_calls()

    again = choose_again(client, first["id"])

    assert again.status_code == 200
    listed = again.get_json()
    assert listed["result"] == "candidates" and [car["chosen"] for car in listed["candidates"]] == [True, False]
    assert upstreams.vin_calls() == calls  # the cached list
    assert decode(client).get_json()["vehicle"]["id"] == first["id"]  # looking again changed nothing
    second = picked(client, car_ids[1])
    assert second["id"] == theirs["id"]  # the candidate's vehicle, stored once, is shared
    assert decode(client).get_json()["vehicle"]["id"] == second["id"]
    assert history_ids(client) == [second["id"]]  # the history follows the pick
    assert decode(other_dealer).get_json()["vehicle"]["id"] == theirs["id"]
    assert choose_again(client, second["id"]).get_json()["candidates"][1]["chosen"] is True
    assert db.session.get(Vehicle, first["id"]) is not None  # the first candidate stays stored, for whoever picks it


def test_picking_the_same_candidate_again_changes_nothing(client, dealer, upstreams):
    car_id = candidate_ids(client)[0]

    first, second = picked(client, car_id), picked(client, car_id)

    assert first["id"] == second["id"]
    picks = db.session.scalars(sa.select(VehiclePick).where(VehiclePick.user_id == dealer.id)).all()
    assert [(pick.vin, pick.vehicle_id) for pick in picks] == [(VIN_COROLLA, first["id"])]
    links = db.session.scalars(sa.select(UserVehicle.vehicle_id).where(UserVehicle.user_id == dealer.id)).all()
    assert links == [first["id"]]


def test_a_pick_after_the_cache_expired_is_still_the_dealers_own(client, dealer, other_dealer, upstreams):
    car_ids = candidate_ids(client)
    redis_store.client.delete(positive_key(VIN_COROLLA))

    mine = picked(client, car_ids[1])

    assert mine["confirmed"] is False
    assert decode(other_dealer).get_json()["result"] == "candidates"


def test_with_redis_down_a_dealers_pick_still_answers_their_decode(
    client,
    dealer,
    other_dealer,
    upstreams,
    redis_down,  # noqa: F811
):
    mine = picked(client, candidate_ids(client)[0])
    redis_down()

    assert decode(client).get_json()["vehicle"]["id"] == mine["id"]
    assert decode(other_dealer).status_code == 503  # no pick of theirs, and no list without Redis


def test_a_vehicle_cached_before_picks_were_per_dealer_is_not_everyones(client, dealer, other_dealer, upstreams):
    mine = picked(client, candidate_ids(client)[0])
    legacy = {"kind": "vehicle", "source": "catapi", "vehicle": {k: v for k, v in mine.items() if k != "confirmed"}}
    redis_store.client.set(positive_key(VIN_COROLLA), json.dumps(legacy))

    assert decode(other_dealer).get_json()["result"] == "candidates"
    assert decode(client).get_json()["vehicle"]["id"] == mine["id"]


# --- a definitive source -----------------------------------------------------------------------------------------


def test_a_single_car_answer_is_every_dealers_vehicle_and_has_nothing_to_choose(
    client, dealer, other_dealer, upstreams
):
    mine = decode(client, VIN_GOLF).get_json()["vehicle"]

    theirs = decode(other_dealer, VIN_GOLF).get_json()

    assert mine["confirmed"] is True and theirs["vehicle"]["id"] == mine["id"]
    refused = choose_again(client, mine["id"])
    assert refused.status_code == 409
    assert refused.get_json()["error"] == {
        "code": "vehicle_confirmed",
        "message": "Bu araç VIN'inden kesin olarak belirlendi; seçilebilecek başka araç yok.",
    }
    assert NOT_THIS_VEHICLE not in client.get(f"/vehicles/{mine['id']}").get_data(as_text=True)


def test_once_a_source_knows_the_car_for_certain_it_beats_every_pick(
    client, dealer, other_dealer, upstreams, catapi_now_answers
):
    car_ids = candidate_ids(client)
    mine = picked(client, car_ids[1])
    catapi_now_answers("toyota-corolla-hybrid")

    theirs = decode(other_dealer).get_json()["vehicle"]  # the race now has a single car: the VIN's vehicle

    assert theirs["confirmed"] is True and theirs["id"] != mine["id"]
    assert decode(client).get_json()["vehicle"]["id"] == theirs["id"]
    assert choose_again(client, theirs["id"]).status_code == 409


def test_a_pick_answered_by_a_single_car_on_asking_again_confirms_it(
    client, dealer, other_dealer, upstreams, catapi_now_answers
):
    car_ids = candidate_ids(client)
    catapi_now_answers("toyota-corolla-hybrid")

    vehicle = picked(client, car_ids[1])

    assert vehicle["confirmed"] is True and vehicle["rawData"]["carId"] == car_ids[0]
    assert decode(other_dealer).get_json()["vehicle"]["id"] == vehicle["id"]


# --- bad input -----------------------------------------------------------------------------------------------------


def test_choosing_again_for_an_unknown_vehicle_is_a_404(client, dealer):
    response = choose_again(client, 987654)

    assert response.status_code == 404
    assert response.get_json()["error"]["code"] == "vehicle_not_found"


def test_choosing_again_with_the_cookie_needs_json_from_the_site(client, dealer, upstreams):
    vehicle = picked(client, candidate_ids(client)[0])

    # An empty <form method="post">: no body, but its form type (data={} alone would send no type at all).
    form_post = client.post(
        f"/api/vehicles/{vehicle['id']}/choose-again", content_type="application/x-www-form-urlencoded", headers=SITE
    )
    foreign = client.post(
        f"/api/vehicles/{vehicle['id']}/choose-again", json={}, headers={"Origin": "https://evil.example"}
    )

    assert (form_post.status_code, foreign.status_code) == (403, 403)
    assert form_post.get_json()["error"]["code"] == "csrf_failed"


def test_a_pick_from_a_stale_list_is_refused_and_keeps_the_current_pick(client, dealer, upstreams, catapi_now_answers):
    car_ids = candidate_ids(client)
    mine = picked(client, car_ids[0])
    catapi_now_answers("toyota-corolla-hybrid", "fiat-egea")  # the second car the dealer saw is no longer listed

    response = decode(client, catapiCarId=car_ids[1])

    assert response.status_code == 400
    assert response.get_json()["error"] == {"code": "invalid_candidate", "message": STALE_CHOICE}
    assert decode(client).get_json()["vehicle"]["id"] == mine["id"]
    listed = choose_again(client, mine["id"]).get_json()["candidates"]
    assert [car["chosen"] for car in listed] == [True, False] and car_ids[1] not in [car["carId"] for car in listed]


def test_a_pick_for_a_vin_never_listed_is_refused(client, dealer, upstreams):
    response = decode(client, VIN_UNKNOWN, catapiCarId="1")

    assert response.status_code == 400
    assert response.get_json()["error"] == {"code": "invalid_candidate", "message": STALE_CHOICE}
    assert db.session.scalar(sa.select(VehiclePick).where(VehiclePick.user_id == dealer.id)) is None


# --- the pages -----------------------------------------------------------------------------------------------------


def post_page_decode(client, token: str, **fields):
    """The search form without JavaScript: the decode runs in the request."""
    return client.post("/vin/decode", data={"csrf_token": token, "vin": VIN_COROLLA, **fields})


def page_pick(client, token: str, car_id: str) -> int:
    response = post_page_decode(client, token, catapiCarId=car_id)
    assert response.status_code == 303, response.get_data(as_text=True)[:500]
    return int(re.fullmatch(r"/vehicles/(\d+)", response.headers["Location"]).group(1))


def page_candidates(html: str) -> list[str]:
    return re.findall(r'name="catapiCarId" value="([^"]+)"', html)


def test_the_vehicle_page_says_which_candidate_was_chosen_and_offers_to_choose_again(
    client, dealer, other_dealer, upstreams
):
    token = page_token(client)
    car_ids = page_candidates(post_page_decode(client, token).get_data(as_text=True))
    vehicle_id = page_pick(client, token, car_ids[1])

    page = client.get(f"/vehicles/{vehicle_id}").get_data(as_text=True)

    assert "Bu VIN birden fazla araçla eşleşiyor." in page and "Sizin seçtiğiniz araç bu." in page
    assert f'action="/vehicles/{vehicle_id}/choose-again"' in page and NOT_THIS_VEHICLE in page
    assert "Şanzıman" in page  # what told the candidate apart
    theirs = other_dealer.get(f"/vehicles/{vehicle_id}").get_data(as_text=True)
    assert "Bu, onlardan biri; siz bu aracı seçmediniz." in theirs and NOT_THIS_VEHICLE in theirs


def test_not_this_vehicle_on_the_page_shows_the_list_and_a_new_choice_replaces_the_old(client, dealer, upstreams):
    token = page_token(client)
    car_ids = page_candidates(post_page_decode(client, token).get_data(as_text=True))
    first = page_pick(client, token, car_ids[0])

    listed = client.post(f"/vehicles/{first}/choose-again", data={"csrf_token": token})

    text = listed.get_data(as_text=True)
    assert listed.status_code == 200 and "<html" in text
    assert page_candidates(text) == car_ids
    assert text.count(CURRENT_CHOICE) == 1 and text.index(CURRENT_CHOICE) < text.index(car_ids[1])
    assert "Bu araçta kal" in text
    second = page_pick(client, token, car_ids[1])
    assert second != first
    search = client.get("/vin").get_data(as_text=True)
    assert f'href="/vehicles/{second}"' in search and f'href="/vehicles/{first}"' not in search
    assert "Sizin seçtiğiniz araç bu." in client.get(f"/vehicles/{second}").get_data(as_text=True)


def test_not_this_vehicle_on_the_page_needs_the_csrf_token(client, dealer, upstreams):
    token = page_token(client)
    car_ids = page_candidates(post_page_decode(client, token).get_data(as_text=True))
    vehicle_id = page_pick(client, token, car_ids[0])

    assert client.post(f"/vehicles/{vehicle_id}/choose-again", data={}).status_code == 403


@pytest.mark.parametrize(
    ("vehicle", "status", "message"),
    [
        ("unknown", 404, "Bu kimliğe sahip bir araç bulunamadı."),
        ("confirmed", 409, "Bu araç VIN'inden kesin olarak belirlendi; seçilebilecek başka araç yok."),
    ],
)
def test_not_this_vehicle_on_the_page_refuses_what_has_no_candidates_in_turkish(
    client, dealer, upstreams, vehicle, status, message
):
    vehicle_id = 987654 if vehicle == "unknown" else decode(client, VIN_GOLF).get_json()["vehicle"]["id"]

    response = client.post(f"/vehicles/{vehicle_id}/choose-again", data={"csrf_token": page_token(client)})

    assert response.status_code == status
    assert message in html.unescape(response.get_data(as_text=True))


def last_timings(vin: str) -> dict:
    db.session.expire_all()
    return (
        db.session.scalars(sa.select(QueryLog).where(QueryLog.vin == vin).order_by(QueryLog.id.desc())).first().timings
    )


def test_the_founders_delete_of_a_vin_takes_every_chosen_candidate_and_pick(
    app, client, dealer, other_dealer, upstreams, monkeypatch
):
    car_ids = candidate_ids(client)
    mine, theirs = picked(client, car_ids[0]), picked(other_dealer, car_ids[1])
    monkeypatch.setitem(app.config, "INTERNAL_API_TOKEN", "founder-token")

    response = app.test_client().open(  # server to server: no session cookie
        f"/api/internal/admin/vehicles/{VIN_COROLLA}",
        method="DELETE",
        json={"founderId": "kurucu-1", "reason": "Yanlış aday"},
        headers={"X-Internal-Token": "founder-token"},
    )

    assert response.status_code == 200, response.get_json()
    assert response.get_json()["vehicleId"] == mine["id"] and response.get_json()["cascadedUserLinks"] == 2
    db.session.expire_all()
    assert db.session.get(Vehicle, theirs["id"]) is None
    assert db.session.scalar(sa.select(sa.func.count()).select_from(VehiclePick)) == 0
    assert decode(client).get_json()["result"] == "candidates"
