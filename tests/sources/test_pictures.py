"""Contract tests: the scrape and portal adapters read the schema pictures their sandboxes draw (an image map on the
scrape catalog, a coordinate list on the portal), download them, and refuse what is broken."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from app.sources.pictures import ImageRefusedError, SchemaImage
from app.sources.portal import PortalSettings, PortalSource
from app.sources.sandbox import catalog as sandbox
from app.sources.sandbox.common import PictureFault
from app.sources.sandbox.portal_server import LINK_SHAPES, SANDBOX_PASSWORD, SANDBOX_USERNAME, PortalSandbox
from app.sources.sandbox.scrape_server import ScrapeSandbox
from app.sources.scrape import ScrapeSettings, ScrapeSource

CATALOG = sandbox.sandbox_catalog()
CLIO = CATALOG.vehicle("renault-clio-4")
BMW = CATALOG.vehicle("bmw-3-f30")
CLIO_CODE = "REN-BH"


@pytest.fixture(scope="module")
def sandboxes():
    scrape, portal = ScrapeSandbox().start(), PortalSandbox().start()
    yield scrape, portal
    scrape.stop()
    portal.stop()


@pytest.fixture
def scrape_upstream(sandboxes):
    upstream = sandboxes[0]
    upstream.reset()
    yield upstream
    upstream.reset()


@pytest.fixture
def portal_upstream(sandboxes):
    upstream = sandboxes[1]
    upstream.reset()
    yield upstream
    upstream.reset()


@pytest.fixture
def scrape(scrape_upstream):
    config = {"SCRAPE_BASE_URL": scrape_upstream.url, "SCRAPE_TIMEOUT_MS": 2000, "SCRAPE_BROWSER_FALLBACK": "0"}
    with ScrapeSource(ScrapeSettings.from_config(config)) as adapter:
        yield adapter


@pytest.fixture
def portal(portal_upstream):
    config = {
        "PORTAL_BASE_URL": portal_upstream.url,
        "PORTAL_USERNAME": SANDBOX_USERNAME,
        "PORTAL_PASSWORD": SANDBOX_PASSWORD,
        "PORTAL_TIMEOUT_MS": 2000,
    }
    with PortalSource(PortalSettings.from_config(config)) as adapter:
        yield adapter


def boxes(picture: SchemaImage | None) -> list[tuple[str, int, int, int, int]]:
    assert picture is not None
    return [(spot.position, spot.x1, spot.y1, spot.x2, spot.y2) for spot in picture.hotspots]


def drawn(schema: sandbox.SchemaPicture) -> list[tuple[str, int, int, int, int]]:
    return [(spot.position, spot.x1, spot.y1, spot.x2, spot.y2) for spot in schema.hotspots]


def png_size(data: bytes) -> tuple[int, int]:
    with Image.open(io.BytesIO(data)) as image:
        assert image.format == "PNG"
        return image.size


def bmw_pictures(portal: PortalSource) -> list:
    """The BMW's picture-level nodes, one of each link shape."""
    by_shape = {}
    for main in portal.main_groups("bmw", BMW.car_id):
        for sub in portal.children("bmw", BMW.car_id, main.external_id):
            for node in portal.children("bmw", BMW.car_id, sub.external_id):
                by_shape.setdefault(node.link_path.split("?")[0].rsplit("/", 1)[-1], node)
        if len(by_shape) == len(LINK_SHAPES):
            return list(by_shape.values())
    raise AssertionError(f"link shapes seen: {sorted(by_shape)}")


# --- the scrape catalog's image maps ---------------------------------------------------------------------------------


def test_a_scrape_parts_page_brings_its_picture_with_the_image_map_s_hotspots(scrape):
    schema = next(CLIO.all_schemas())

    sheet = scrape.parts_sheet(CLIO_CODE, schema.code)

    picture = sheet.picture
    assert picture is not None and picture.url.startswith(scrape.settings.base_url)
    assert (picture.width, picture.height) == (schema.width, schema.height)
    assert boxes(picture) == drawn(schema)
    assert {part.position for part in sheet.parts if part.position} <= {spot.position for spot in picture.hotspots}
    assert [part.oem for part in sheet.parts] == [part.oem for part in scrape.parts(CLIO_CODE, schema.code)]
    assert png_size(scrape.image(picture.url)) == (schema.width, schema.height)


def test_malformed_areas_are_skipped_and_overshooting_ones_clipped(scrape, scrape_upstream):
    scrape_upstream.faults.pictures = PictureFault.MALFORMED
    schema = next(CLIO.all_schemas())

    picture = scrape.parts_sheet(CLIO_CODE, schema.code).picture

    # Of the broken areas only a polygon (as its bounding box) and a circle over the corner (clipped) are usable.
    assert boxes(picture) == [*drawn(schema), ("98", 30, 30, 60, 70), ("99", 0, 0, 20, 20)]


@pytest.mark.parametrize("fault", [PictureFault.ABSURD, PictureFault.MISSING])
def test_a_page_without_a_usable_picture_has_none_but_keeps_its_parts(scrape, scrape_upstream, fault):
    scrape_upstream.faults.pictures = fault
    schema = next(CLIO.all_schemas())

    sheet = scrape.parts_sheet(CLIO_CODE, schema.code)

    assert sheet.picture is None
    assert [part.oem for part in sheet.parts] == [part.oem for part in schema.parts]


def test_a_picture_address_that_answers_no_image_is_refused(scrape, scrape_upstream):
    schema = next(CLIO.all_schemas())
    picture = scrape.parts_sheet(CLIO_CODE, schema.code).picture
    assert picture is not None

    scrape_upstream.faults.pictures = PictureFault.NOT_IMAGE
    with pytest.raises(ImageRefusedError):
        scrape.image(picture.url)
    with pytest.raises(ImageRefusedError):
        scrape.image(picture.url.replace(schema.code, "999-999"))  # 404


def test_pictures_pass_the_browser_challenge_as_static_files(scrape, scrape_upstream):
    schema = next(CLIO.all_schemas())
    url = scrape.parts_sheet(CLIO_CODE, schema.code).picture.url

    scrape_upstream.faults.challenge = True

    assert png_size(scrape.image(url)) == (schema.width, schema.height)


# --- the portal's coordinate lists -----------------------------------------------------------------------------------


def test_every_portal_link_shape_brings_the_illustration_with_its_coordinate_list(portal):
    for node in bmw_pictures(portal):
        schema = BMW.schema(node.external_id)

        sheet = portal.parts_sheet(node.link_path, "bmw")

        assert (sheet.picture.width, sheet.picture.height) == (schema.width, schema.height), node.link_path
        assert boxes(sheet.picture) == drawn(schema), node.link_path
        assert {part.position for part in sheet.parts if part.position} <= {spot[0] for spot in drawn(schema)}
        assert png_size(portal.image(sheet.picture.url)) == (schema.width, schema.height)


def test_an_illustration_is_read_in_a_renewed_session(portal, portal_upstream):
    node = bmw_pictures(portal)[0]
    url = portal.parts_sheet(node.link_path, "bmw").picture.url

    portal_upstream.expire_sessions()

    schema = BMW.schema(node.external_id)
    assert png_size(portal.image(url)) == (schema.width, schema.height)
    paths = [call.path for call in portal_upstream.calls()]
    assert paths[-4:] == ["/bmw/illustration", "/login", "/login", "/bmw/illustration"]


def test_malformed_coordinates_are_skipped(portal, portal_upstream):
    portal_upstream.faults.pictures = PictureFault.MALFORMED
    node = bmw_pictures(portal)[0]

    picture = portal.parts_sheet(node.link_path, "bmw").picture

    assert boxes(picture) == drawn(BMW.schema(node.external_id))


def test_an_illustration_that_is_no_image_or_not_there_is_refused(portal, portal_upstream):
    node = bmw_pictures(portal)[0]
    url = portal.parts_sheet(node.link_path, "bmw").picture.url

    with pytest.raises(ImageRefusedError):
        portal.image(url.replace(node.external_id, "999-999"))
    portal_upstream.faults.pictures = PictureFault.NOT_IMAGE
    with pytest.raises(ImageRefusedError):
        portal.image(url)
