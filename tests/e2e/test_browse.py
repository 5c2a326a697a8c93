"""Browsing without a VIN in a real browser: from /browse to a Clio drawing with its parts in under ten clicks, and
from the message of a VIN no catalog covers into the browse page of its make."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from app.sources.sandbox.catalog import VIN_HONDA
from tests.e2e.test_leaf_layout import DESKTOP
from tests.e2e.test_vin_search import sign_in

pytestmark = [pytest.mark.e2e, pytest.mark.no_isolation]


def test_from_the_makes_to_a_clio_drawing_with_its_parts_in_under_ten_clicks(catalog_server, page):
    url, dealer, _app = catalog_server
    page.set_viewport_size(DESKTOP)
    sign_in(page, url, dealer)
    page.goto(url + "/browse")
    clicks = 0

    def click(locator) -> None:
        nonlocal clicks
        clicks += 1
        locator.click()

    page.get_by_label("Markalarda ara").fill("ren")  # typing is not a click: the list narrows to Renault
    expect(page.locator("#browse-makes li:not([hidden])")).to_have_count(1)
    click(page.locator("#browse-makes").get_by_role("link", name="Renault"))
    click(page.get_by_role("link", name="Clio"))
    expect(page.locator(".browse-cars tbody tr").first).to_be_visible()
    click(page.get_by_role("button", name=re.compile(r"^Clio IV 1\.5 dCi parçalarını aç$")))
    page.wait_for_url(re.compile(r"/vehicles/\d+$"))
    expect(page.locator("h1")).to_contain_text("Renault Clio")
    tree = page.locator("#catalog-tree")
    toggles = tree.get_by_role("button", name=re.compile(r"alt grupları$"))
    motor = tree.get_by_role("button", name="Motor alt grupları")
    click(motor)
    expect(motor).to_have_attribute("aria-expanded", "true")
    click(toggles.nth(1))  # Motor's first subgroup
    expect(toggles.nth(1)).to_have_attribute("aria-expanded", "true")
    click(tree.locator("a.tree-link").filter(has_text=re.compile(r"\d{3}-\d{3}")).first)  # its first drawing

    main = page.locator("#catalog-main")
    expect(main.locator(".part-row").first).to_be_visible()
    expect(main.locator("img.schema-image")).to_be_visible()
    assert main.locator(".oem-code").count() > 0
    assert clicks < 10
    assert page.console_errors == []


def test_a_vin_no_catalog_covers_leads_into_browsing_its_make(catalog_server, page):
    url, dealer, _app = catalog_server
    page.set_viewport_size(DESKTOP)
    sign_in(page, url, dealer)
    page.goto(url + "/vin")
    page.get_by_label("Şasi numarası (VIN)").fill(VIN_HONDA)
    page.get_by_role("button", name="Aracı bul").click()

    page.get_by_role("link", name="Honda modellerine göz atın").click()

    page.wait_for_url(re.compile(r"/browse\?make=honda&year=2003$"))
    expect(page.get_by_label("Markalarda ara")).to_have_value("honda")


NARROW_PHONE = {"width": 360, "height": 740}


def test_every_browse_step_fits_a_phone_without_sideways_scrolling(catalog_server, page):
    url, dealer, _app = catalog_server
    page.set_viewport_size(NARROW_PHONE)
    sign_in(page, url, dealer)
    page.goto(url + "/browse")
    expect(page.locator("#browse-makes li").first).to_be_visible()
    steps = [("makes", page.url)]
    page.locator("#browse-makes").get_by_role("link", name="Volkswagen").first.click()
    page.get_by_role("link", name="Golf").first.click()
    expect(page.locator(".browse-cars tbody tr").first).to_be_visible()
    steps.append(("catalog API cars", page.url))
    page.goto(url + "/browse")
    page.locator("#browse-makes").get_by_role("link", name="Renault").click()
    page.get_by_role("link", name="Clio").click()
    expect(page.locator(".browse-cars tbody tr").first).to_be_visible()
    steps.append(("web catalog variants", page.url))

    for name, at in steps:
        page.goto(at)
        page.wait_for_load_state("networkidle")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= NARROW_PHONE["width"], f"{name} ({at}) is {width} px wide"
        open_button = page.locator(".browse-cars button").first
        if name != "makes":
            box = open_button.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= NARROW_PHONE["width"], name
            assert box["height"] >= 24, name
    assert page.console_errors == []
