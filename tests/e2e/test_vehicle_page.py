"""The vehicle page in a real browser: open the tree down to a leaf, see its schema picture, click a hotspot to select
its part rows, point at a row to light its hotspot, copy an OEM code, and come back to the same place on refresh."""

from __future__ import annotations

import re
import time

import pytest
import sqlalchemy as sa
from playwright.sync_api import expect

from app.catalog.models import OemCopy
from app.extensions import db
from app.sources.sandbox.catalog import VIN_GOLF
from tests.e2e.test_vin_search import sign_in

pytestmark = [pytest.mark.e2e, pytest.mark.no_isolation]


def copies_of(app, dealer) -> list[str]:
    with app.app_context():
        codes = list(db.session.scalars(sa.select(OemCopy.oem_code).where(OemCopy.user_id == dealer.id)))
        db.session.remove()
    return codes


def open_branch(page, name: str) -> None:
    toggle = page.get_by_role("button", name=f"{name} alt grupları")
    toggle.click()
    expect(toggle).to_have_attribute("aria-expanded", "true")


def open_golf(page, url: str, dealer) -> str:
    """Sign in, find the Golf by its VIN and land on its page; the page's address."""
    sign_in(page, url, dealer)
    page.goto(url + "/vin")
    page.get_by_label("Şasi numarası (VIN)").fill(VIN_GOLF)
    page.get_by_role("button", name="Aracı bul").click()
    # The decode page polls, then moves on by itself: a poll's navigation may be cut short by that move, which
    # wait_for_url reports as an error; the address is what counts.
    expect(page).to_have_url(re.compile(re.escape(url) + r"/vehicles/\d+$"), timeout=15_000)
    # The address changes before the page has run its scripts: until htmx has bound the tree's toggles (on
    # DOMContentLoaded), a key pressed on one does nothing.
    page.wait_for_load_state("load")
    return page.url


def test_a_dealer_walks_the_tree_to_a_picture_and_links_hotspots_and_rows(catalog_server, page):
    url, dealer, app = catalog_server
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=url)
    vehicle_url = open_golf(page, url, dealer)

    tree = page.locator("#catalog-tree")
    expect(tree.get_by_role("link", name="Motor", exact=True)).to_be_visible()
    open_branch(page, "Motor")
    open_branch(page, "Silindir bloğu")
    leaf = tree.get_by_role("link", name=re.compile(r"^Yağ filtresi 103-010$"))
    leaf.click()

    page.wait_for_url(re.compile(re.escape(vehicle_url) + r"/categories/\d+$"))
    main = page.locator("#catalog-main")
    expect(main.get_by_role("navigation")).to_contain_text("Motor")
    expect(main.get_by_role("heading", level=2)).to_contain_text("Yağ filtresi")
    expect(leaf).to_have_attribute("aria-current", "page")
    picture = main.locator("img.schema-image")
    expect(picture).to_be_visible()
    page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=picture.element_handle())

    # A hotspot selects the rows at its position (and shows the first one).
    spot = main.locator(".hotspot").nth(4)
    position = spot.get_attribute("data-position")
    spot.click()
    rows = main.locator(f'.part-row[data-position="{position}"]')
    expect(rows.first).to_have_class(re.compile(r"\bis-selected\b"))
    expect(rows.first).to_be_focused()
    expect(rows.first).to_be_in_viewport()
    assert main.locator(".part-row.is-selected").count() == rows.count()
    expect(spot).to_have_class(re.compile(r"\bis-selected\b"))

    # Pointing at a row of another position lights that position's hotspot.
    other = main.locator(f'.part-row[data-position]:not([data-position="{position}"])').first
    other_position = other.get_attribute("data-position")
    other.hover()
    expect(main.locator(f'.hotspot[data-position="{other_position}"]')).to_have_class(re.compile(r"\bis-hinted\b"))
    expect(spot).not_to_have_class(re.compile(r"\bis-hinted\b"))

    # Copying an OEM code puts it on the clipboard and in the copy log.
    code = other.locator(".oem-code").inner_text()
    other.get_by_role("button", name=f"Kopyala: OEM numarası {code}").click()
    expect(other.locator(".copy-button")).to_have_text("Kopyalandı")
    assert page.evaluate("navigator.clipboard.readText()") == code
    deadline = time.monotonic() + 5
    while not copies_of(app, dealer) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert copies_of(app, dealer) == [code]

    # The address is a real page: a refresh shows the same leaf with the tree opened down to it.
    page.reload()
    expect(main.get_by_role("heading", level=2)).to_contain_text("Yağ filtresi")
    expect(tree.get_by_role("link", name=re.compile(r"^Yağ filtresi 103-010$"))).to_have_attribute(
        "aria-current", "page"
    )
    expect(page.get_by_role("button", name="Motor alt grupları")).to_have_attribute("aria-expanded", "true")
    assert page.console_errors == []


def test_keyboard_cards_search_breadcrumbs_and_back_keep_the_dealer_in_place(catalog_server, page):
    url, dealer, _app = catalog_server
    vehicle_url = open_golf(page, url, dealer)
    main = page.locator("#catalog-main")

    # A branch opens and closes from the keyboard, the focus staying on its toggle.
    toggle = page.get_by_role("button", name="Motor alt grupları")
    toggle.focus()
    page.keyboard.press("Enter")
    expect(toggle).to_have_attribute("aria-expanded", "true")
    expect(toggle).to_be_focused()
    branch = page.locator("#catalog-tree .tree-children").first
    expect(branch).to_be_visible()
    page.keyboard.press("Enter")
    expect(toggle).to_have_attribute("aria-expanded", "false")
    expect(branch).to_be_hidden()

    # The cards of the main area lead down to a picture.
    main.get_by_role("link", name="Motor").click()
    expect(main.get_by_role("heading", level=2)).to_have_text("Motor")
    main.get_by_role("link", name="Silindir bloğu").click()
    expect(main.get_by_role("heading", level=2)).to_have_text("Silindir bloğu")
    main.get_by_role("link", name=re.compile(r"^Yağ filtresi")).first.click()
    expect(main.locator("img.schema-image")).to_be_visible()
    leaf_url = page.url
    assert re.fullmatch(re.escape(vehicle_url) + r"/categories/\d+", leaf_url)

    # The search finds the leaf's parts; a result opens its picture with the row selected.
    page.get_by_placeholder("Parça adı veya OEM numarası").fill("oil filter")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(re.escape(vehicle_url) + r"\?q=oil(\+|%20)filter$"))  # htmx writes %20
    expect(main.get_by_role("heading", level=2)).to_have_text("Arama: oil filter")
    result = main.locator(".search-parts .part-row").first
    code = result.locator(".oem-code").inner_text()
    result.locator(".part-where a").click()
    selected = main.locator(".part-row.is-selected")
    expect(selected).to_have_count(1)
    expect(selected.locator(".oem-code")).to_have_text(code)
    expect(selected).to_be_in_viewport()
    position = selected.get_attribute("data-position")
    expect(main.locator(f'.hotspot[data-position="{position}"]')).to_have_class(re.compile(r"\bis-selected\b"))

    # A breadcrumb goes up; the heading takes the focus the followed link had.
    main.get_by_role("navigation").get_by_role("link", name="Motor").click()
    expect(main.get_by_role("heading", level=2)).to_have_text("Motor")
    expect(main.get_by_role("heading", level=2)).to_be_focused()
    page.wait_for_url(re.compile(re.escape(vehicle_url) + r"/categories/\d+$"))

    page.go_back()
    expect(main.locator(".part-row.is-selected .oem-code")).to_have_text(code)
    assert page.console_errors == []
