"""The public demo in a real browser, without an account: open the tree down to a leaf, see its schema picture and
parts table, copy an OEM code to the clipboard only (no copy log), and follow the call to register under the category
to the registration page."""

from __future__ import annotations

import re

import pytest
from flask import current_app
from playwright.sync_api import expect

from app.catalog import services as catalog
from app.catalog import store
from app.catalog.providers import provider_for
from app.core.loopback import LoopbackServer
from app.demo import seed
from app.extensions import db
from app.sources.sandbox.catalog import VIN_GOLF
from app.vehicles.models import Vehicle
from tests.e2e.test_vehicle_page import open_branch
from tests.support.committed_dealer import committed_dealer

pytestmark = [pytest.mark.e2e, pytest.mark.no_isolation]


def store_first_branch(vehicle_id: int) -> int:
    """Store the vehicle's roots and its first branch down to a leaf (parts, picture), as a demo seed would; the
    leaf's id."""
    vehicle = db.session.get(Vehicle, vehicle_id)
    provider = provider_for(vehicle, current_app.config)
    if not store.roots(vehicle_id):
        assert catalog.fetch_roots(vehicle)
    db.session.commit()
    node = store.roots(vehicle_id)[0]
    while not node.is_leaf:
        node = catalog.load_children(vehicle, node, provider)[0]
        db.session.commit()
    assert catalog.load_parts(node, provider)
    db.session.commit()
    return node.id


@pytest.fixture
def demo_server(make_app, upstreams, tmp_path):
    """A live server whose demo is the sandbox Golf with its first branch stored; everything is removed afterwards."""
    app = make_app(**upstreams.settings, STORAGE_DIR=str(tmp_path / "storage"))
    with committed_dealer(app):  # seeds the brands, and deletes the vehicles stored here at the end
        with app.app_context():
            vehicle_id = seed.store_vehicle(VIN_GOLF)
            store_first_branch(vehicle_id)
            db.session.remove()
        app.config["DEMO_VEHICLE_ID"] = vehicle_id
        server = LoopbackServer(app, name="live-server").start()
        try:
            yield server.url
        finally:
            server.stop()


def test_a_visitor_walks_the_demo_to_a_picture_copies_a_code_and_goes_to_register(demo_server, page):
    url = demo_server
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=url)
    posts: list[str] = []
    page.on("request", lambda request: request.method == "POST" and posts.append(request.url))
    page.goto(url + "/demo")

    expect(page.locator('[data-placement="banner"]')).to_be_visible()
    expect(page.locator("#vehicle-title")).to_have_text("Volkswagen Golf")
    tree = page.locator("#catalog-tree")
    open_branch(page, "Motor")
    open_branch(page, "Silindir bloğu")
    leaf = tree.get_by_role("link", name=re.compile(r"^Yağ filtresi 103-010$"))
    leaf.click()

    page.wait_for_url(re.compile(re.escape(url) + r"/demo/categories/\d+$"))
    main = page.locator("#catalog-main")
    expect(main.get_by_role("heading", level=2)).to_contain_text("Yağ filtresi")
    expect(leaf).to_have_attribute("aria-current", "page")
    picture = main.locator("img.schema-image")
    expect(picture).to_be_visible()
    page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=picture.element_handle())
    spot = main.locator(".hotspot").first
    spot.click()
    rows = main.locator(f'.part-row[data-position="{spot.get_attribute("data-position")}"]')
    expect(rows.first).to_have_class(re.compile(r"\bis-selected\b"))

    # A code goes to the clipboard, and nowhere else.
    row = main.locator(".part-row:has(.copy-button)").first
    code = row.locator(".oem-code").inner_text()
    button = row.get_by_role("button", name=f"Kopyala: OEM numarası {code}")
    assert button.get_attribute("data-copy-log") is None
    button.click()
    expect(button).to_have_text("Kopyalandı")
    assert page.evaluate("navigator.clipboard.readText()") == code

    main.locator('[data-placement="category_footer"]').get_by_role("link").click()
    page.wait_for_url(url + "/register")
    expect(page.get_by_role("heading", level=1)).to_have_text("Hesabınızı oluşturun")
    assert posts == []
    assert page.console_errors == []
