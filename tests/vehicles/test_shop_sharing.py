"""Issue 41 through HTTP: the decode history, the candidate picks and the fit answers are the shop's. Two members of
one shop (its owner and a clerk) share them; a member of another shop sees none of it, and other shops' fit answers
reach him only as an anonymous count ("2 başka bayi: ..."), never naming a shop or a person. The kept views and
fragments hold nothing of one shop for another."""

from __future__ import annotations

import json

import pytest

from app.accounts.services import create_user as create_member
from app.extensions import db
from app.sources.sandbox.catalog import VIN_BMW, VIN_COROLLA, VIN_GOLF
from tests.catalog.test_fit_api import answer, decoded, get, hanging_on, statuses, with_question
from tests.catalog.test_pages import main_area
from tests.conftest import PASSWORD, SITE
from tests.support.markup import elements
from tests.vehicles.test_candidate_picks import candidate_ids, decode, history_ids, picked


def signed_in_client(app, user):
    client = app.test_client()
    signed = client.post("/api/auth/sign-in/email", json={"email": user.email, "password": PASSWORD}, headers=SITE)
    assert signed.status_code == 200, signed.get_json()
    return client


@pytest.fixture
def clerk(app, dealer):
    """A clerk of the signed-in dealer's shop (the dealer owns it), signed in on a client of his own; he works under
    the shop's plan (the dealer's), not one of his own."""
    user = create_member(
        email="tezgah@example.com",
        name="Tezgâhtar Ali",
        password=PASSWORD,
        email_verified=True,
        shop_id=dealer.shop_id,
        shop_role="clerk",
    )
    db.session.commit()
    return signed_in_client(app, user)


@pytest.fixture
def make_outsider(app, create_user, make_subscription):
    """`make_outsider(name)`: the owner of a shop of his own with a Full plan, signed in on a client of his own."""

    def make(name: str):
        user = create_user(name=name)
        make_subscription(user, "active", plan_key="full")
        return user, signed_in_client(app, user)

    return make


# --- the history and the picks -------------------------------------------------------------------------------------


def test_a_clerk_sees_what_the_owner_decoded_and_another_shop_does_not(
    client, dealer, clerk, make_outsider, decode_vin, upstreams
):
    _outsider, outsider = make_outsider("Başka Bayi")
    vehicle_id = decoded(decode_vin, VIN_BMW)

    assert history_ids(clerk) == history_ids(client) == [vehicle_id]
    assert history_ids(outsider) == []
    # Another shop cannot take it out of this shop's history; the clerk can, for the whole shop.
    assert outsider.delete(f"/api/vehicles/history/{vehicle_id}", headers=SITE).status_code == 404
    assert history_ids(client) == [vehicle_id]
    assert clerk.delete(f"/api/vehicles/history/{vehicle_id}", headers=SITE).status_code in (200, 204)
    assert history_ids(client) == []


def test_the_history_page_lists_the_shops_vehicles_only(client, dealer, clerk, make_outsider, decode_vin, upstreams):
    _outsider, outsider = make_outsider("Başka Bayi")
    vehicle_id = decoded(decode_vin, VIN_BMW)
    link = f"/vehicles/{vehicle_id}"

    assert link in clerk.get("/vin").get_data(as_text=True)
    assert link not in outsider.get("/vin").get_data(as_text=True)


def test_a_pick_is_the_shops_and_another_shop_chooses_its_own(client, dealer, clerk, make_outsider, upstreams):
    _outsider, outsider = make_outsider("Başka Bayi")
    car_ids = candidate_ids(client)
    mine = picked(client, car_ids[0])

    by_clerk = decode(clerk).get_json()  # the owner's pick answers the clerk's decode
    assert by_clerk["result"] == "vehicle" and by_clerk["vehicle"]["id"] == mine["id"]
    assert history_ids(clerk) == [mine["id"]]

    theirs = decode(outsider).get_json()  # not the other shop's
    assert theirs["result"] == "candidates"
    assert history_ids(outsider) == []

    # The clerk picks again for the shop: the owner's decode follows, the history too.
    again = picked(clerk, car_ids[1])
    assert decode(client).get_json()["vehicle"]["id"] == again["id"]
    assert history_ids(client) == [again["id"]]
    assert decode(outsider, VIN_COROLLA).get_json()["result"] == "candidates"


# --- the fit answers -----------------------------------------------------------------------------------------------


def test_fit_answers_are_shared_in_the_shop_and_only_counted_for_other_shops(
    client, dealer, clerk, make_outsider, decode_vin, upstreams
):
    first_user, first = make_outsider("Kadıköy Oto Yedek")
    second_user, second = make_outsider("Ümraniye Parça")
    vehicle_id = decoded(decode_vin, VIN_GOLF)
    before = with_question(client, vehicle_id)
    question = before["fit"]["question"]
    fact, value = question["fact"], question["options"][0]["value"]
    leaf = f"/api/vehicles/{vehicle_id}/categories/{before['category']['id']}"

    assert answer(client, vehicle_id, fact, value).status_code == 200
    owners = get(client, leaf)

    # The clerk works with the owner's answer as the shop's own: applied, shown as "me", nothing to take over.
    clerks = get(clerk, leaf)
    assert statuses(clerks) == statuses(owners) != statuses(before)
    assert clerks["fit"]["answers"][0]["value"] == value and clerks["fit"]["answers"][0]["by"] == "me"
    assert clerks["fit"]["question"] is None or clerks["fit"]["question"]["fact"] != fact
    state = get(clerk, f"/api/vehicles/{vehicle_id}/fit")
    assert [item["fact"] for item in state["answers"]] == [fact] and state["colleagueAnswers"] == []

    # Another shop: not applied, offered as one other dealer's answer, naming nobody.
    seen = get(first, leaf)
    assert statuses(seen) == statuses(before)
    offered = seen["fit"]["question"]["colleague"]
    assert offered["value"] == value and offered["text"].startswith("1 başka bayi: ")
    assert all(part["fit"]["answeredBy"] == "colleague" for part in hanging_on(seen, fact))
    third_state = get(first, f"/api/vehicles/{vehicle_id}/fit")
    assert third_state["answers"] == [] and third_state["colleagueAnswers"][0]["text"].startswith("1 başka bayi: ")
    _names_nobody(json.dumps([seen, third_state], ensure_ascii=False), dealer, "Tezgâhtar Ali")

    # A second shop answers the same: the third one counts two, and still names nobody.
    assert answer(first, vehicle_id, fact, value).status_code == 200
    counted = get(second, leaf)["fit"]["question"]["colleague"]
    assert counted["text"].startswith("2 başka bayi: ") and counted["value"] == value
    _names_nobody(json.dumps(counted, ensure_ascii=False), dealer, first_user.name, first_user.email)
    assert second_user.name not in json.dumps(get(client, f"/api/vehicles/{vehicle_id}/fit"), ensure_ascii=False)


def test_the_clerk_changes_the_shops_answer_for_the_owner_too(client, dealer, clerk, decode_vin, upstreams):
    vehicle_id = decoded(decode_vin, VIN_GOLF)
    before = with_question(client, vehicle_id)
    question = before["fit"]["question"]
    leaf = f"/api/vehicles/{vehicle_id}/categories/{before['category']['id']}"
    assert answer(client, vehicle_id, question["fact"], question["options"][0]["value"]).status_code == 200

    other = question["options"][1]["value"]
    assert answer(clerk, vehicle_id, question["fact"], other).status_code == 200
    assert get(client, f"/api/vehicles/{vehicle_id}/fit")["answers"][0]["value"] == other
    assert statuses(get(client, leaf)) == statuses(get(clerk, leaf))

    cleared = clerk.delete(f"/api/vehicles/{vehicle_id}/fit/answers/{question['fact']}", headers=SITE)
    assert cleared.status_code == 200
    assert get(client, f"/api/vehicles/{vehicle_id}/fit")["answers"] == []
    assert statuses(get(client, leaf)) == statuses(before)


def answers_shown(html: str) -> list[str]:
    return [item.get_text() for item in elements(main_area(html), ".fit-answers .fit-answer-text")]


def _names_nobody(text: str, *people) -> None:
    for person in people:
        for said in (person.name, person.email, str(person.shop_id)) if hasattr(person, "email") else (person,):
            assert said not in text


# --- kept views and fragments --------------------------------------------------------------------------------------


def test_two_shops_viewing_the_same_pages_see_only_their_own(
    client, dealer, clerk, make_outsider, decode_vin, upstreams
):
    """The same drawing's page and rows (kept views, fragment cache) for members of two shops with different
    histories and answers: each sees his shop's, none the other's."""
    _outsider, outsider = make_outsider("Başka Bayi")
    vehicle_id = decoded(decode_vin, VIN_GOLF)
    outsiders_own = outsider.post("/api/vehicles/decode", json={"vin": VIN_BMW}, headers=SITE).get_json()
    before = with_question(client, vehicle_id)
    question = before["fit"]["question"]
    page = f"/vehicles/{vehicle_id}/categories/{before['category']['id']}"
    leaf = f"/api/vehicles/{vehicle_id}/categories/{before['category']['id']}"
    # Both shops look first, so whatever is kept is kept before the answers.
    for viewer in (client, outsider, clerk):
        assert viewer.get(page).status_code == 200

    assert answer(client, vehicle_id, question["fact"], question["options"][0]["value"]).status_code == 200
    other = question["options"][1]["value"]
    assert answer(outsider, vehicle_id, question["fact"], other).status_code == 200

    shop_rows, outsider_rows = statuses(get(clerk, leaf)), statuses(get(outsider, leaf))
    assert shop_rows != outsider_rows
    assert statuses(get(client, leaf)) == shop_rows
    owners_page, clerks_page, outsiders_page = (
        viewer.get(page).get_data(as_text=True) for viewer in (client, clerk, outsider)
    )
    assert clerks_page.count("is-fit-maybe") == owners_page.count("is-fit-maybe")
    mine_answer = get(client, f"/api/vehicles/{vehicle_id}/fit")["answers"][0]["text"]
    theirs_answer = get(outsider, f"/api/vehicles/{vehicle_id}/fit")["answers"][0]["text"]
    assert mine_answer != theirs_answer
    assert answers_shown(clerks_page) == answers_shown(owners_page) == [mine_answer]
    assert answers_shown(outsiders_page) == [theirs_answer]
    # The histories on the VIN page: each shop's own vehicle only.
    assert f"/vehicles/{outsiders_own['vehicle']['id']}" not in clerk.get("/vin").get_data(as_text=True)
    assert f'/vehicles/{vehicle_id}"' not in outsider.get("/vin").get_data(as_text=True)
