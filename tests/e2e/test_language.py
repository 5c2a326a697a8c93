"""The language switch in a real browser: the Golf's tree and parts read in Turkish by default (though the browser
asks for English), switch to English in the header and back, and the choice stays with the dealer's account."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.test_leaf_layout import DESKTOP
from tests.e2e.test_vehicle_page import open_branch, open_golf
from tests.e2e.test_vin_search import sign_in

pytestmark = [pytest.mark.e2e, pytest.mark.no_isolation]


def test_switching_the_language_changes_the_tree_and_the_parts(catalog_server, page):
    url, dealer, _app = catalog_server
    browser = page.context.browser
    context = browser.new_context(locale="en-US", viewport=DESKTOP)  # an English browser, as dealers' often are
    page = context.new_page()  # the English browser's tab from here on
    vehicle_url = open_golf(page, url, dealer)
    tree, main = page.locator("#catalog-tree"), page.locator("#catalog-main")

    open_branch(page, "Motor")
    open_branch(page, "Silindir bloğu")
    tree.get_by_role("link", name=re.compile(r"^Yağ filtresi 103-010$")).click()
    page.wait_for_url(re.compile(re.escape(vehicle_url) + r"/categories/\d+$"))
    expect(main.locator(".part-name").first).to_be_visible()
    turkish_names = main.locator(".part-name").all_inner_texts()
    assert any("filtresi" in name for name in turkish_names)

    page.locator(".language-switch").get_by_role("button", name="EN").click()

    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(tree.get_by_role("link", name="Engine", exact=True)).to_be_visible()
    expect(tree.locator('.tree-link[aria-current="page"]')).to_contain_text("Oil filter")
    english_names = main.locator(".part-name").all_inner_texts()
    assert any("Oil filter" in name for name in english_names) and english_names != turkish_names

    # The choice is the account's: a fresh browser session of the same dealer opens in English.
    other = browser.new_context(locale="tr-TR", viewport=DESKTOP)
    fresh = other.new_page()
    sign_in(fresh, url, dealer)
    fresh.goto(vehicle_url)
    expect(fresh.locator("#catalog-tree").get_by_role("link", name="Engine", exact=True)).to_be_visible()

    page.locator(".language-switch").get_by_role("button", name="TR").click()
    expect(page.locator("html")).to_have_attribute("lang", "tr")
    expect(tree.get_by_role("link", name="Motor", exact=True)).to_be_visible()
    other.close()
    context.close()
