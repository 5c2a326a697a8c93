"""A reference row followed in a real browser: the picture it points to was never fetched (no prefetch ran), the link
resolves it through the upstream, and the drawing takes the main area and the address."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.catalog.test_references import cross_reference
from tests.e2e.test_vehicle_page import open_golf

pytestmark = [pytest.mark.e2e, pytest.mark.no_isolation]


def open_picture(page, url: str, vehicle_id: str, path: list[str], code: str) -> int:
    """Walk the tree through the API, as the signed-in browser, down to the picture `code` only; its category id."""
    api = f"{url}/api/vehicles/{vehicle_id}/categories"
    level = page.request.get(api).json()["categories"]
    for _depth in range(4):
        step = next(node for node in level if node["externalId"] in path or node["illustrationCode"] == code)
        if step["illustrationCode"] == code:
            return step["id"]
        level = page.request.get(f"{api}/{step['id']}").json()["children"]
    raise AssertionError(f"picture {code} not reached")


def test_a_reference_row_opens_a_drawing_of_a_group_never_fetched(catalog_server, upstreams, page):
    url, dealer, _app = catalog_server
    vehicle_url = open_golf(page, url, dealer)
    vehicle_id = vehicle_url.rsplit("/", 1)[1]
    path, code, target = cross_reference(upstreams.catapi.catalog.vehicle("vw-golf-7"))
    page.goto(f"{vehicle_url}/categories/{open_picture(page, url, vehicle_id, path, code)}")
    main = page.locator("#catalog-main")
    expect(main.locator("h2 .illustration-code")).to_have_text(code)
    calls = len(upstreams.catapi.calls())

    main.get_by_role("link", name=f"Şemaya bakın: {target}").first.click()

    expect(main.locator("h2 .illustration-code")).to_have_text(target)
    expect(page).to_have_url(re.compile(re.escape(vehicle_url) + r"/categories/\d+$"))
    picture = main.locator("img.schema-image")
    expect(picture).to_be_visible()
    page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=picture.element_handle())
    assert len(upstreams.catapi.calls()) > calls
    # The address is the drawing's own page.
    page.reload()
    expect(main.locator("h2 .illustration-code")).to_have_text(target)
    assert page.console_errors == []
