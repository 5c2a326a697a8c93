"""Issue 31 in a real browser, on the sandbox Golf's oil filter drawing: the dealer's shelf list shows on the rows
it carries (stock, price, own code, how it matched) and a replaced row names its current number with that number's
stock and price; a phone at 360 px shows it without sideways scrolling.

With SCREENSHOTS=<dir> set, the first test saves docs/screenshots/shelf.png there."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from app.accounts.models import User
from app.extensions import db
from tests.e2e.test_counter_clerk import screenshot
from tests.e2e.test_leaf_layout import DESKTOP, PHONES, open_oil_filter
from tests.support.shelf import shelf_list

pytestmark = [pytest.mark.e2e, pytest.mark.no_isolation]


def list_two_rows(page, app, dealer) -> tuple[str, str]:
    """Put the first two codes the drawing shows on the dealer's list, the first replaced by the second, and show the
    drawing again; the two codes."""
    codes = page.locator(".parts-table:not(.not-fitting-table) .part-row .oem-code").all_inner_texts()
    first, second = codes[0], next(code for code in codes if code != codes[0])
    with app.app_context():
        shelf_list(db.session.get(User, dealer.id), [
            {"oem": first, "own": "RAF-1", "price": "1250.50", "stock": 3, "replaced_by": second},
            {"oem": second, "own": "RAF-2", "price": "1399.90", "stock": 2},
        ])  # fmt: skip
        db.session.remove()
    page.reload()
    return first, second


def test_a_drawing_row_shows_the_dealers_stock_price_and_current_number(catalog_server, page):
    url, dealer, app = catalog_server
    page.set_viewport_size(DESKTOP)
    open_oil_filter(page, url, dealer)

    first, second = list_two_rows(page, app, dealer)

    row = page.locator(".part-row", has=page.locator(".oem-code", has_text=first)).first
    expect(row.locator(".shelf-summary")).to_have_text("Rafta 3 · 1.250,50 ₺ · kodunuz RAF-1")
    expect(row.locator(".shelf-matched")).to_have_text("OEM numarasıyla eşleşti")
    expect(row.locator(".shelf-current")).to_have_text(f"yerine: {second} (Rafta 2 · 1.399,90 ₺)")
    newer = page.locator(".part-row", has=page.locator(".oem-code", has_text=second)).first
    expect(newer.locator(".shelf-summary")).to_have_text("Rafta 2 · 1.399,90 ₺ · kodunuz RAF-2")
    row.scroll_into_view_if_needed()
    screenshot(page, "shelf.png")
    assert page.console_errors == []


def test_on_a_phone_the_shelf_line_fits(catalog_server, page):
    url, dealer, app = catalog_server
    viewport = PHONES[-1]  # 360 px
    page.set_viewport_size(viewport)
    open_oil_filter(page, url, dealer)

    first, _second = list_two_rows(page, app, dealer)

    note = page.locator(".part-row", has=page.locator(".oem-code", has_text=first)).first.locator("[data-shelf]")
    expect(note).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    box = note.bounding_box()
    assert box["x"] + box["width"] <= viewport["width"]
