"""Search inside a decoded vehicle's stored catalog: Turkish folding, every word, OEM codes, the categories united
with the leaves that hold hits, treeIncomplete, access, and no upstream call."""

from __future__ import annotations

from urllib.parse import urlencode

import sqlalchemy as sa

from app.catalog.models import Category, Part
from app.core.text import fold, fold_code
from app.extensions import db
from tests.catalog.test_categories import first_leaf, get, run_prefetch


def search(client, vehicle_id: int, q: str) -> dict:
    return get(client, f"/api/categories/search/{vehicle_id}?{_query(q)}")


def _query(q: str) -> str:
    return urlencode({"q": q})


def part_ids(result: dict) -> set[int]:
    return {part["id"] for part in result["parts"]}


def stored_parts(vehicle_id: int) -> list[Part]:
    return list(db.session.scalars(sa.select(Part).where(Part.vehicle_id == vehicle_id)))


def add_part(category_id: int, name: str, oem_code: str = "61 31 9 999 001") -> Part:
    """A row the sandbox never has, added the way an ORM writer would."""
    category = db.session.get(Category, category_id)
    part = Part(vehicle_id=category.vehicle_id, category_id=category_id, oem_code=oem_code, name=name, label=name)
    db.session.add(part)
    db.session.commit()
    return part


def test_folding_follows_turkish_case_rules():
    assert fold("FİLTRE") == fold("filtre") == fold("Filtre") == "filtre"
    assert fold("IŞIK") == fold("ışık") == fold("Işık") == fold("isik")
    assert fold("İç aksesuarlar") == "ic aksesuarlar"  # no stray combining dot from Python's own lower()
    assert fold_code("34 11-6.860 242") == fold_code("3411686 0242") == "34116860242"


def test_filtre_finds_the_same_parts_in_any_case(client, bmw, upstreams):
    run_prefetch(bmw)

    results = [search(client, bmw, q) for q in ("FİLTRE", "filtre", "Filtre")]

    assert results[0]["parts"], "the sandbox has filters"
    assert part_ids(results[0]) == part_ids(results[1]) == part_ids(results[2])
    assert results[0]["partCount"] == results[1]["partCount"] == results[2]["partCount"]
    expected = {part.id for part in stored_parts(bmw) if "filtre" in part.name.lower()}
    assert part_ids(results[0]) == expected
    assert all("filtre" in part["name"].lower() for part in results[0]["parts"])


def test_dotted_and_dotless_i_fold_the_turkish_way(client, bmw, upstreams):
    run_prefetch(bmw)
    leaf = db.session.scalar(sa.select(Category.id).where(Category.vehicle_id == bmw, Category.is_leaf))
    upper = add_part(leaf, "IŞIK ANAHTARI")
    lower = add_part(leaf, "Tavan ışık lambası", "61 31 9 999 002")
    first_aid = {part.id for part in stored_parts(bmw) if part.name.startswith("İlk yardım")}

    for q in ("IŞIK", "ışık", "Işık"):
        assert part_ids(search(client, bmw, q)) == {upper.id, lower.id}, q
    assert first_aid, "the sandbox names some parts with a capital İ"
    for q in ("İLK YARDIM", "ilk yardım", "İlk Yardım"):
        assert part_ids(search(client, bmw, q)) == first_aid, q


def test_a_renamed_part_is_found_by_its_new_name(client, bmw, upstreams):
    leaf = first_leaf(client, bmw)
    part = db.session.get(Part, leaf["parts"][0]["id"])

    part.name = "KIZAK İTİCİ"
    db.session.commit()

    assert part_ids(search(client, bmw, "kızak itici")) == {part.id}


def test_every_word_must_be_in_the_name_in_any_order(client, bmw, upstreams):
    run_prefetch(bmw)

    both = search(client, bmw, "fren  ön")
    reversed_words = search(client, bmw, "ÖN fren")
    brakes = search(client, bmw, "fren")

    expected = {part.id for part in stored_parts(bmw) if "fren" in fold(part.name) and "on" in fold(part.name)}
    assert expected and not both["truncated"]
    assert part_ids(both) == part_ids(reversed_words) == expected
    assert both["partCount"] == len(expected) < brakes["partCount"]


def test_an_oem_code_is_found_with_or_without_its_separators(client, bmw, upstreams):
    leaf = first_leaf(client, bmw)
    part = next(item for item in leaf["parts"] if item["oemCode"] != "N/A")
    code = part["oemCode"]  # BMW style: 34 11 6 860 242
    bare = code.replace(" ", "")

    for q in (code, bare, f"{bare[:2]}-{bare[2:6]}.{bare[6:]}", bare[-7:]):
        found = search(client, bmw, q)
        assert part["id"] in part_ids(found), q
        assert all(fold_code(item["oemCode"]).find(fold_code(q)) >= 0 for item in found["parts"]), q


def test_a_short_or_digitless_query_is_not_read_as_a_code(client, bmw, upstreams):
    leaf = first_leaf(client, bmw)["category"]["id"]
    letters = add_part(leaf, "Özel parça", "KIT-ABC")
    short = add_part(leaf, "Özel somun", "AB-9")

    assert letters.id not in part_ids(search(client, bmw, "kit"))
    assert short.id not in part_ids(search(client, bmw, "b9"))  # two characters would match far too many codes
    assert short.id in part_ids(search(client, bmw, "ab 9"))


def test_categories_unite_name_matches_with_the_leaves_holding_hits(client, bmw, upstreams):
    run_prefetch(bmw)

    result = search(client, bmw, "yağ")

    by_id = {category["id"]: category for category in result["categories"]}
    named = {
        category.id
        for category in db.session.scalars(sa.select(Category).where(Category.vehicle_id == bmw))
        if "yag" in fold(category.name)
    }
    holders: dict[int, int] = {}
    for part in stored_parts(bmw):
        if "yag" in fold(part.name):
            holders[part.category_id] = holders.get(part.category_id, 0) + 1
    assert named and holders
    assert set(by_id) == named | set(holders)
    for category_id, category in by_id.items():
        assert category["hits"] == holders.get(category_id, 0)
        assert category["nameMatch"] is (category_id in named)
    assert sum(category["hits"] for category in result["categories"]) == result["partCount"]
    assert [category["nameMatch"] for category in result["categories"]] == sorted(
        (category["nameMatch"] for category in result["categories"]), reverse=True
    )


def test_breadcrumbs_run_from_the_root(client, bmw, upstreams):
    run_prefetch(bmw)

    result = search(client, bmw, "yağ filtresi")

    part = result["parts"][0]
    detail = get(client, f"/api/vehicles/{bmw}/categories/{part['leaf']['id']}")
    assert part["breadcrumb"] == [*detail["ancestors"], part["leaf"]]
    assert part["leaf"]["id"] == detail["category"]["id"] and part["leaf"]["name"] == detail["category"]["name"]
    assert db.session.get(Category, part["breadcrumb"][0]["id"]).parent_id is None
    leaf = next(category for category in result["categories"] if category["id"] == part["leaf"]["id"])
    assert leaf["ancestors"] == detail["ancestors"] and leaf["leaf"] is True


def test_an_illustration_code_finds_its_category(client, bmw, upstreams):
    """What the client searches for when a reference cannot be resolved (spec, catalog rule 5)."""
    leaf = first_leaf(client, bmw)
    code = leaf["category"]["illustrationCode"]

    result = search(client, bmw, code)

    assert leaf["category"]["id"] in {category["id"] for category in result["categories"] if category["nameMatch"]}


def test_tree_incomplete_until_the_whole_tree_is_stored(client, bmw, upstreams):
    nothing = search(client, bmw, "filtre")
    first_leaf(client, bmw)
    some = search(client, bmw, "filtre")
    run_prefetch(bmw)
    everything = search(client, bmw, "filtre")

    assert nothing["treeIncomplete"] is True and nothing["parts"] == [] and nothing["categories"] == []
    assert some["treeIncomplete"] is True
    assert everything["treeIncomplete"] is False
    assert len(everything["parts"]) >= len(some["parts"])


def test_the_search_reads_stored_data_only(client, bmw, upstreams):
    first_leaf(client, bmw)  # part of the tree stored, the rest still upstream
    calls = len(upstreams.portal.calls())

    search(client, bmw, "filtre")
    search(client, bmw, "34 11")

    assert len(upstreams.portal.calls()) == calls


def test_many_hits_are_cut_and_say_so(client, bmw, upstreams):
    run_prefetch(bmw)

    result = search(client, bmw, "a")

    assert len(result["parts"]) == 200 and result["partCount"] > 200 and result["truncated"] is True
    assert search(client, bmw, "yağ filtresi")["truncated"] is False


def test_like_wildcards_in_the_query_are_literal(client, bmw, upstreams):
    run_prefetch(bmw)

    for q in ("%", "_", "\u0307"):  # the last folds to nothing: it must not match everything either
        found = search(client, bmw, q)
        assert found["parts"] == [] and found["categories"] == [], q


def test_an_empty_or_overlong_query_is_refused_in_turkish(client, bmw):
    for q in ("", "   ", "x" * 101):
        response = client.get(f"/api/categories/search/{bmw}?{_query(q)}", headers={"Accept-Language": "tr"})
        assert response.status_code == 400, q
        assert response.get_json()["error"]["code"] == "invalid_query"
    empty = client.get(f"/api/categories/search/{bmw}", headers={"Accept-Language": "tr"}).get_json()
    assert empty["error"]["message"] == "Aramak için bir şey yazın."
    assert client.get(f"/api/categories/search/{bmw}?{_query('x' * 100)}").status_code == 200


def test_an_unknown_vehicle_is_not_found(client, dealer):
    response = client.get("/api/categories/search/999999?q=filtre")

    assert response.status_code == 404 and response.get_json()["error"]["code"] == "vehicle_not_found"


def test_the_search_is_bound_to_the_plan_s_brands(client, bmw, create_user, make_subscription, sign_in):
    other = create_user()
    make_subscription(other, "active", plan_key="single")
    sign_in(other.email)

    response = client.get(f"/api/categories/search/{bmw}?q=filtre")

    assert response.status_code == 403 and response.get_json()["error"]["code"] == "brand_not_in_plan"


def test_the_search_needs_a_session(client):
    assert client.get("/api/categories/search/1?q=filtre").status_code == 401
