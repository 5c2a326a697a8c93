"""The public demo: five GET endpoints over one stored vehicle, no session, stored rows only, ids guarded."""

from __future__ import annotations

import pytest

from app.catalog import store
from app.catalog.models import Category
from app.extensions import db
from app.sources.sandbox.catalog import VIN_GOLF
from tests.demo.conftest import upstream_calls

EN = {"Accept-Language": "en"}


def get(client, path: str, **kwargs) -> dict:
    response = client.get(path, **kwargs)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def error_of(response) -> tuple[int, str, str]:
    body = response.get_json()["error"]
    return response.status_code, body["code"], body["message"]


# --- the five endpoints ---------------------------------------------------------------------------------------


def test_the_vehicle_shows_what_it_is_a_masked_vin_and_the_stored_catalog_s_size(client, golf):
    vehicle = get(client, "/api/demo/vehicle")

    categories, parts, pictures = store.counts(golf.vehicle_id)
    assert vehicle["id"] == golf.vehicle_id
    assert (vehicle["brandName"], vehicle["model"], vehicle["year"]) == ("Volkswagen", "Golf", 2017)
    assert vehicle["engine"]
    assert vehicle["vin"] == "WVW" + "*" * 14 and VIN_GOLF[3:] not in str(vehicle)
    assert vehicle["counts"] == {"categories": categories, "parts": parts, "schemaPictures": pictures}
    assert parts > 0 and pictures == 1


def test_the_tree_is_the_stored_roots(client, golf):
    tree = get(client, "/api/demo/categories/tree")

    assert [root["id"] for root in tree["categories"]] == golf.roots
    assert tree["loadError"] is False
    assert {"id", "parentId", "name", "leaf", "illustrationCode", "thumbnail"} <= set(tree["categories"][0])


def test_a_leaf_has_its_parts_schema_hotspots_and_ancestors_as_a_signed_in_dealer_sees_them(app, client, golf, dealer):
    visitor = app.test_client()  # `client` is the dealer's, signed in

    demo = get(visitor, f"/api/demo/categories/{golf.leaf}")
    signed_in = get(client, f"/api/vehicles/{golf.vehicle_id}/categories/{golf.leaf}")

    assert demo == signed_in
    assert demo["parts"] and demo["children"] == [] and demo["loadError"] is False
    assert demo["schema"]["imageUrl"].startswith("/storage/schemas/") and demo["schema"]["hotspots"]
    assert [item["id"] for item in demo["ancestors"]] == golf.branch[:-1]


def test_a_group_has_its_stored_children_and_the_children_endpoint_agrees(client, golf):
    detail = get(client, f"/api/demo/categories/{golf.branch[0]}")
    children = get(client, f"/api/demo/categories/{golf.branch[0]}/children")

    assert detail["children"] and detail["parts"] == [] and detail["schema"] is None and detail["ancestors"] == []
    assert children["categories"] == detail["children"] and children["loadError"] is False
    assert golf.branch[1] in [child["id"] for child in children["categories"]]


def test_search_finds_stored_parts_and_categories_across_the_tree(client, golf):
    found = get(client, "/api/demo/categories/search?q=" + first_part_word(golf))

    assert found["parts"] and all(part["leaf"]["id"] == golf.leaf for part in found["parts"])


def first_part_word(golf) -> str:
    return store.parts(golf.leaf)[0].name.split()[0].rstrip(",")


# --- no upstream call -------------------------------------------------------------------------------------------


def test_no_endpoint_ever_calls_an_upstream_even_for_a_category_not_stored(client, golf, upstreams):
    before = upstream_calls(upstreams)
    unfetched = golf.roots[1]  # its children were never stored

    detail = get(client, f"/api/demo/categories/{unfetched}")
    children = get(client, f"/api/demo/categories/{unfetched}/children")
    for path in ("/api/demo/vehicle", "/api/demo/categories/tree", "/api/demo/categories/search?q=filter"):
        get(client, path)
    get(client, f"/api/demo/categories/{golf.leaf}")

    assert upstream_calls(upstreams) == before
    assert detail["children"] == [] and detail["parts"] == [] and detail["loadError"] is False
    assert children == {"categories": [], "loadError": False}
    assert db.session.get(Category, unfetched).children_fetched_at is None  # still not fetched


# --- the id guard -------------------------------------------------------------------------------------------------


@pytest.fixture
def no_store_reads(monkeypatch):
    """Fail on any read of the stored tree (the guard must refuse before one)."""

    def refuse(*_args, **_kwargs):
        raise AssertionError("the stored tree was read before the category id was checked")

    for name in ("roots", "children", "parts", "ancestors", "picture_of", "thumbnails", "illustration_index", "counts"):
        monkeypatch.setattr(store, name, refuse)


@pytest.mark.parametrize("suffix", ["", "/children"])
def test_a_category_of_another_vehicle_is_not_found_before_anything_is_read(
    client, golf, other_vehicles_category, no_store_reads, suffix
):
    response = client.get(f"/api/demo/categories/{other_vehicles_category}{suffix}")

    assert error_of(response) == (404, "category_not_found", "Bu araç için böyle bir kategori bulunamadı.")


@pytest.mark.parametrize("suffix", ["", "/children"])
def test_a_missing_category_is_not_found(client, golf, no_store_reads, suffix):
    response = client.get(f"/api/demo/categories/987654321{suffix}", headers=EN)

    assert error_of(response) == (404, "category_not_found", "No such category was found for this vehicle.")


# --- demo unavailable ---------------------------------------------------------------------------------------------

ALL_PATHS = [
    "/api/demo/vehicle",
    "/api/demo/categories/tree",
    "/api/demo/categories/search?q=filtre",
    "/api/demo/categories/1",
    "/api/demo/categories/1/children",
]


@pytest.mark.parametrize("path", ALL_PATHS)
@pytest.mark.parametrize(
    "settings",
    [
        {"DEMO_VEHICLE_ID": 987654321, "DEMO_VIN": VIN_GOLF},  # an id pointing nowhere: no fallback to the VIN
        {"DEMO_VEHICLE_ID": None, "DEMO_VIN": ""},
        {"DEMO_VEHICLE_ID": None, "DEMO_VIN": "WVWZZZAUZHW999999"},  # a VIN not stored
    ],
)
def test_without_a_demo_vehicle_every_endpoint_says_the_demo_is_unavailable(app, client, monkeypatch, path, settings):
    for name, value in settings.items():
        monkeypatch.setitem(app.config, name, value)

    response = client.get(path)

    status, code, message = error_of(response)
    assert (status, code) == (404, "demo_unavailable")
    assert message == "Demo şu anda kullanılamıyor. Lütfen daha sonra tekrar deneyin."


def test_with_no_vehicle_id_the_vehicle_of_demo_vin_is_the_demo(app, client, golf, monkeypatch):
    monkeypatch.setitem(app.config, "DEMO_VEHICLE_ID", None)
    monkeypatch.setitem(app.config, "DEMO_VIN", VIN_GOLF)

    assert get(client, "/api/demo/vehicle")["id"] == golf.vehicle_id


# --- Turkish search ------------------------------------------------------------------------------------------------


def search(client, query: str) -> dict:
    found = get(client, "/api/demo/categories/search", query_string={"q": query})
    found.pop("query")
    return found


def test_search_folds_case_the_turkish_way(client, turkish_catalog):
    upper, lower, title, ascii_i = (search(client, q) for q in ("FİLTRE", "filtre", "Filtre", "FILTRE"))

    assert upper == lower == title == ascii_i
    assert sorted(part["name"] for part in lower["parts"]) == [
        "Hava filtresi elemanı",
        "YAĞ FİLTRESİ",
        "Yakıt filtresi",
    ]
    assert [category["name"] for category in lower["categories"]] == ["FİLTRELER {111-010}"]


def test_search_finds_turkish_letters_typed_without_them_and_oem_codes_without_separators(client, turkish_catalog):
    by_ascii = search(client, "yag filtresi")
    by_code = search(client, "03L-115562")

    assert [part["name"] for part in by_ascii["parts"]] == ["YAĞ FİLTRESİ"]
    assert [part["oemCode"] for part in by_code["parts"]] == ["03L 115 562"]


def test_an_empty_search_is_refused(client, turkish_catalog):
    response = client.get("/api/demo/categories/search?q=%20")

    assert response.status_code == 400 and response.get_json()["error"]["code"] == "invalid_query"


def test_the_vehicle_of_a_hand_made_catalog_counts_what_is_stored(client, turkish_catalog):
    vehicle = get(client, "/api/demo/vehicle")

    assert vehicle["vin"] == "NM0**************"
    assert vehicle["counts"] == {"categories": 3, "parts": 4, "schemaPictures": 0}


# --- public, GET only, throttled -----------------------------------------------------------------------------------


def test_every_demo_route_is_public_and_read_only(app):
    rules = [rule for rule in app.url_map.iter_rules() if rule.rule.startswith("/api/demo/")]

    assert len(rules) == 5
    for rule in rules:
        assert getattr(app.view_functions[rule.endpoint], "is_public", False), rule.rule
        assert rule.methods - {"HEAD", "OPTIONS"} == {"GET"}, rule.rule


def test_the_demo_shares_one_budget_per_address(make_app):
    client = make_app(DEMO_RATE_LIMIT="2 per minute", RATELIMIT_ENABLED=True, DEMO_VEHICLE_ID=None).test_client()

    statuses = [client.get(path).status_code for path in ("/api/demo/vehicle", "/api/demo/categories/tree")]
    throttled = client.get("/api/demo/categories/1")
    other_address = client.get("/api/demo/vehicle", environ_base={"REMOTE_ADDR": "127.0.0.2"})

    assert statuses == [404, 404]  # no demo vehicle in this test: the budget counts every answer
    assert throttled.status_code == 429 and throttled.get_json()["error"]["code"] == "rate_limited"
    assert other_address.status_code == 404


def test_the_search_has_a_tighter_budget_of_its_own(make_app):
    client = make_app(DEMO_SEARCH_RATE_LIMIT="1 per minute", RATELIMIT_ENABLED=True).test_client()

    first = client.get("/api/demo/categories/search?q=filtre")
    second = client.get("/api/demo/categories/search?q=filtre")
    elsewhere = client.get("/api/demo/vehicle")

    assert first.status_code != 429 and second.status_code == 429 and elsewhere.status_code != 429
