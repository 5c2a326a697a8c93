"""Numbers matched against the dealer's list as a clerk types them (GET /api/shelf/lookup): by OEM number, own code
and aftermarket number, spaces, dashes, dots and case ignored; replacement chains followed without looping; one
dealer's list never answers another."""

from __future__ import annotations

import pytest

from tests.billing.conftest import billing_catalog, make_subscription  # noqa: F401 - fixtures used here
from tests.support.payments import sign_in_client
from tests.support.shelf import shelf_list
from tests.vehicles.conftest import dealer  # noqa: F401 - fixture used here

FILTER = {"oem": "1K0 129 620 D", "own": "HF-0042", "brand": "MANN", "name": "Hava filtresi", "price": "1250.50",
          "stock": 3, "aftermarket": ["C 35 154", "LX 1566"]}  # fmt: skip


def lookup(client, number: str):
    return client.get("/api/shelf/lookup", query_string={"number": number})


@pytest.mark.parametrize("typed", ["1K0 129 620 D", "1k0-129-620d", "1K0.129.620.D", " 1k0129620D "])
def test_an_oem_number_matches_however_it_is_typed(client, dealer, typed):  # noqa: F811
    shelf_list(dealer, [FILTER])

    answer = lookup(client, typed)

    assert answer.status_code == 200, answer.get_json()
    hit = answer.get_json()
    assert hit["stock"] == 3
    assert hit["price"] == "1250.50"
    assert hit["currency"] == "TRY"
    assert hit["ownCode"] == "HF-0042"
    assert hit["matched"] == {"number": typed.strip(), "kind": "oem"}
    assert hit["current"] is None
    assert hit["searchKey"] == "1k0129620d"


@pytest.mark.parametrize(("typed", "kind"), [("hf 0042", "own"), ("c35154", "aftermarket"), ("LX-1566", "aftermarket")])
def test_an_own_code_or_an_aftermarket_number_finds_the_row(client, dealer, typed, kind):  # noqa: F811
    shelf_list(dealer, [FILTER])

    hit = lookup(client, typed).get_json()

    assert hit["matched"]["kind"] == kind
    assert hit["oemCode"] == "1K0 129 620 D"


def test_a_replaced_number_shows_the_end_of_its_chain(client, dealer):  # noqa: F811
    shelf_list(
        dealer,
        [
            {"oem": "A-100", "stock": 0, "price": 10, "replaced_by": "B 200"},
            {"oem": "B200", "stock": 1, "price": 20, "replaced_by": "c.300"},
            {"oem": "C300", "stock": 2, "price": "30.5"},
        ],
    )

    hit = lookup(client, "a100").get_json()

    assert hit["matched"]["kind"] == "oem"
    assert hit["stock"] == 0
    assert hit["current"] == {"number": "c.300", "stock": 2, "price": "30.50", "currency": "TRY", "ownCode": None}


def test_a_number_the_list_replaces_finds_the_older_row(client, dealer):  # noqa: F811
    shelf_list(dealer, [{"oem": "A-100", "own": "ESKI-1", "stock": 4, "price": 10, "replaced_by": "B 200"}])

    hit = lookup(client, "B200").get_json()

    assert hit["matched"] == {"number": "A-100", "kind": "replaces"}
    assert hit["stock"] == 4
    assert hit["current"] is None


def test_a_chain_to_a_number_not_on_the_list_ends_there(client, dealer):  # noqa: F811
    shelf_list(dealer, [{"oem": "A-100", "stock": 1, "replaced_by": "Z 999"}])

    hit = lookup(client, "A100").get_json()

    assert hit["current"] == {"number": "Z 999", "stock": None, "price": None, "currency": None, "ownCode": None}


def test_a_loop_of_replacements_ends(client, dealer):  # noqa: F811
    shelf_list(
        dealer,
        [
            {"oem": "A-100", "stock": 1, "replaced_by": "B200"},
            {"oem": "B200", "stock": 2, "replaced_by": "A 100"},
        ],
    )

    hit = lookup(client, "A100").get_json()

    assert hit["current"]["number"] == "B200"
    assert hit["current"]["stock"] == 2


def test_a_long_chain_is_followed_only_so_far(client, dealer):  # noqa: F811
    rows = [{"oem": f"N{index}", "stock": index, "replaced_by": f"N{index + 1}"} for index in range(30)]
    shelf_list(dealer, rows)

    hit = lookup(client, "N0").get_json()

    assert hit["current"]["number"] == "N11"  # ten steps past N1


def test_the_best_row_answers_when_several_carry_the_number(client, dealer):  # noqa: F811
    shelf_list(
        dealer,
        [
            {"own": "BOSCH-1", "stock": 0, "aftermarket": ["1K0129620D"]},
            {"own": "MANN-1", "stock": 5, "aftermarket": ["1K0129620D"]},
            {"oem": "1K0 129 620 D", "own": "OEM-1", "stock": 0},
        ],
    )

    assert lookup(client, "1K0129620D").get_json()["ownCode"] == "OEM-1"  # the OEM row first, stock or not
    assert lookup(client, "MANN 1").get_json()["ownCode"] == "MANN-1"


def test_a_number_not_on_the_list_is_404_in_turkish(client, dealer):  # noqa: F811
    shelf_list(dealer, [FILTER])

    answer = lookup(client, "XYZ 123")

    assert answer.status_code == 404
    assert answer.get_json()["error"]["code"] == "not_on_shelf"
    assert "listenizde" in answer.get_json()["error"]["message"]


def test_a_dealer_without_a_list_finds_nothing(client, dealer):  # noqa: F811
    assert lookup(client, "1K0129620D").status_code == 404


@pytest.mark.parametrize("typed", ["", "  ", "---", "x" * 101, "9" * 61, "\x00"])
def test_a_malformed_number_is_refused_in_turkish(client, dealer, typed):  # noqa: F811
    answer = lookup(client, typed)

    assert answer.status_code == 400
    assert answer.get_json()["error"]["code"] in {"invalid_number", "invalid_characters"}  # NUL: refused by the app


def test_another_dealers_list_never_answers(client, dealer, create_user, make_subscription):  # noqa: F811
    other = create_user()
    make_subscription(other, "active", plan_key="full")
    shelf_list(other, [FILTER])

    assert lookup(client, "1K0129620D").status_code == 404
    sign_in_client(client, other.email)
    assert lookup(client, "1K0129620D").status_code == 200


def test_the_lookup_needs_a_session(client):
    assert lookup(client, "1K0129620D").status_code == 401
