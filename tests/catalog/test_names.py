"""Catalog names in two languages through HTTP: the catapi Golf (English upstream) read in Turkish by default and in
English on request, both texts in every answer, the portal's Turkish left as it is, partly translated names marked,
and the search finding the oil filter in either language."""

from __future__ import annotations

from urllib.parse import quote

import pytest

from app.catalog import store
from app.catalog.providers import Node, PartLine
from app.core.i18n import LOCALE_COOKIE
from app.extensions import db
from tests.catalog.test_categories import get, run_prefetch
from tests.catalog.test_pages import main_area, page, text_of, tree_area
from tests.demo.conftest import golf  # noqa: F401 - the catapi Golf as the demo vehicle


def search(client, query: str) -> dict:
    return get(client, f"/api/demo/categories/search?q={quote(query)}")


def test_the_golf_reads_in_turkish_by_default_with_both_texts(client, golf):  # noqa: F811
    roots = get(client, "/api/demo/categories/tree")["categories"]

    engine = next(root for root in roots if root["nameEn"] == "Engine")
    assert engine["name"] == engine["nameTr"] == "Motor"
    assert engine["nameTrComplete"] is True


def test_english_on_request(client, golf):  # noqa: F811
    english = get(client, "/api/demo/categories/tree?lang=en")["categories"]
    asked = client.get("/api/demo/categories/tree", headers={"Accept-Language": "en"}).get_json()["categories"]

    assert [root["name"] for root in english] == [root["nameEn"] for root in english]
    assert asked == english
    assert all(root["nameTr"] for root in english)


def test_a_leaf_s_parts_carry_both_names(client, golf):  # noqa: F811
    detail = get(client, f"/api/demo/categories/{golf.leaf}")

    assert detail["parts"]
    for part in detail["parts"]:
        assert part["nameEn"] and part["nameTr"] and part["name"] == part["nameTr"] and part["nameTrComplete"]
    assert sum(part["nameTr"] != part["nameEn"] for part in detail["parts"]) > len(detail["parts"]) / 2
    assert [step["name"] for step in detail["ancestors"]] == [step["nameTr"] for step in detail["ancestors"]]


def test_the_portal_s_turkish_is_its_own_turkish_in_both_languages(client, bmw, upstreams):
    turkish = get(client, f"/api/vehicles/{bmw}/categories")["categories"]
    english = get(client, f"/api/vehicles/{bmw}/categories?lang=en")["categories"]

    assert turkish == english
    assert turkish[0]["name"] == turkish[0]["nameTr"] == "Motor" and turkish[0]["nameEn"] is None


def test_the_page_shows_turkish_names_and_english_after_the_switch(client, dealer, golf):  # noqa: F811
    leaf_page = f"/vehicles/{golf.vehicle_id}/categories/{golf.leaf}"
    detail = get(client, f"/api/vehicles/{golf.vehicle_id}/categories/{golf.leaf}")
    part = detail["parts"][0]

    turkish = text_of(main_area(page(client, leaf_page)))
    client.set_cookie(LOCALE_COOKIE, "en")
    english_html = page(client, leaf_page)

    assert part["nameTr"].split(",")[0] in turkish and part["nameEn"] not in turkish
    assert part["nameEn"].split(",")[0] in text_of(main_area(english_html))
    assert "Engine" in text_of(tree_area(english_html))


def test_a_name_the_dictionary_knows_only_in_part_shows_its_english_and_is_marked(client, dealer, golf):  # noqa: F811
    store.save_nodes(golf.vehicle_id, "catapi", golf.branch[-2], [Node("zz-1", "Quux bracket", is_leaf=True)])
    leaf = next(child for child in store.children(golf.branch[-2]) if child.external_id == "zz-1")
    store.save_parts(golf.vehicle_id, leaf.id, "catapi", [PartLine("5Q0 000 001", "Quux flange, front", position="1")])
    db.session.commit()

    detail = get(client, f"/api/vehicles/{golf.vehicle_id}/categories/{leaf.id}")
    html = main_area(page(client, f"/vehicles/{golf.vehicle_id}/categories/{leaf.id}"))

    [part] = detail["parts"]
    assert part["nameTrComplete"] is False and "quux" in part["nameTr"].lower()
    assert detail["category"]["nameTrComplete"] is False
    assert 'class="name-partial" title="Quux flange, front"' in html


@pytest.mark.parametrize(
    "query", ["filtre", "yağ filtresi", "yag filtresi", "YAĞ FİLTRESİ", "oil filter", "OIL FILTER"]
)
def test_the_search_finds_the_oil_filter_in_either_language(client, golf, query):  # noqa: F811
    run_prefetch(golf.vehicle_id)

    found = search(client, query)

    oil_filters = [part for part in found["parts"] if part["nameEn"].startswith("Oil filter")]
    assert oil_filters, [part["nameEn"] for part in found["parts"]][:20]
    assert all(
        part["nameTr"].lower().startswith(("yağ filtresi", "ön", "arka", "sol", "sağ", "üst", "alt"))
        for part in oil_filters
    )


def test_the_search_finds_the_oil_filter_by_its_code(client, golf):  # noqa: F811
    run_prefetch(golf.vehicle_id)
    oil_filter = next(part for part in search(client, "oil filter")["parts"] if part["oemCode"] != "N/A")

    found = search(client, oil_filter["oemCode"].replace(" ", ""))

    assert oil_filter["id"] in {part["id"] for part in found["parts"]}
