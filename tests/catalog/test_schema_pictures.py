"""Schema pictures of the HTML sources through the app: a scrape vehicle (the Clio, the second Corolla) and a portal
vehicle (the BMW) show their pictures with hotspots in the category API and on the vehicle page; a broken picture
costs the leaf its picture only, never its parts or the page."""

from __future__ import annotations

import sqlalchemy as sa

from app.catalog.models import Hotspot, SchemaPicture
from app.extensions import db
from app.sources.sandbox.catalog import VIN_CLIO
from app.sources.sandbox.common import PictureFault
from app.sources.sandbox.scrape_server import VIN_SCRAPE_SEVERAL
from tests.catalog.test_categories import first_leaf, get
from tests.catalog.test_pages import main_area, page


def assert_picture_matches_parts(client, leaf: dict) -> None:
    schema = leaf["schema"]
    assert schema is not None and schema["imageUrl"].startswith("/storage/schemas/")
    assert schema["hotspots"]
    for spot in schema["hotspots"]:
        assert 0 <= spot["x1"] < spot["x2"] <= schema["width"] and 0 <= spot["y1"] < spot["y2"] <= schema["height"]
    positions = {part["position"] for part in leaf["parts"] if part["position"]}
    assert positions and positions <= {spot["position"] for spot in schema["hotspots"]}
    with client.get(schema["imageUrl"]) as image:
        assert image.status_code == 200 and image.mimetype == "image/png" and image.data.startswith(b"\x89PNG")


def decoded(decode_vin, vin: str, **pick) -> int:
    response = decode_vin(vin, **pick)
    assert response.status_code == 200, response.get_json()
    return response.get_json()["vehicle"]["id"]


def stored_pictures(category_id: int) -> tuple[int, int]:
    """Schema pictures and hotspots stored for the category."""
    pictures = db.session.scalar(sa.select(sa.func.count()).where(SchemaPicture.category_id == category_id))
    spots = db.session.scalar(
        sa.select(sa.func.count())
        .select_from(Hotspot)
        .join(SchemaPicture)
        .where(SchemaPicture.category_id == category_id)
    )
    return pictures, spots


def test_the_clio_s_leaf_shows_the_scrape_picture_with_its_image_map(client, dealer, decode_vin, upstreams):
    clio = decoded(decode_vin, VIN_CLIO)

    leaf = first_leaf(client, clio)

    expected = upstreams.scrape.catalog.vehicle("renault-clio-4").schema(leaf["category"]["illustrationCode"])
    assert_picture_matches_parts(client, leaf)
    assert (leaf["schema"]["width"], leaf["schema"]["height"]) == (expected.width, expected.height)
    assert [spot["position"] for spot in leaf["schema"]["hotspots"]] == [spot.position for spot in expected.hotspots]
    assert len(upstreams.scrape.calls("/vehicle/REN-BH/group/")) == 2  # the parts page and its picture, once


def test_the_second_corolla_shows_its_scrape_picture(client, dealer, decode_vin, upstreams):
    candidates = decode_vin(VIN_SCRAPE_SEVERAL).get_json()["candidates"]
    assert len(candidates) == 2
    corolla = decoded(decode_vin, VIN_SCRAPE_SEVERAL, scrapeCarIndex=1)

    assert_picture_matches_parts(client, first_leaf(client, corolla))


def test_the_bmw_s_leaf_shows_the_portal_illustration_on_the_vehicle_page(client, bmw, upstreams):
    leaf = first_leaf(client, bmw)
    schema = leaf["schema"]

    main = main_area(page(client, f"/vehicles/{bmw}/categories/{leaf['category']['id']}"))

    assert_picture_matches_parts(client, leaf)
    assert schema["imageUrl"] in main
    for spot in schema["hotspots"]:
        assert f'x="{spot["x1"]}" y="{spot["y1"]}" width="{spot["x2"] - spot["x1"]}"' in main


def test_a_malformed_image_map_keeps_only_its_usable_hotspots(client, dealer, decode_vin, upstreams):
    upstreams.scrape.faults.pictures = PictureFault.MALFORMED
    clio = decoded(decode_vin, VIN_CLIO)

    leaf = first_leaf(client, clio)

    expected = upstreams.scrape.catalog.vehicle("renault-clio-4").schema(leaf["category"]["illustrationCode"])
    positions = [spot["position"] for spot in leaf["schema"]["hotspots"]]
    assert positions == [spot.position for spot in expected.hotspots] + ["98", "99"]
    assert stored_pictures(leaf["category"]["id"]) == (1, len(positions))
    page(client, f"/vehicles/{clio}/categories/{leaf['category']['id']}")


def test_a_picture_of_absurd_size_is_refused_and_the_leaf_keeps_its_parts(client, dealer, decode_vin, upstreams):
    upstreams.scrape.faults.pictures = PictureFault.ABSURD
    clio = decoded(decode_vin, VIN_CLIO)

    leaf = first_leaf(client, clio)

    assert leaf["schema"] is None and leaf["parts"] and leaf["loadError"] is False
    assert not any(call.path.endswith(".png") for call in upstreams.scrape.calls("/vehicle/"))
    assert stored_pictures(leaf["category"]["id"]) == (0, 0)


def test_an_illustration_that_is_no_image_leaves_the_leaf_without_a_picture_once(client, bmw, upstreams):
    upstreams.portal.faults.pictures = PictureFault.NOT_IMAGE

    leaf = first_leaf(client, bmw)
    calls = len(upstreams.portal.calls())
    upstreams.portal.reset()
    again = get(client, f"/api/vehicles/{bmw}/categories/{leaf['category']['id']}")

    assert leaf["schema"] is None and leaf["parts"] and leaf["loadError"] is False
    assert stored_pictures(leaf["category"]["id"]) == (0, 0)
    assert again == leaf and calls and upstreams.portal.calls() == []  # stored without a picture, not tried again
    page(client, f"/vehicles/{bmw}/categories/{leaf['category']['id']}")
