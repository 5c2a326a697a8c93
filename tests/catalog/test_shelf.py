"""The dealer's shelf list on the catalog: each part row of a drawing (page and API) shows the list's row that
carries its number (stock, price, own code, how it matched, the current number); the search and where-used find parts
by an own code or aftermarket number; two dealers on the same drawing see their own lists, the fragment cache
notwithstanding; a page costs one query more with a list and none without."""

from __future__ import annotations

import re

import pytest

from tests.catalog.test_query_counts import HX, SHARED_CODE, brand, catalog_of  # noqa: F401 - fixture used here
from tests.support.payments import sign_in_client
from tests.support.queries import keep_session, statements_of
from tests.support.shelf import shelf_list

# catalog_of's first leaf: SHARED_CODE (1K0 129 620 D), then the coils 06A 905 000, 06A 905 001...
FILTER = {"oem": "1K0-129-620-D", "own": "HF 42", "name": "Hava filtresi", "price": "1250.50", "stock": 3,
          "aftermarket": ["MANN C 35 154"]}  # fmt: skip
COIL_OLD = {"oem": "06A905000", "own": "BOB-0", "price": 900, "stock": 0, "replaced_by": "06A 905 115 D"}
COIL_NEW = {"oem": "06A 905 115 D", "own": "BOB-115", "price": "1100", "stock": 2}


@pytest.fixture
def drawing(brand):  # noqa: F811
    return catalog_of(brand, 2)


@pytest.fixture
def other_client(app, create_user, make_subscription):
    """A second dealer with a Full plan, signed in on a client of his own: (user, client)."""
    user = create_user()
    make_subscription(user, "active", plan_key="full")
    client = app.test_client()
    sign_in_client(client, user.email)
    return user, client


def shown_text(html: str) -> str:
    """The page's text as a reader sees it: tags dropped, spaces (no-break ones too) collapsed."""
    return " ".join(re.sub(r"<[^>]+>", "", html).split())


def category_api(client, drawing):
    answer = client.get(f"/api/vehicles/{drawing.vehicle_id}/categories/{drawing.leaf_id}")
    assert answer.status_code == 200, answer.get_json()
    return {part["oemCode"]: part for part in answer.get_json()["parts"]}


def category_page(client, drawing, headers=None) -> str:
    answer = client.get(f"/vehicles/{drawing.vehicle_id}/categories/{drawing.leaf_id}", headers=headers or {})
    assert answer.status_code == 200
    return answer.get_data(as_text=True)


def test_a_part_row_carries_the_list_row_of_its_oem_number(client, dealer, drawing):
    shelf_list(dealer, [FILTER])

    parts = category_api(client, drawing)

    assert parts[SHARED_CODE]["shelf"] == {
        "stock": 3,
        "price": "1250.50",
        "currency": "TRY",
        "ownCode": "HF 42",
        "oemCode": "1K0-129-620-D",
        "brand": None,
        "name": "Hava filtresi",
        "matched": {"number": SHARED_CODE, "kind": "oem"},
        "current": None,
    }
    assert parts["06A 905 000"]["shelf"] is None


def test_a_replaced_part_shows_its_current_number_and_the_new_one_what_it_replaces(client, dealer, drawing):
    shelf_list(dealer, [COIL_OLD, COIL_NEW, {"own": "X-1", "stock": 1, "replaced_by": "06A905001"}])

    parts = category_api(client, drawing)

    old = parts["06A 905 000"]["shelf"]
    assert (old["stock"], old["matched"]["kind"]) == (0, "oem")
    assert old["current"] == {"number": "06A 905 115 D", "stock": 2, "price": "1100.00", "currency": "TRY",
                              "ownCode": "BOB-115"}  # fmt: skip
    newer = parts["06A 905 001"]["shelf"]  # the list's X-1 is replaced by this row's number
    assert newer["matched"] == {"number": "X-1", "kind": "replaces"}
    assert newer["ownCode"] == "X-1"


def test_an_aftermarket_row_carrying_the_oem_number_answers_for_the_part(client, dealer, drawing):
    shelf_list(dealer, [{"own": "BOSCH-77", "brand": "BOSCH", "stock": 7, "aftermarket": ["06A 905 001"]}])

    shelf = category_api(client, drawing)["06A 905 001"]["shelf"]

    assert (shelf["ownCode"], shelf["matched"]["kind"], shelf["stock"]) == ("BOSCH-77", "aftermarket", 7)


def test_the_parts_table_shows_stock_price_own_code_and_the_current_number(client, dealer, drawing):
    shelf_list(dealer, [FILTER, COIL_OLD, COIL_NEW])

    text = shown_text(category_page(client, drawing))

    assert "Rafta 3 · 1.250,50 ₺ · kodunuz HF 42" in text
    assert "OEM numarasıyla eşleşti" in text
    assert "Rafta yok · 900,00 ₺ · kodunuz BOB-0" in text
    assert "yerine: 06A 905 115 D (Rafta 2 · 1.100,00 ₺)" in text


def test_html_in_the_list_is_escaped(client, dealer, drawing):
    shelf_list(dealer, [{**FILTER, "own": "<script>alert(1)</script>"}])

    html = category_page(client, drawing)

    assert "<script>alert(1)</script>" not in html
    assert "kodunuz &lt;script&gt;" in html


def test_two_dealers_on_the_same_drawing_see_their_own_lists(client, dealer, drawing, other_client):
    other, other_http = other_client
    shelf_list(dealer, [FILTER])
    shelf_list(other, [{**FILTER, "own": "BAŞKA-9", "price": "99", "stock": 1}])

    for headers in (None, {"HX-Request": "true"}, None):  # twice the whole page: the second from the fragment cache
        mine, theirs = category_page(client, drawing, headers), category_page(other_http, drawing, headers)
        assert "kodunuz HF 42" in mine and "BAŞKA-9" not in mine
        assert "kodunuz BAŞKA-9" in theirs and "HF 42" not in theirs
    assert category_api(other_http, drawing)[SHARED_CODE]["shelf"]["ownCode"] == "BAŞKA-9"
    assert category_api(client, drawing)[SHARED_CODE]["shelf"]["ownCode"] == "HF 42"


def test_a_dealer_without_a_list_sees_no_shelf(client, dealer, drawing, other_client):
    other, other_http = other_client
    shelf_list(dealer, [FILTER])
    category_page(client, drawing)  # kept in the fragment cache with the dealer's list
    assert any(part["shelf"] for part in category_api(client, drawing).values())  # the drawing's views kept with it

    html = category_page(other_http, drawing)

    assert "data-shelf" not in html
    assert all(part["shelf"] is None for part in category_api(other_http, drawing).values())


def test_a_new_list_replaces_the_old_one_on_the_page(client, dealer, drawing):
    shelf_list(dealer, [FILTER])
    assert "kodunuz HF 42" in category_page(client, drawing)

    shelf_list(dealer, [{**FILTER, "own": "YENI-1"}])

    html = category_page(client, drawing)
    assert "kodunuz YENI-1" in html and "HF 42" not in html


# --- search and where-used ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("typed", ["hf42", "HF-42", "mann c35154"])
def test_the_search_finds_a_part_by_own_code_or_aftermarket_number(client, dealer, drawing, typed):
    shelf_list(dealer, [FILTER])

    answer = client.get(f"/api/categories/search/{drawing.vehicle_id}", query_string={"q": typed})

    assert answer.status_code == 200
    parts = answer.get_json()["parts"]
    assert [part["oemCode"] for part in parts] == [SHARED_CODE]
    assert parts[0]["shelf"]["ownCode"] == "HF 42"


def test_the_search_page_shows_the_shelf_of_what_it_found(client, dealer, drawing):
    shelf_list(dealer, [FILTER])

    html = client.get(f"/vehicles/{drawing.vehicle_id}", query_string={"q": "HF 42"}).get_data(as_text=True)

    assert SHARED_CODE in html
    assert "Rafta 3 · 1.250,50 ₺ · kodunuz HF 42" in shown_text(html)


def test_another_dealers_own_code_finds_nothing(client, dealer, drawing, other_client):
    other, _other_http = other_client
    shelf_list(other, [FILTER])

    answer = client.get(f"/api/categories/search/{drawing.vehicle_id}", query_string={"q": "HF42"})

    assert answer.get_json()["parts"] == []


def test_where_used_takes_an_own_code_or_an_aftermarket_number(client, dealer, drawing, other_client):
    shelf_list(dealer, [FILTER])

    for typed in ("HF 42", "MANN-C-35154", SHARED_CODE):
        found = client.get(f"/api/parts/{typed}/where-used").get_json()
        assert (found["vehicleCount"], found["partCount"]) == (1, 1), typed
        assert found["vehicles"][0]["parts"][0]["shelf"]["ownCode"] == "HF 42"

    _other, other_http = other_client
    assert other_http.get("/api/parts/HF42/where-used").get_json()["vehicleCount"] == 0
    found = other_http.get(f"/api/parts/{SHARED_CODE}/where-used").get_json()
    assert found["vehicles"][0]["parts"][0]["shelf"] is None


def test_the_where_used_panel_of_a_row_stays_its_oem_code(client, dealer, drawing):
    shelf_list(dealer, [{"oem": "06A 905 000", "aftermarket": [SHARED_CODE]}])

    answer = client.get(f"/vehicles/{drawing.vehicle_id}/parts/{drawing.part_id}/where-used", headers=HX)

    assert answer.status_code == 200
    assert answer.get_data(as_text=True).count("?part=") == 1  # the row itself, not the coil its list row names


# --- what it costs ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        "/api/vehicles/{vehicle}/categories/{leaf}",
        "/vehicles/{vehicle}/categories/{leaf}",
        "/api/categories/search/{vehicle}?q=bobin",
    ],
)
def test_a_list_costs_one_query_per_page_and_one_per_further_chain_step(app, client, dealer, drawing, path):
    """Without a list a page sends its pinned statements (tests/catalog/test_query_counts.py); a list adds its lookup,
    which reads the rows that the page's replaced rows are replaced by too; a chain's further steps cost one query
    each (for all rows at once); the same page of the same list again costs nothing more."""
    url = path.format(vehicle=drawing.vehicle_id, leaf=drawing.leaf_id)

    def statements() -> int:
        keep_session(client)
        return len(statements_of(app, lambda: client.get(url))[1])

    def statements_with(rows: list[dict]) -> int:
        shelf_list(dealer, rows)
        return statements()

    statements()  # the dealer's plan coverage is kept beside the session from here on
    bare = statements()
    assert statements_with([FILTER]) == bare + 1
    assert statements_with([{**FILTER, "replaced_by": "ZZ 1"}, COIL_OLD, COIL_NEW]) == bare + 1
    assert statements_with([COIL_OLD, {**COIL_NEW, "replaced_by": "06A 905 999"}, {"oem": "06A905999"}]) == bare + 2
    assert statements() == bare  # opened again: the process kept the answer of the list in use for these numbers
