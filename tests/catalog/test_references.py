"""Reference rows ("bk. tablo: 109-010") followed on the vehicle page: the row links to the page that resolves its
code, which fetches the referenced picture from the upstream through the vehicle's own adapter when its group was not
stored yet (not prefetched), for each source's way of numbering its tree; a code the catalog lacks opens the search."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from bs4 import BeautifulSoup

from app.catalog.models import Category
from app.extensions import db
from app.sources.sandbox.catalog import VIN_BMW, VIN_CLIO, VIN_GOLF
from tests.catalog.test_categories import get

SOURCES = pytest.mark.parametrize(
    ("vin", "vehicle_key", "sandbox"),
    [(VIN_BMW, "bmw-3-f30", "portal"), (VIN_GOLF, "vw-golf-7", "catapi"), (VIN_CLIO, "renault-clio-4", "scrape")],
    ids=["portal", "catapi", "scrape"],
)


def cross_reference(catalog_vehicle) -> tuple[list[str], str, str]:
    """A picture with a reference row into another main group: the external ids that lead to the picture (the portal's
    and the catalog API's numbered groups, the web catalog's named ones), its code and the code referred to."""
    groups = [(main, sub) for main in catalog_vehicle.categories for sub in main.children]
    holders = {schema.code: (main, sub) for main, sub in groups for schema in sub.schemas}
    for code, (main, sub) in holders.items():
        for part in catalog_vehicle.schema(code).parts:
            target = part.reference_code
            if target and holders[target][0].id != main.id:
                return [main.id, sub.id, f"category-{sub.name_en}"], code, target
    raise AssertionError("the sandbox vehicle has no reference into another main group")


def open_picture(client, vehicle_id: int, path: list[str], code: str) -> int:
    """Walk the tree through the API down to the picture `code` only; its category id."""
    level = get(client, f"/api/vehicles/{vehicle_id}/categories")["categories"]
    for _depth in range(4):
        step = next(node for node in level if node["externalId"] in path or node["illustrationCode"] == code)
        if step["illustrationCode"] == code:
            return step["id"]
        level = get(client, f"/api/vehicles/{vehicle_id}/categories/{step['id']}")["children"]
    raise AssertionError(f"picture {code} not reached")


def stored_picture(vehicle_id: int, code: str) -> int | None:
    return db.session.scalar(
        sa.select(Category.id).where(Category.vehicle_id == vehicle_id, Category.illustration_code == code)
    )


def upstream_calls(upstreams, sandbox: str) -> int:
    return len(getattr(upstreams, sandbox).calls())


@SOURCES
def test_a_reference_into_a_group_not_stored_yet_leads_to_its_drawing(
    client, dealer, decode_vin, upstreams, vin, vehicle_key, sandbox
):
    vehicle_id = decode_vin(vin).get_json()["vehicle"]["id"]
    path, code, target = cross_reference(getattr(upstreams, sandbox).catalog.vehicle(vehicle_key))
    leaf = open_picture(client, vehicle_id, path, code)
    html = client.get(f"/vehicles/{vehicle_id}/categories/{leaf}").get_data(as_text=True)
    link = next(
        anchor
        for anchor in BeautifulSoup(html, "html.parser").select("tr.is-reference a.reference-link")
        if target in anchor.get_text()
    )
    assert stored_picture(vehicle_id, target) is None  # the referenced group was never fetched
    calls = upstream_calls(upstreams, sandbox)

    followed = client.get(link["href"])
    drawing = client.get(followed.headers["Location"])

    target_id = stored_picture(vehicle_id, target)
    assert link.get_text(strip=True) == f"Şemaya bakın: {target}" and link["hx-get"] == link["href"]
    assert followed.status_code == 303
    assert followed.headers["Location"] == f"/vehicles/{vehicle_id}/categories/{target_id}"
    assert upstream_calls(upstreams, sandbox) > calls  # fetched through the source's adapter
    main = BeautifulSoup(drawing.get_data(as_text=True), "html.parser").select_one("#catalog-main")
    assert drawing.status_code == 200
    assert main.select_one("h2 .illustration-code").get_text(strip=True) == target
    assert main.select_one("img.schema-image")["src"].startswith("/storage/schemas/")
    assert main.select("tr.part-row")


def test_a_numbered_catalog_drills_only_the_code_s_branch(client, bmw, upstreams):
    vehicle = upstreams.portal.catalog.vehicle("bmw-3-f30")
    code = list(vehicle.all_schemas())[-1].code
    main = next(group for group in vehicle.categories if group.id == code[0])
    sub = next(group for group in main.children if group.id == code[:3])
    get(client, f"/api/vehicles/{bmw}/categories")
    calls = len(upstreams.portal.calls())

    response = client.get(f"/vehicles/{bmw}/references/{code}")

    stored = db.session.scalar(sa.select(sa.func.count()).where(Category.vehicle_id == bmw))
    assert response.status_code == 303 and response.headers["Location"].endswith(f"/{stored_picture(bmw, code)}")
    # The main group and its subgroup: one call each, and nothing else of the tree is stored.
    assert len(upstreams.portal.calls()) == calls + 2
    assert stored == len(vehicle.categories) + len(main.children) + len(sub.schemas)


def test_a_named_catalog_is_searched_level_by_level_from_one_listing(client, dealer, decode_vin, upstreams):
    clio = decode_vin(VIN_CLIO).get_json()["vehicle"]["id"]
    code = list(upstreams.scrape.catalog.vehicle("renault-clio-4").all_schemas())[-1].code
    get(client, f"/api/vehicles/{clio}/categories")
    calls = len(upstreams.scrape.calls())

    resolved = get(client, f"/api/vehicles/{clio}/categories/references/{code}")

    assert resolved == {"code": code, "categoryId": stored_picture(clio, code)}
    assert len(upstreams.scrape.calls()) == calls + 1  # the web catalog lists every group on one page


def test_a_code_the_catalog_lacks_opens_its_search_and_a_malformed_one_is_refused(client, bmw, upstreams):
    missing = client.get(f"/vehicles/{bmw}/references/999-999")
    malformed = client.get(f"/vehicles/{bmw}/references/abc")

    assert missing.status_code == 303 and missing.headers["Location"] == f"/vehicles/{bmw}?q=999-999"
    assert malformed.status_code == 400
    assert "109-010" in BeautifulSoup(malformed.get_data(as_text=True), "html.parser").select_one("#catalog-main").text


def test_a_dealer_without_the_brand_in_the_plan_resolves_nothing(client, bmw, upstreams, create_user, sign_in):
    code = list(upstreams.portal.catalog.vehicle("bmw-3-f30").all_schemas())[0].code
    sign_in(create_user().email)
    calls = len(upstreams.portal.calls())

    response = client.get(f"/vehicles/{bmw}/references/{code}")

    assert response.status_code == 403 and len(upstreams.portal.calls()) == calls
    assert stored_picture(bmw, code) is None
