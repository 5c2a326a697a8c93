"""Issue 42's pages on a 360 px phone: a drawing row's offers opened, the suppliers, a supplier, the markup rules, the
suggestions, the order lists and a number's page fit the screen without sideways scrolling, with long Turkish
supplier names, codes and delivery promises in them."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from app.accounts.models import User
from app.extensions import db
from app.suppliers.models import Supplier
from tests.e2e.test_browse import NARROW_PHONE
from tests.e2e.test_leaf_layout import open_oil_filter
from tests.e2e.test_offers import counter, stock_and_offers  # noqa: F401 - the fixture used here

pytestmark = [pytest.mark.e2e, pytest.mark.no_isolation]

LONG_NAME = "Kuzey Marmara Otomotiv Yedek Parça Sanayi ve Ticaret Anonim Şirketi"
LONG_PROMISE = "Saat 14:00'e kadar verilen siparişler aynı gün 17:00'de Kağıthane deposundan teslim edilir"


# The elements reaching past the screen's right edge outside a table that scrolls aside: what widens the page.
WIDE_ELEMENTS = """() => [...document.querySelectorAll('body *')]
    .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1 && !e.closest('.table-scroll'))
    .slice(0, 6).map(e => `${e.tagName}.${e.className}: ${(e.textContent || '').trim().slice(0, 40)}`)"""


def fits(page, path: str) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= NARROW_PHONE["width"], f"{path} is {width} px wide: {page.evaluate(WIDE_ELEMENTS)}"


def test_the_supplier_pages_fit_a_360_px_phone(counter, page):  # noqa: F811
    url, dealer, app, _catcher = counter
    page.set_viewport_size(NARROW_PHONE)
    open_oil_filter(page, url, dealer)
    code = page.locator(".parts-table:not(.not-fitting-table) .part-row .oem-code").first.inner_text()
    stock_and_offers(app, dealer, code)
    with app.app_context():
        shop_id = db.session.get(User, dealer.id).shop_id
        supplier = db.session.query(Supplier).filter_by(shop_id=shop_id, name="Marmara").one()
        supplier.name, supplier.delivery_promise = LONG_NAME, LONG_PROMISE
        supplier_id = supplier.id
        db.session.commit()
        db.session.remove()

    page.reload()
    row = page.locator(".part-row", has=page.locator(".oem-code", has_text=code)).first
    offers = row.locator("[data-offers]")
    offers.locator(".offer-summary").click()
    long_named = offers.locator(".offer", has_text=LONG_NAME)
    expect(long_named).to_be_visible()
    fits(page, "the drawing with its offers open")
    long_named.get_by_role("button", name="Bu teklifi ekle").click()
    expect(long_named.locator(".quote-added")).to_be_visible()

    pages = (
        "/dukkan/tedarikciler",
        f"/dukkan/tedarikciler/{supplier_id}",
        "/dukkan/tedarikciler/kar-kurallari",
        f"/dukkan/tedarikciler/{supplier_id}/oneriler",
        "/dukkan/siparisler",
        f"/muadil/{code}",
    )
    for path in pages:
        page.goto(url + path)
        page.wait_for_load_state("networkidle")
        expect(page.locator("main")).to_be_visible()
        fits(page, path)
        if path == "/dukkan/siparisler":  # the quote line waits to be ordered: on an order list, then
            page.get_by_role("button", name="Sipariş listesine ekle").click()
            expect(page.get_by_role("button", name="Tedarikçiye gönder")).to_be_visible()
            fits(page, "an order list")
    expect(page.get_by_text(LONG_NAME).first).to_be_visible()  # the number's page, the last one looked at
    assert page.console_errors == []
