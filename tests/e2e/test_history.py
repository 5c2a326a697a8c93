"""Back and forward through HTMX navigation in a real browser: the real pages come back, with no CSP violation."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.test_vehicle_page import open_branch, open_golf

pytestmark = [pytest.mark.e2e, pytest.mark.no_isolation]


def test_back_and_forward_through_the_catalog_show_each_page_without_csp_errors(catalog_server, page):
    url, dealer, _app = catalog_server
    vehicle_url = open_golf(page, url, dealer)
    open_branch(page, "Motor")
    open_branch(page, "Silindir bloğu")
    page.locator("#catalog-tree").get_by_role("link", name=re.compile(r"^Yağ filtresi 103-010$")).click()
    page.wait_for_url(re.compile(re.escape(vehicle_url) + r"/categories/\d+$"))
    leaf_url = page.url
    page.locator("#catalog-q").fill("filtre")
    page.locator("#catalog-q").press("Enter")
    page.wait_for_url(vehicle_url + "?q=filtre")
    main = page.locator("#catalog-main")

    page.go_back()
    page.wait_for_url(leaf_url)
    expect(main.get_by_role("heading", level=2)).to_contain_text("Yağ filtresi", timeout=10_000)
    page.go_back()
    page.wait_for_url(vehicle_url)
    expect(page.locator("#catalog-main-title")).not_to_contain_text("Yağ filtresi", timeout=10_000)
    expect(page.get_by_role("heading", level=1)).to_have_text("Volkswagen Golf")
    page.go_forward()
    page.wait_for_url(leaf_url)
    expect(main.get_by_role("heading", level=2)).to_contain_text("Yağ filtresi", timeout=10_000)
    page.go_forward()
    page.wait_for_url(vehicle_url + "?q=filtre")
    expect(page.locator("#catalog-main-title")).to_have_text("Arama: filtre", timeout=10_000)

    assert page.console_errors == []
    assert page.evaluate("document.querySelectorAll('style, [style]').length") == 0


def test_back_and_forward_through_vin_previews_show_each_vin(catalog_server, page):
    url, dealer, _app = catalog_server
    open_golf(page, url, dealer)
    page.goto(url + "/vin/preview")
    for vin in ("WVWZZZAUZHW100001", "VF1RFB00X56100002"):
        page.locator("#vin-input").fill(vin)
        page.locator("#vin-input").press("Enter")
        page.wait_for_url(f"{url}/vin/preview?vin={vin}")

    page.go_back()
    page.wait_for_url(url + "/vin/preview?vin=WVWZZZAUZHW100001")
    expect(page.locator("#vin-preview")).to_contain_text("Volkswagen", timeout=10_000)
    page.go_forward()
    page.wait_for_url(url + "/vin/preview?vin=VF1RFB00X56100002")
    expect(page.locator("#vin-preview")).to_contain_text("Renault", timeout=10_000)

    assert page.console_errors == []
