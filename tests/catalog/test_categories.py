"""A decoded vehicle's catalog: the tree, drilling, leaf detection, parts, references, loadError and prefetch, against
the portal sandbox through the real adapter."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from app.catalog.models import Category, Part
from app.catalog.tasks import prefetch_init
from app.core.i18n import LOCALE_COOKIE
from app.extensions import db, queues, redis_store
from app.sources.sandbox.catalog import VIN_BMW, VIN_CLIO, VIN_GOLF

SITE = {"Origin": "http://localhost"}


def get(client, path: str) -> dict:
    response = client.get(path)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def group_calls(upstreams) -> int:
    return len([call for call in upstreams.portal.calls() if call.path.endswith("/groups")])


def first_leaf(client, vehicle_id: int) -> dict:
    """Walk down the first branch until a leaf; its detail."""
    node = get(client, f"/api/vehicles/{vehicle_id}/categories")["categories"][0]
    while True:
        detail = get(client, f"/api/vehicles/{vehicle_id}/categories/{node['id']}")
        if detail["category"]["leaf"]:
            return detail
        node = detail["children"][0]


def run_prefetch(vehicle_id: int) -> None:
    """Run the prefetch jobs as a worker would, until the queue is empty."""
    prefetch_init(vehicle_id)
    queue = queues.get("prefetch")
    while queue.job_ids:
        job = queue.fetch_job(queue.job_ids[0])
        queue.remove(job)
        job.func(*job.args)


def test_the_roots_come_from_the_portal_once_and_are_stored(client, bmw, upstreams):
    tree = get(client, f"/api/vehicles/{bmw}/categories")
    calls = group_calls(upstreams)

    again = get(client, f"/api/vehicles/{bmw}/categories")

    assert tree == again and tree["loadError"] is False
    assert [root["name"] for root in tree["categories"]][:3] == ["Motor", "Yakıt sistemi", "Egzoz sistemi"]
    assert group_calls(upstreams) == calls == 1


def test_a_group_is_drilled_once_for_its_subgroups(client, bmw, upstreams):
    motor = get(client, f"/api/vehicles/{bmw}/categories")["categories"][0]

    detail = get(client, f"/api/vehicles/{bmw}/categories/{motor['id']}")
    calls = group_calls(upstreams)
    again = get(client, f"/api/vehicles/{bmw}/categories/{motor['id']}")

    assert detail["children"] and detail["parts"] == [] and detail["loadError"] is False
    assert again == detail and group_calls(upstreams) == calls
    children = get(client, f"/api/vehicles/{bmw}/categories/{motor['id']}/children")
    assert [child["id"] for child in children["categories"]] == [child["id"] for child in detail["children"]]


def test_a_leaf_link_is_fetched_as_parts_never_as_child_categories(client, bmw, upstreams):
    leaf = first_leaf(client, bmw)

    assert leaf["parts"] and leaf["children"] == [] and leaf["loadError"] is False
    assert leaf["category"]["illustrationCode"]  # picture-level names carry their {NNN-NNN} code
    assert any("/extern/bmw/vin_items" in call.path for call in upstreams.portal.calls())
    assert db.session.scalar(sa.select(sa.func.count()).where(Category.parent_id == leaf["category"]["id"])) == 0
    part = leaf["parts"][0]
    assert set(part) >= {
        "oemCode", "name", "label", "position", "unavailable", "remark", "quantity", "modelCodes", "reference",
    }  # fmt: skip


@pytest.mark.parametrize(
    ("vin", "vehicle_key"),
    [(VIN_BMW, "bmw-3-f30"), (VIN_GOLF, "vw-golf-7"), (VIN_CLIO, "renault-clio-4")],
    ids=["portal", "catapi", "scrape"],
)
def test_a_leaf_s_parts_carry_their_quantity_from_each_source(client, dealer, decode_vin, upstreams, vin, vehicle_key):
    vehicle_id = decode_vin(vin).get_json()["vehicle"]["id"]

    leaf = first_leaf(client, vehicle_id)

    schema = upstreams.catapi.catalog.vehicle(vehicle_key).schema(leaf["category"]["illustrationCode"])
    expected = {part.oem: part.quantity for part in schema.parts if not part.reference_code}
    rows = [part for part in leaf["parts"] if part["reference"] is None]
    assert rows and {part["oemCode"]: part["quantity"] for part in rows} == expected
    assert any(part["quantity"] and part["quantity"] > 1 for part in rows)
    assert all(part["quantity"] is None for part in leaf["parts"] if part["reference"])
    stored = db.session.scalars(sa.select(Part.quantity).where(Part.category_id == leaf["category"]["id"])).all()
    assert sorted(stored, key=str) == sorted((part["quantity"] for part in leaf["parts"]), key=str)


def test_ancestors_run_from_the_root_to_the_parent(client, bmw, upstreams):
    leaf = first_leaf(client, bmw)

    names = [item["name"] for item in leaf["ancestors"]]

    assert names[0] == "Motor" and len(names) >= 2
    parent = get(client, f"/api/vehicles/{bmw}/categories/{leaf['ancestors'][-1]['id']}")
    assert leaf["category"]["id"] in [child["id"] for child in parent["children"]]


def test_a_failed_drill_is_a_load_error_and_is_tried_again_later(client, bmw, upstreams):
    motor = get(client, f"/api/vehicles/{bmw}/categories")["categories"][0]
    upstreams.portal.faults.error_rate = 1.0

    failed = client.get(f"/api/vehicles/{bmw}/categories/{motor['id']}")

    assert failed.status_code == 200
    assert failed.get_json()["loadError"] is True and failed.get_json()["children"] == []
    upstreams.portal.faults.error_rate = 0.0
    recovered = get(client, f"/api/vehicles/{bmw}/categories/{motor['id']}")
    assert recovered["loadError"] is False and recovered["children"]


def test_a_failed_parts_fetch_is_a_load_error(client, bmw, upstreams):
    motor = get(client, f"/api/vehicles/{bmw}/categories")["categories"][0]
    group = get(client, f"/api/vehicles/{bmw}/categories/{motor['id']}")["children"][0]
    leaf = get(client, f"/api/vehicles/{bmw}/categories/{group['id']}")["children"][0]
    upstreams.portal.faults.error_rate = 1.0

    failed = get(client, f"/api/vehicles/{bmw}/categories/{leaf['id']}")

    assert failed["category"]["leaf"] is True
    assert failed["loadError"] is True and failed["parts"] == []


def test_fetching_a_leaf_again_never_duplicates_its_rows(client, bmw, upstreams):
    """As when a prefetch job is retried after storing some rows, or a page and a job fetch the same leaf."""
    leaf = first_leaf(client, bmw)
    category = db.session.get(Category, leaf["category"]["id"])
    count = db.session.scalar(sa.select(sa.func.count()).where(Part.category_id == category.id))
    category.parts_fetched_at = None
    db.session.execute(sa.delete(Part).where(Part.id == leaf["parts"][0]["id"]))
    db.session.commit()

    again = get(client, f"/api/vehicles/{bmw}/categories/{category.id}")

    assert len(again["parts"]) == count
    assert db.session.scalar(sa.select(sa.func.count()).where(Part.category_id == category.id)) == count


def test_a_detail_asked_again_follows_every_change_of_its_rows(client, bmw, upstreams):
    """A drawing's part views are kept per process by what they were made from (app.catalog.kept_views): never stale."""
    leaf = first_leaf(client, bmw)
    url = f"/api/vehicles/{bmw}/categories/{leaf['category']['id']}"
    assert get(client, url) == get(client, url)
    part = next(part for part in leaf["parts"] if part["reference"] is None)
    fit = {"s": "no", "r": [["mismatch", "aircon", True, "false", False]], "u": []}
    db.session.execute(
        sa.update(Part)
        .where(Part.id == part["id"])
        .values(name_tr="Manifold contası <b>", model_codes=["F30X"], fit_status="no", fit=fit)
    )
    db.session.commit()

    changed = next(row for row in get(client, url)["parts"] if row["id"] == part["id"])

    shown = (changed["name"], changed["modelCodes"], changed["fit"]["status"])
    assert shown == ("Manifold contası <b>", ["F30X"], "no")
    assert [reason["fact"] for reason in changed["fit"]["reasons"]] == ["aircon"]
    client.set_cookie(LOCALE_COOKIE, "en")
    assert next(row for row in get(client, url)["parts"] if row["id"] == part["id"])["fit"] != changed["fit"]


def test_the_prefetch_stores_the_whole_tree_and_running_it_again_adds_nothing(client, bmw, upstreams):
    run_prefetch(bmw)
    categories = db.session.scalar(sa.select(sa.func.count()).where(Category.vehicle_id == bmw))
    parts = db.session.scalar(sa.select(sa.func.count()).where(Part.vehicle_id == bmw))
    leaves_without_parts = db.session.scalar(
        sa.select(sa.func.count()).where(
            Category.vehicle_id == bmw, Category.is_leaf, Category.parts_fetched_at.is_(None)
        )
    )

    db.session.execute(sa.update(Category).values(children_fetched_at=None, parts_fetched_at=None))
    db.session.commit()
    redis_store.client.flushdb()  # the finished jobs' records, which keep a second walk from being queued
    calls_after_first_walk = len(upstreams.portal.calls())
    run_prefetch(bmw)

    assert categories > 20 and parts > 500 and leaves_without_parts == 0
    assert len(upstreams.portal.calls()) > calls_after_first_walk  # the second walk really fetched again
    assert db.session.scalar(sa.select(sa.func.count()).where(Category.vehicle_id == bmw)) == categories
    assert db.session.scalar(sa.select(sa.func.count()).where(Part.vehicle_id == bmw)) == parts
    calls = len(upstreams.portal.calls())
    assert get(client, f"/api/vehicles/{bmw}/categories/{first_leaf(client, bmw)['category']['id']}")["parts"]
    assert len(upstreams.portal.calls()) == calls  # the page reads stored data only


def test_reference_rows_show_their_label_and_point_to_the_stored_illustration(client, bmw, upstreams):
    run_prefetch(bmw)
    reference = db.session.scalars(
        sa.select(Part).where(Part.vehicle_id == bmw, Part.reference_code.is_not(None))
    ).first()
    assert reference is not None, "the sandbox catalog has reference rows"
    target = db.session.scalar(
        sa.select(Category.id).where(Category.vehicle_id == bmw, Category.illustration_code == reference.reference_code)
    )

    detail = get(client, f"/api/vehicles/{bmw}/categories/{reference.category_id}")

    row = next(part for part in detail["parts"] if part["id"] == reference.id)
    assert row["oemCode"] == "N/A"
    assert "tablo" not in row["label"].lower() and row["label"]
    assert row["reference"] == {"code": reference.reference_code, "categoryId": target}


def test_a_category_of_another_vehicle_or_none_is_not_found(client, bmw, decode_vin, upstreams):
    golf = decode_vin(VIN_GOLF).get_json()["vehicle"]["id"]
    motor = get(client, f"/api/vehicles/{bmw}/categories")["categories"][0]

    for path in (f"/api/vehicles/{golf}/categories/{motor['id']}", f"/api/vehicles/{bmw}/categories/999999"):
        response = client.get(path, headers={"Accept-Language": "tr"})
        assert response.status_code == 404
        assert response.get_json()["error"]["code"] == "category_not_found"
    assert client.get("/api/vehicles/999999/categories").status_code == 404


def test_the_catalog_is_bound_to_the_plan_s_brands(client, bmw, create_user, make_subscription, sign_in):
    other = create_user()
    subscription = make_subscription(other, "active", plan_key="single")
    assert "BMW" not in [brand.name for brand in subscription.brands]
    sign_in(other.email)

    response = client.get(f"/api/vehicles/{bmw}/categories")

    assert response.status_code == 403
    assert response.get_json()["error"]["code"] == "brand_not_in_plan"


def test_the_web_catalog_s_groups_hang_under_their_categories_as_leaves(client, dealer, decode_vin, upstreams):
    clio = decode_vin(VIN_CLIO).get_json()["vehicle"]["id"]

    roots = get(client, f"/api/vehicles/{clio}/categories")["categories"]
    group = get(client, f"/api/vehicles/{clio}/categories/{roots[0]['id']}")
    leaf = get(client, f"/api/vehicles/{clio}/categories/{group['children'][0]['id']}")

    assert roots and not any(root["leaf"] for root in roots)
    assert group["children"] and all(child["leaf"] for child in group["children"])
    assert leaf["parts"] and leaf["category"]["illustrationCode"] and leaf["loadError"] is False
    assert [item["id"] for item in leaf["ancestors"]] == [roots[0]["id"]]


def test_a_catalog_api_leaf_brings_its_schema_picture_with_hotspots_into_storage(client, dealer, decode_vin, upstreams):
    golf = decode_vin(VIN_GOLF).get_json()["vehicle"]["id"]
    leaf = first_leaf(client, golf)
    images = len(upstreams.catapi.calls(path_prefix="/images/"))

    schema = leaf["schema"]
    parent = get(client, f"/api/vehicles/{golf}/categories/{leaf['ancestors'][-1]['id']}")
    again = get(client, f"/api/vehicles/{golf}/categories/{leaf['category']['id']}")

    assert schema["imageUrl"].startswith("/storage/schemas/") and (schema["width"], schema["height"]) == (1600, 900)
    assert schema["hotspots"] and all(0 <= spot["x1"] < spot["x2"] <= schema["width"] for spot in schema["hotspots"])
    positions = {part["position"] for part in leaf["parts"] if part["position"]}
    assert positions <= {spot["position"] for spot in schema["hotspots"]}
    thumbnail = next(child["thumbnail"] for child in parent["children"] if child["id"] == leaf["category"]["id"])
    assert thumbnail == schema["imageUrl"]
    assert again["schema"] == schema and len(upstreams.catapi.calls(path_prefix="/images/")) == images == 1
    with client.get(schema["imageUrl"]) as image:
        assert image.status_code == 200 and image.mimetype == "image/png" and image.data.startswith(b"\x89PNG")


def test_teaser_counts_are_the_stored_catalog_s_only_from_the_threshold_up(client, bmw, upstreams, monkeypatch):
    from app.catalog import teaser
    from app.catalog.store import counts
    from app.sources.sandbox.catalog import VIN_BMW

    run_prefetch(bmw)
    categories, parts, pictures = counts(bmw)
    below = get(client, f"/api/vehicles/{VIN_BMW}/teaser-stats")
    monkeypatch.setattr(teaser, "TEASER_PARTS_THRESHOLD", parts)
    at = get(client, f"/api/vehicles/{VIN_BMW}/teaser-stats")

    assert 0 < parts < 1000  # the sandbox BMW is a small catalog
    assert tuple(below.values()) == teaser.placeholder_counts(VIN_BMW)
    assert at == {"categories": categories, "parts": parts, "schemaPictures": pictures}


def sandbox_codes(upstreams) -> list[str]:
    return [schema.code for schema in upstreams.portal.catalog.vehicle("bmw-3-f30").all_schemas()]


def test_a_reference_resolves_from_the_illustration_index(client, bmw, upstreams):
    run_prefetch(bmw)
    code = sandbox_codes(upstreams)[5]
    target = db.session.scalar(
        sa.select(Category.id).where(Category.vehicle_id == bmw, Category.illustration_code == code)
    )
    calls = len(upstreams.portal.calls())

    resolved = get(client, f"/api/vehicles/{bmw}/categories/references/{code}")

    assert resolved == {"code": code, "categoryId": target}
    assert len(upstreams.portal.calls()) == calls


def test_an_unresolved_reference_is_found_by_drilling_its_main_group_with_one_call(client, bmw, upstreams):
    code = sandbox_codes(upstreams)[-1]
    roots = get(client, f"/api/vehicles/{bmw}/categories")["categories"]
    main = next(root for root in roots if root["externalId"] == code[0])
    get(client, f"/api/vehicles/{bmw}/categories/{main['id']}")  # the main group's level is stored
    calls = group_calls(upstreams)

    resolved = get(client, f"/api/vehicles/{bmw}/categories/references/{code}")

    target = db.session.get(Category, resolved["categoryId"])
    assert target.illustration_code == code and target.vehicle_id == bmw
    assert group_calls(upstreams) == calls + 1


def test_a_reference_to_no_illustration_is_not_found_and_a_malformed_one_refused(client, bmw, upstreams):
    missing = client.get(f"/api/vehicles/{bmw}/categories/references/999-999")
    malformed = client.get(f"/api/vehicles/{bmw}/categories/references/abc")

    assert missing.status_code == 404 and missing.get_json()["error"]["code"] == "reference_not_found"
    assert malformed.status_code == 400 and malformed.get_json()["error"]["code"] == "invalid_reference"


def test_the_prefetch_progress_counts_what_is_stored(client, bmw, upstreams):
    empty = get(client, f"/api/vehicles/{bmw}/categories/progress")
    get(client, f"/api/vehicles/{bmw}/categories")
    started = get(client, f"/api/vehicles/{bmw}/categories/progress")
    run_prefetch(bmw)
    done = get(client, f"/api/vehicles/{bmw}/categories/progress")

    assert (empty["percent"], empty["done"]) == (0, False)
    assert started["groups"] == 9 and started["groupsDrilled"] == 0 and started["done"] is False
    assert done["done"] is True and done["percent"] == 100
    assert done["groupsDrilled"] == done["groups"] and done["leavesFetched"] == done["leaves"] > 0
