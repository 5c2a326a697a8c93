"""Issue 30 through HTTP: the sandbox Golf (catalog API), BMW (portal) and Clio (web catalog) decoded, their drawings'
rows yes, no or maybe for the right reasons, one question that settles a drawing's maybes for the dealer who answers
(kept across a restart, offered to his colleagues, never applied to them), the ?fit= filter, the switch, search and
where-used, and every bad input refused with a Turkish message."""

from __future__ import annotations

import pytest

from app.catalog import store
from app.catalog.fit.conditions import DateRange
from app.catalog.fit.facts import BuildDate
from app.catalog.providers import Node, PartLine
from app.extensions import db
from app.sources.sandbox.catalog import VIN_BMW, VIN_CLIO, VIN_GOLF
from app.vehicles.models import Vehicle
from tests.conftest import PASSWORD, SITE

NOT_STATED_TEXT = "Bilinmiyor: katalog bu parçanın hangi araçlara uyduğunu belirtmiyor"


def get(client, path: str) -> dict:
    response = client.get(path)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def leaves(client, vehicle_id: int, limit: int = 8) -> list[dict]:
    """The details of the first `limit` leaves, walking the tree breadth first."""
    pending = list(get(client, f"/api/vehicles/{vehicle_id}/categories")["categories"])
    found: list[dict] = []
    while pending and len(found) < limit:
        detail = get(client, f"/api/vehicles/{vehicle_id}/categories/{pending.pop(0)['id']}")
        if detail["category"]["leaf"]:
            found.append(detail)
        else:
            pending.extend(detail["children"])
    return found


def with_question(client, vehicle_id: int) -> dict:
    """The first leaf whose drawing asks a question."""
    return next(detail for detail in leaves(client, vehicle_id) if detail["fit"]["question"])


def decoded(decode_vin, vin: str) -> int:
    response = decode_vin(vin)
    assert response.status_code == 200, response.get_json()
    return response.get_json()["vehicle"]["id"]


def answer(client, vehicle_id: int, fact: str, value, **headers):
    return client.put(
        f"/api/vehicles/{vehicle_id}/fit/answers/{fact}", json={"value": value}, headers={**SITE, **headers}
    )


def statuses(detail: dict) -> dict[int, str]:
    return {part["id"]: part["fit"]["status"] for part in detail["parts"]}


def hanging_on(detail: dict, fact: str) -> list[dict]:
    return [part for part in detail["parts"] if part["fit"]["status"] == "maybe" and part["fit"]["question"] == fact]


@pytest.fixture
def colleague(app, create_user, make_subscription):
    """Another dealer with a Full plan, signed in on his own client."""
    user = create_user()
    make_subscription(user, "active", plan_key="full")
    client = app.test_client()
    signed = client.post("/api/auth/sign-in/email", json={"email": user.email, "password": PASSWORD}, headers=SITE)
    assert signed.status_code == 200
    return client


# --- yes, no and maybe for the right reasons -------------------------------------------------------------------


@pytest.mark.parametrize("vin", [VIN_GOLF, VIN_BMW, VIN_CLIO])
def test_a_decoded_cars_rows_are_yes_no_and_maybe_for_their_reasons(client, dealer, decode_vin, upstreams, vin):
    vehicle_id = decoded(decode_vin, vin)
    facts = get(client, f"/api/vehicles/{vehicle_id}/fit")["facts"]
    details = leaves(client, vehicle_id)
    parts = [part for detail in details for part in detail["parts"]]
    by_status = {
        status: [part for part in parts if part["fit"]["status"] == status] for status in ("yes", "no", "maybe")
    }

    assert all(by_status.values()), {status: len(found) for status, found in by_status.items()}
    assert 0.15 <= len(by_status["no"]) / len(parts) <= 0.45
    for part in by_status["no"]:  # a known fact contradicts the row
        assert any(_contradicts(reason) for reason in part["fit"]["reasons"]), part["fit"]
    not_stated = [part for part in by_status["maybe"] if part["fit"]["reasons"][0]["code"] == "not_stated"]
    assert not_stated  # the rows whose catalog states nothing for them: not known, nothing to ask
    for part in not_stated:
        assert [reason["text"] for reason in part["fit"]["reasons"]] == [NOT_STATED_TEXT]
        assert part["fit"]["question"] is None
    for part in (part for part in by_status["maybe"] if part not in not_stated):  # it hangs on a fact nobody gave
        unknown = {reason["fact"] for reason in part["fit"]["reasons"] if reason["code"] == "unknown"}
        assert part["fit"]["question"] in unknown and part["fit"]["question"] not in facts
        assert all("bilgisi yok" in reason["text"] for reason in part["fit"]["reasons"] if reason["code"] == "unknown")
    for part in by_status["yes"]:  # a yes carries the conditions it is known to meet
        assert part["fit"]["reasons"] and not any(_contradicts(reason) for reason in part["fit"]["reasons"])
    for reason in (reason for part in parts for reason in part["fit"]["reasons"]):
        if reason["fact"] == "build_date" and reason["code"] != "unknown":  # the car's own month, in Turkish
            assert reason["value"] == facts["build_date"]
            assert (
                f"araç: {facts['build_date'][5:]}.{facts['build_date'][:4]}" in reason["text"]
                or reason["code"] == "matches"
            )
    for detail in details:  # a leaf counts its rows
        counted = [part["fit"]["status"] for part in detail["parts"]]
        fit = detail["category"]["fit"]
        assert (fit["yes"], fit["no"], fit["maybe"]) == tuple(counted.count(s) for s in ("yes", "no", "maybe"))


def _contradicts(reason: dict) -> bool:
    return (reason["code"] == "differs") != reason["negated"] and reason["code"] in ("differs", "matches")


def test_a_leaf_in_the_tree_shows_its_counts_and_a_group_none(client, dealer, decode_vin, upstreams):
    vehicle_id = decoded(decode_vin, VIN_GOLF)
    detail = with_question(client, vehicle_id)
    parent = get(client, f"/api/vehicles/{vehicle_id}/categories/{detail['category']['parentId']}")

    listed = next(child for child in parent["children"] if child["id"] == detail["category"]["id"])
    assert listed["fit"] == detail["category"]["fit"]
    assert parent["category"]["fit"] is None and parent["fit"] is None


# --- one question settles a drawing's maybes --------------------------------------------------------------------


def test_an_answer_settles_the_maybes_hanging_on_it_and_survives_a_restart(
    client, dealer, decode_vin, upstreams, make_app
):
    vehicle_id = decoded(decode_vin, VIN_GOLF)
    before = with_question(client, vehicle_id)
    question = before["fit"]["question"]
    hanging = hanging_on(before, question["fact"])
    leaf = f"/api/vehicles/{vehicle_id}/categories/{before['category']['id']}"

    response = answer(client, vehicle_id, question["fact"], question["options"][0]["value"])

    assert response.status_code == 200, response.get_json()
    assert response.get_json()["changed"] >= len(hanging) > 0
    assert response.get_json()["answer"]["by"] == "me"
    after = get(client, leaf)
    for part in hanging:
        settled = next(row for row in after["parts"] if row["id"] == part["id"])
        assert settled["fit"]["status"] in ("yes", "no") and settled["fit"]["answeredBy"] == "me"
    assert [item["fact"] for item in after["fit"]["answers"]] == [question["fact"]]
    assert (after["fit"]["question"] or {}).get("fact") != question["fact"]
    others = {
        part_id: status for part_id, status in statuses(before).items() if part_id not in {p["id"] for p in hanging}
    }
    assert {part_id: statuses(after)[part_id] for part_id in others} == others  # nothing else moved
    assert after["category"]["fit"]["maybe"] == before["category"]["fit"]["maybe"] - len(hanging)

    restarted = make_app(**upstreams.settings).test_client()
    signed = restarted.post("/api/auth/sign-in/email", json={"email": dealer.email, "password": PASSWORD}, headers=SITE)
    assert signed.status_code == 200
    assert statuses(get(restarted, leaf)) == statuses(after)
    kept = get(restarted, f"/api/vehicles/{vehicle_id}/fit")["answers"]
    assert [(item["fact"], item["value"]) for item in kept] == [(question["fact"], question["options"][0]["value"])]


def test_a_changed_answer_rewrites_the_fits_and_a_cleared_one_brings_the_maybes_back(
    client, dealer, decode_vin, upstreams
):
    vehicle_id = decoded(decode_vin, VIN_GOLF)
    before = with_question(client, vehicle_id)
    question = before["fit"]["question"]
    first, second = question["options"][0]["value"], question["options"][1]["value"]
    leaf = f"/api/vehicles/{vehicle_id}/categories/{before['category']['id']}"

    assert answer(client, vehicle_id, question["fact"], first).status_code == 200
    answered_first = statuses(get(client, leaf))
    assert answer(client, vehicle_id, question["fact"], second).status_code == 200
    answered_second = statuses(get(client, leaf))
    cleared = client.delete(f"/api/vehicles/{vehicle_id}/fit/answers/{question['fact']}", headers=SITE)

    assert answered_first != answered_second
    assert cleared.status_code == 200 and cleared.get_json()["answer"] is None
    assert statuses(get(client, leaf)) == statuses(before)
    assert get(client, f"/api/vehicles/{vehicle_id}/fit")["answers"] == []


def test_a_colleague_is_offered_the_answer_and_his_fits_stay_his(client, dealer, colleague, decode_vin, upstreams):
    vehicle_id = decoded(decode_vin, VIN_GOLF)
    before = with_question(client, vehicle_id)
    question = before["fit"]["question"]
    leaf = f"/api/vehicles/{vehicle_id}/categories/{before['category']['id']}"
    value = question["options"][0]["value"]

    assert answer(client, vehicle_id, question["fact"], value).status_code == 200
    seen = get(colleague, leaf)

    assert statuses(seen) == statuses(before)  # not applied to him
    offered = seen["fit"]["question"]
    assert offered["fact"] == question["fact"] and offered["current"] is None
    assert offered["colleague"]["value"] == value and offered["colleague"]["by"] == "colleague"
    assert offered["colleague"]["text"].startswith("1 başka bayi: ")
    assert all(part["fit"]["answeredBy"] == "colleague" for part in hanging_on(seen, question["fact"]))
    state = get(colleague, f"/api/vehicles/{vehicle_id}/fit")
    assert state["answers"] == [] and [item["fact"] for item in state["colleagueAnswers"]] == [question["fact"]]

    other = question["options"][1]["value"]  # his own answer, the other way, changes nothing of the first dealer's
    assert answer(colleague, vehicle_id, question["fact"], other).status_code == 200
    assert statuses(get(client, leaf)) != statuses(get(colleague, leaf))
    assert get(client, f"/api/vehicles/{vehicle_id}/fit")["answers"][0]["value"] == value


# --- the filter, the switch, search and where-used -----------------------------------------------------------------


def test_the_fit_filter_keeps_the_rows_asked_for_and_counts_the_rest(client, dealer, decode_vin, upstreams):
    vehicle_id = decoded(decode_vin, VIN_BMW)
    every = with_question(client, vehicle_id)
    leaf = f"/api/vehicles/{vehicle_id}/categories/{every['category']['id']}"

    fitting = get(client, f"{leaf}?fit=yes")
    likely = get(client, f"{leaf}?fit=yes,maybe")

    assert {part["fit"]["status"] for part in fitting["parts"]} == {"yes"}
    assert {part["fit"]["status"] for part in likely["parts"]} == {"yes", "maybe"}
    assert fitting["fit"]["hidden"] == len(every["parts"]) - len(fitting["parts"]) > 0
    assert every["fit"]["hidden"] == 0
    assert fitting["category"]["fit"] == every["category"]["fit"]  # counts are of the whole drawing


def test_the_switch_is_kept_per_dealer(client, dealer, colleague, decode_vin, upstreams):
    vehicle_id = decoded(decode_vin, VIN_GOLF)
    leaf = f"/api/vehicles/{vehicle_id}/categories/{with_question(client, vehicle_id)['category']['id']}"

    switched = client.put("/api/fit/preference", json={"fittingOnly": True}, headers=SITE)

    assert switched.status_code == 200 and switched.get_json() == {"fittingOnly": True}
    assert get(client, "/api/fit/preference") == {"fittingOnly": True}
    assert get(client, leaf)["fit"]["fittingOnly"] is True
    assert get(colleague, leaf)["fit"]["fittingOnly"] is False
    assert client.put("/api/fit/preference", json={"fittingOnly": False}, headers=SITE).get_json() == {
        "fittingOnly": False
    }


def test_search_and_where_used_carry_the_dealers_fit(client, dealer, decode_vin, upstreams):
    vehicle_id = decoded(decode_vin, VIN_GOLF)
    detail = with_question(client, vehicle_id)
    question = detail["fit"]["question"]
    part = hanging_on(detail, question["fact"])[0]
    answer(client, vehicle_id, question["fact"], question["options"][0]["value"])
    settled = next(row for row in get(client, f"/api/vehicles/{vehicle_id}/categories/{detail['category']['id']}")[
        "parts"] if row["id"] == part["id"])  # fmt: skip

    found = get(client, f"/api/categories/search/{vehicle_id}?q={part['oemCode']}")["parts"]
    used = get(client, f"/api/parts/{part['oemCode']}/where-used")["vehicles"]

    assert next(row for row in found if row["id"] == part["id"])["fit"] == settled["fit"]
    rows = [row for vehicle in used for row in vehicle["parts"] if row["id"] == part["id"]]
    assert rows and rows[0]["fit"] == {**settled["fit"], "answeredBy": "me"}


# --- bad input -------------------------------------------------------------------------------------------------------


def test_bad_answers_are_refused_in_turkish_and_change_nothing(client, dealer, decode_vin, upstreams):
    vehicle_id = decoded(decode_vin, VIN_GOLF)
    detail = with_question(client, vehicle_id)
    leaf = f"/api/vehicles/{vehicle_id}/categories/{detail['category']['id']}"
    base = f"/api/vehicles/{vehicle_id}/fit/answers"
    json_headers = {**SITE, "Content-Type": "application/json"}
    refused = {
        "unknown fact": (answer(client, vehicle_id, "colour", "RED"), 400, "unknown_fact"),
        "criteria": (answer(client, vehicle_id, "criteria", "X"), 400, "unknown_fact"),
        "a known fact": (answer(client, vehicle_id, "build_date", "2016-01"), 409, "fact_known"),
        "text for yes or no": (answer(client, vehicle_id, "aircon", "yes"), 400, "invalid_answer"),
        "no gearbox kind": (answer(client, vehicle_id, "gearbox_kind", "CVT"), 400, "invalid_answer"),
        "a bool for doors": (answer(client, vehicle_id, "doors", True), 400, "invalid_answer"),
        "no value": (answer(client, vehicle_id, "option:9AK", None), 400, "invalid_answer"),
        "a long code": (answer(client, vehicle_id, "brake_code", "X" * 21), 400, "invalid_answer"),
        "a NUL byte": (answer(client, vehicle_id, "brake_code", "1K\x00D"), 400, "invalid_characters"),
        "odd bytes in the fact": (client.put(f"{base}/%FF%FE", json={"value": True}, headers=SITE), 400, None),
        "not JSON": (client.put(f"{base}/aircon", data=b"\xff\xfe{", headers=json_headers), 400, "invalid_json"),
        "deep JSON": (
            client.put(f"{base}/aircon", data="[" * 200 + "]" * 200, headers=json_headers),
            400,
            None,
        ),
        "a list body": (client.put(f"{base}/aircon", json=[True], headers=SITE), 400, "invalid_json"),
        "a bad filter": (client.get(f"{leaf}?fit=perhaps"), 400, "invalid_fit_filter"),
        "a bad switch": (client.put("/api/fit/preference", json={"fittingOnly": "yes"}, headers=SITE), 400, None),
        "an unknown vehicle": (answer(client, 999_999, "aircon", True), 404, "vehicle_not_found"),
    }

    for name, (response, status, code) in refused.items():
        error = response.get_json()["error"]
        assert response.status_code == status, (name, response.status_code, error)
        assert code is None or error["code"] == code, (name, error)
        assert any(letter in error["message"] for letter in "ıİşŞğĞüÜöÖçÇ") or " ya da " in error["message"], (
            name,
            error["message"],
        )
    assert get(client, f"/api/vehicles/{vehicle_id}/fit")["answers"] == []
    assert statuses(get(client, leaf)) == statuses(detail)


def test_a_refusal_speaks_english_when_asked(client, dealer, decode_vin, upstreams):
    vehicle_id = decoded(decode_vin, VIN_GOLF)

    response = answer(client, vehicle_id, "colour", "RED", **{"Accept-Language": "en"})

    assert response.status_code == 400
    assert response.get_json()["error"]["message"] == "There is no such question about a vehicle."


# --- a copied tree is judged again for its vehicle --------------------------------------------------------------


def test_a_tree_copied_to_another_row_of_the_same_car_is_judged_by_that_rows_facts(client, dealer, upstreams):
    """A browsed car (no VIN: no build date) takes the stored tree of a decoded VIN of the same car: a row that the
    VIN's build date settles is a maybe for the browsed car."""
    decoded_row = _catapi_vehicle("WVWZZZAUZHW100099", {"carId": "same-car", "criteria": "buildDate=2017-09"})
    browsed = _catapi_vehicle("", {"carId": "same-car"}, candidate_key="browsed")
    store.save_nodes(decoded_row, "catapi", None, [Node("leaf", "Filtreler {103-010}", is_leaf=True)])
    leaf = store.roots(decoded_row)[0]
    lines = [
        PartLine("03L 115 001", "Yağ filtresi", position="1", applicability=DateRange(BuildDate(2016, 1), None)),
        PartLine("03L 115 002", "Yağ filtresi", position="1", applicability=DateRange(None, BuildDate(2015, 12))),
        PartLine("03L 115 003", "Yağ filtresi", position="1"),
    ]
    store.save_parts(decoded_row, leaf.id, "catapi", lines)
    db.session.commit()

    tree = get(client, f"/api/vehicles/{browsed}/categories")
    copied = get(client, f"/api/vehicles/{browsed}/categories/{tree['categories'][0]['id']}")
    original = get(client, f"/api/vehicles/{decoded_row}/categories/{leaf.id}")

    # The third row states no applicability: not known, for either row of the car.
    assert [part["fit"]["status"] for part in original["parts"]] == ["yes", "no", "maybe"]
    assert [part["fit"]["status"] for part in copied["parts"]] == ["maybe", "maybe", "maybe"]
    assert tree["categories"][0]["fit"] == {"status": "maybe", "yes": 0, "no": 0, "maybe": 3}
    assert copied["fit"]["question"]["fact"] == "build_date" and copied["fit"]["question"]["input"] == "month"


def _catapi_vehicle(vin: str, raw: dict, candidate_key: str = "") -> int:
    vehicle = Vehicle(vin=vin, candidate_key=candidate_key, brand_name="Volkswagen", model="Golf", source="catapi",
                      raw_data=raw)  # fmt: skip
    db.session.add(vehicle)
    db.session.flush()
    return vehicle.id
