"""The counter clerk's view of a drawing: on a wide screen the picture sits beside the parts and stays in view while
the list scrolls; on a phone the parts are cards and nothing scrolls sideways."""

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.test_vehicle_page import open_branch, open_golf

pytestmark = [pytest.mark.e2e, pytest.mark.no_isolation]

DESKTOP = {"width": 1366, "height": 768}
PHONES = ({"width": 390, "height": 844}, {"width": 360, "height": 740})


DRAWER_MAX_WIDTH = 832  # app.css: the tree is a drawer up to 52rem


def open_oil_filter(page, url: str, dealer) -> None:
    vehicle_url = open_golf(page, url, dealer)
    if page.viewport_size["width"] <= DRAWER_MAX_WIDTH:  # a phone: the tree is a drawer (not judged by the button's
        page.locator("[data-drawer-open]").click()  # visibility: before the stylesheet applies, it shows everywhere)
    open_branch(page, "Motor")
    open_branch(page, "Silindir bloğu")
    page.locator("#catalog-tree").get_by_role("link", name=re.compile(r"^Yağ filtresi 103-010$")).click()
    page.wait_for_url(re.compile(re.escape(vehicle_url) + r"/categories/\d+$"))
    picture = page.locator("img.schema-image")
    expect(picture).to_be_visible()
    page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=picture.element_handle())


def box(page, selector: str) -> dict:
    return page.locator(selector).first.bounding_box()


def test_on_a_desktop_the_picture_stays_beside_the_parts_to_the_end_of_the_list(catalog_server, page):
    url, dealer, _app = catalog_server
    page.set_viewport_size(DESKTOP)
    open_oil_filter(page, url, dealer)

    picture, table = box(page, ".schema-frame"), box(page, ".parts-table")
    assert picture["x"] + picture["width"] <= table["x"]  # side by side, picture first
    assert abs(picture["y"] - box(page, ".leaf-parts")["y"]) < 60  # the table's column: links, fit question, table

    page.locator(".not-fitting-toggle").click()  # the rows that do not fit the vehicle too: the list at its longest
    last_row = page.locator(".part-row").last
    last_row.scroll_into_view_if_needed()
    expect(last_row).to_be_in_viewport()
    expect(page.locator(".schema-frame")).to_be_in_viewport(ratio=0.9)

    # A row at the end of the list still lights a hotspot the clerk can see.
    position = last_row.get_attribute("data-position")
    last_row.hover()
    spot = page.locator(f'.hotspot[data-position="{position}"]')
    expect(spot).to_have_class(re.compile(r"\bis-hinted\b"))
    expect(spot).to_be_in_viewport()
    assert page.console_errors == []


@pytest.mark.parametrize("viewport", PHONES, ids=lambda size: f"{size['width']}px")
def test_on_a_phone_the_parts_are_cards_and_nothing_scrolls_sideways(catalog_server, page, viewport):
    url, dealer, _app = catalog_server
    page.set_viewport_size(viewport)
    open_oil_filter(page, url, dealer)

    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    picture, first_row = box(page, ".schema-frame"), box(page, ".part-row")
    assert picture["y"] < first_row["y"]  # the picture first
    row = page.locator(".part-row").first
    code, name = box(page, ".part-row .part-oem"), box(page, ".part-row .part-name")
    assert name["y"] >= code["y"] + code["height"] - 1  # the name under the code, as a card
    assert row.bounding_box()["x"] + row.bounding_box()["width"] <= viewport["width"]
    copy = row.locator("button[data-copy]")
    assert copy.bounding_box()["height"] >= 24  # a thumb can hit it
    assert page.console_errors == []
