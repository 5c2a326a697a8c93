"""The shop's own pages on a 360 px phone: the shop (members, branches, the owner's danger zone), its activity and its
API keys fit the screen without sideways scrolling, with long Turkish names and addresses in them."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.test_browse import NARROW_PHONE
from tests.e2e.test_vin_search import sign_in

pytestmark = [pytest.mark.e2e, pytest.mark.no_isolation]

LONG_BRANCH = {
    "name": "Kağıthane Sanayi Sitesi Şubesi",
    "address": "Çağlayan Mahallesi, Vatan Caddesi, Oto Sanayi Sitesi 3. Blok No: 127/B, Kağıthane / İstanbul",
    "phone": "+90 (212) 555 44 33",
}
PAGES = ("/dukkan", "/dukkan/hareketler", "/shop/keys")


def test_the_shop_pages_fit_a_360_px_phone(catalog_server, page):
    url, dealer, _app = catalog_server
    page.set_viewport_size(NARROW_PHONE)
    sign_in(page, url, dealer)
    same_site = {"Origin": url}
    added = page.request.post(url + "/api/shop/branches", data=LONG_BRANCH, headers=same_site)
    assert added.status == 201, added.text()
    key = {"name": "Muhasebe programı entegrasyonu (Logo Tiger)", "role": "manager"}
    made = page.request.post(url + "/api/shop/keys", data=key, headers=same_site)
    assert made.status == 201, made.text()

    for path in PAGES:
        page.goto(url + path)
        page.wait_for_load_state("networkidle")
        expect(page.locator("main")).to_be_visible()
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= NARROW_PHONE["width"], f"{path} is {width} px wide"
    expect(page.get_by_text(key["name"]).first).to_be_visible()  # the keys page, the last one looked at
    assert page.console_errors == []
