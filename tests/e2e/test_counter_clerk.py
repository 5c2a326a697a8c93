"""The counter clerk's routine in a real browser: rows and hotspots select each other where the clerk can see it,
the picture zooms with its hotspots in place, the keyboard walks the rows, a search hit opens the tree down to its
part, a part's link survives a re-fetch of the catalog and lands on the part in a fresh session, and a phone gets a
one-row header, a drawer for the tree and hotspots a finger can hit.

With SCREENSHOTS=<dir> set, the tests also save the pictures of docs/screenshots/ there."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
import sqlalchemy as sa
from playwright.sync_api import expect

from app.catalog.models import Category
from app.extensions import db
from tests.e2e.test_leaf_layout import DESKTOP, box, open_oil_filter
from tests.e2e.test_vin_search import sign_in

pytestmark = [pytest.mark.e2e, pytest.mark.no_isolation]

PHONE = {"width": 390, "height": 844}
SELECTED = re.compile(r"\bis-selected\b")
SMALLEST_HOTSPOT_AT_LEAST = """(least) => [...document.querySelectorAll(".hotspot")].every((spot) => {
  const box = spot.getBoundingClientRect();
  return box.width >= least && box.height >= least;
})"""


def screenshot(page, name: str) -> None:
    folder = os.environ.get("SCREENSHOTS")
    if folder:
        page.screenshot(path=str(Path(folder) / name))


def inside(inner: dict, outer: dict) -> bool:
    return (
        inner["x"] >= outer["x"] - 1
        and inner["y"] >= outer["y"] - 1
        and inner["x"] + inner["width"] <= outer["x"] + outer["width"] + 1
        and inner["y"] + inner["height"] <= outer["y"] + outer["height"] + 1
    )


def relative(spot: dict, picture: dict) -> tuple[float, float]:
    """A hotspot's centre as a fraction of the picture's box."""
    return (
        (spot["x"] + spot["width"] / 2 - picture["x"]) / picture["width"],
        (spot["y"] + spot["height"] / 2 - picture["y"]) / picture["height"],
    )


def settle(page) -> None:
    """Waits until the picture's box stops moving: panzoom animates every zoom, pan and reset."""
    page.wait_for_function(
        """() => new Promise((resolve) => {
            const picture = document.querySelector('img.schema-image');
            let last = '';
            let still = 0;
            const check = () => {
                const box = picture.getBoundingClientRect();
                const now = [box.x, box.y, box.width, box.height].map(Math.round).join();
                still = now === last ? still + 1 : 0;
                last = now;
                if (still >= 10) resolve(true); else requestAnimationFrame(check);
            };
            requestAnimationFrame(check);
        })"""
    )


def test_rows_and_hotspots_select_each_other_in_view_and_zoom_keeps_them_aligned(catalog_server, page):
    url, dealer, _app = catalog_server
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=url)
    page.set_viewport_size(DESKTOP)
    open_oil_filter(page, url, dealer)
    screenshot(page, "desktop-leaf.png")

    # A row clicked lights its hotspot, and the picture (kept beside the list) shows it.
    row = page.locator(".part-row[data-position]").nth(6)
    position = row.get_attribute("data-position")
    row.locator(".part-name").click()
    spot = page.locator(f'.hotspot[data-position="{position}"]')
    expect(row).to_have_class(SELECTED)
    expect(spot).to_have_class(SELECTED)
    expect(spot).to_be_in_viewport()

    # A hotspot clicked selects its rows (every row of a shared position).
    other_spot = page.locator(f'.hotspot:not([data-position="{position}"])').nth(2)
    other_position = other_spot.get_attribute("data-position")
    other_spot.click()
    rows = page.locator(f'.part-row[data-position="{other_position}"]')
    expect(rows.first).to_have_class(SELECTED)
    expect(rows.first).to_be_focused()
    assert page.locator(".part-row.is-selected").count() == rows.count()
    expect(spot).not_to_have_class(SELECTED)

    # Zoomed in, the hotspots stay on their callouts.
    picture = page.locator("img.schema-image")
    before = relative(box(page, f'.hotspot[data-position="{position}"] rect'), picture.bounding_box())
    width = picture.bounding_box()["width"]
    zoom_in = page.get_by_role("button", name="Yakınlaştır")
    zoom_in.click()
    zoom_in.click()
    page.wait_for_function(f"img => img.getBoundingClientRect().width > {width * 1.8}", arg=picture.element_handle())
    settle(page)  # the smooth zoom's last frames
    after = relative(box(page, f'.hotspot[data-position="{position}"] rect'), picture.bounding_box())
    assert after == pytest.approx(before, abs=0.01)

    # A row whose hotspot the zoomed picture does not show pans the picture to it.
    viewport = page.locator(".schema-viewport")
    hidden = page.evaluate(
        """() => {
            const view = document.querySelector('.schema-viewport').getBoundingClientRect();
            const spot = Array.from(document.querySelectorAll('.hotspot')).find((item) => {
                const box = item.getBoundingClientRect();
                return box.right < view.left || box.left > view.right || box.bottom < view.top || box.top > view.bottom;
            });
            return spot ? spot.dataset.position : null;
        }"""
    )
    assert hidden is not None
    page.locator(f'.part-row[data-position="{hidden}"] .part-name').first.click()
    target = f'.hotspot[data-position="{hidden}"]'
    expect(page.locator(target)).to_have_class(SELECTED)
    settle(page)  # the smooth pan's last frames
    assert inside(box(page, target), viewport.bounding_box())
    page.get_by_role("button", name="Sığdır").click()
    settle(page)
    assert picture.bounding_box()["width"] == pytest.approx(width, abs=2)

    # The keyboard: arrows move between rows, Enter copies the row's OEM code.
    first = page.locator(".part-row").first
    first.focus()
    page.keyboard.press("ArrowDown")
    second = page.locator(".part-row").nth(1)
    expect(second).to_be_focused()
    expect(second).to_have_class(SELECTED)
    page.keyboard.press("Enter")
    expect(second.locator("button[data-copy]")).to_have_text("Kopyalandı")
    assert page.evaluate("navigator.clipboard.readText()") == second.locator(".oem-code").inner_text()

    # Full screen and back.
    full = page.get_by_role("button", name="Tam ekran")
    full.click()
    expect(full).to_have_attribute("aria-pressed", "true")
    full.click()
    expect(full).to_have_attribute("aria-pressed", "false")
    assert page.console_errors == []


def test_a_search_hit_opens_the_tree_to_its_part_and_follows_back_and_forward(catalog_server, page):
    url, dealer, _app = catalog_server
    page.set_viewport_size(DESKTOP)
    open_oil_filter(page, url, dealer)  # the leaf's parts are stored, so the search finds them
    vehicle_url = re.sub(r"/categories/\d+$", "", page.url)
    page.goto(vehicle_url)
    engine = page.get_by_role("button", name="Motor alt grupları")
    expect(engine).to_have_attribute("aria-expanded", "false")

    page.get_by_placeholder("Parça adı veya OEM numarası").fill("water pump")
    page.keyboard.press("Enter")
    main = page.locator("#catalog-main")
    result = main.locator(".search-parts .part-row").first
    code = result.locator(".oem-code").inner_text()
    result.locator(".part-where a").click()

    selected = main.locator(".part-row.is-selected")
    expect(selected.locator(".oem-code")).to_have_text(code)
    expect(selected).to_be_in_viewport()
    position = selected.get_attribute("data-position")
    spot = main.locator(f'.hotspot[data-position="{position}"]')
    expect(spot).to_have_class(SELECTED)
    expect(spot).to_be_in_viewport()
    expect(engine).to_have_attribute("aria-expanded", "true")
    current = page.locator('#catalog-tree .tree-link[aria-current="page"]')
    expect(current).to_contain_text("Yağ filtresi")

    page.go_back()
    expect(main.get_by_role("heading", level=2)).to_have_text("Arama: water pump")
    page.go_forward()
    expect(main.locator(".part-row.is-selected .oem-code")).to_have_text(code)
    expect(current).to_contain_text("Yağ filtresi")
    assert page.console_errors == []


def test_a_part_link_survives_a_refetch_and_lands_on_the_part_in_a_fresh_session(catalog_server, page):
    url, dealer, app = catalog_server
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=url)
    page.set_viewport_size(DESKTOP)
    open_oil_filter(page, url, dealer)
    row = page.locator(".part-row[data-position]").nth(5)
    code = row.locator(".oem-code").inner_text()
    position = row.get_attribute("data-position")
    row.get_by_role("button", name="Bağlantı: bu parçanın bağlantısını kopyala").click()
    link = page.evaluate("navigator.clipboard.readText()")
    assert re.fullmatch(re.escape(url) + r"/vehicles/\d+/catalog/[a-z0-9/-]+\?pos=[^&]+&oem=.+", link)

    # The catalog is fetched again: every category and part gets a new id.
    vehicle_id = int(re.search(r"/vehicles/(\d+)/", link).group(1))
    with app.app_context():
        db.session.execute(sa.delete(Category).where(Category.vehicle_id == vehicle_id))
        db.session.commit()
        db.session.remove()

    colleague = page.context.browser.new_context(locale="tr-TR")
    try:
        fresh = colleague.new_page()
        fresh.set_viewport_size(DESKTOP)
        sign_in(fresh, url, dealer)
        fresh.goto(link)
        selected = fresh.locator(".part-row.is-selected")
        expect(selected.first.locator(".oem-code")).to_have_text(code)
        expect(selected.first).to_have_attribute("data-position", position)
        expect(selected.first).to_be_in_viewport()
        expect(fresh.locator(f'.hotspot[data-position="{position}"]')).to_have_class(SELECTED)
        expect(fresh.locator('#catalog-tree .tree-link[aria-current="page"]')).to_contain_text("Yağ filtresi")
    finally:
        colleague.close()


def test_on_a_phone_one_row_header_search_in_reach_tree_in_a_drawer_and_big_hotspots(catalog_server, page):
    url, dealer, _app = catalog_server
    page.set_viewport_size(PHONE)
    open_oil_filter(page, url, dealer)
    assert page.locator(".site-header").bounding_box()["height"] < 64  # one row
    expect(page.locator("#catalog-tree")).not_to_be_in_viewport()  # the drawer closed on choosing the leaf
    page.evaluate("window.scrollTo(0, 0)")
    expect(page.get_by_placeholder("Parça adı veya OEM numarası")).to_be_in_viewport()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    expect(page.locator(".hotspot").first).to_be_visible()
    # Sized to a finger once the picture has its shown size (when it has loaded and the layout has settled).
    page.wait_for_function(SMALLEST_HOTSPOT_AT_LEAST, arg=24)
    for spot in page.locator(".hotspot").all():
        size = spot.bounding_box()
        assert size["width"] >= 24 and size["height"] >= 24
    screenshot(page, "phone-leaf.png")

    # A tap on a hotspot brings its part card.
    spot = page.locator(".hotspot").nth(3)
    position = spot.get_attribute("data-position")
    spot.click()
    card = page.locator(f'.part-row[data-position="{position}"]').first
    expect(card).to_have_class(SELECTED)
    expect(card).to_be_in_viewport()

    page.get_by_role("button", name="Gruplar").click()
    expect(page.locator("#catalog-tree")).to_be_in_viewport()
    screenshot(page, "phone-drawer.png")
    page.keyboard.press("Escape")
    expect(page.locator("#catalog-tree")).not_to_be_in_viewport()

    # The header's links are behind its menu button.
    account = page.get_by_role("link", name="Hesabım")
    expect(account).to_be_hidden()
    page.get_by_role("button", name="Menü").click()
    expect(account).to_be_visible()
    assert page.console_errors == []
