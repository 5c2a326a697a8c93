"""Issue 31's quote in a real browser, on the sandbox Golf's oil filter drawing: three parts added with "Teklife
ekle", a price typed, the link made and its WhatsApp button's target checked (never followed: nothing may reach the
internet), the shared page opened in a new context without cookies, the print view on one A4 page, and a phone at
360 px.

With SCREENSHOTS=<dir> set, the first test saves docs/screenshots/quote.png there (the customer's page)."""

from __future__ import annotations

import re
import time
from urllib.parse import unquote

import pytest
from playwright.sync_api import expect

from app.extensions import db
from app.quotes.models import Quote
from tests.e2e.test_counter_clerk import screenshot
from tests.e2e.test_leaf_layout import DESKTOP, open_oil_filter

pytestmark = [pytest.mark.e2e, pytest.mark.no_isolation]

PHONE = {"width": 360, "height": 740}
PDF_PAGE = re.compile(rb"/Type\s*/Page(?![s\w])")


def add_three_parts(page) -> None:
    main = page.locator("#catalog-main")
    buttons = main.locator(".parts-table:not(.not-fitting-table) form.quote-add button")
    assert buttons.count() >= 3
    for index in range(3):
        form = main.locator(".parts-table:not(.not-fitting-table) form.quote-add").nth(index)
        form.locator("button").click()
        expect(form.locator(".quote-added")).to_have_text(re.compile(r"^Eklendi \(\d+\)$"))


def open_quote(page) -> None:
    page.locator("#catalog-main a.leaf-quote").click()
    page.wait_for_url(re.compile(r"/teklifler/\d+$"))


def test_three_parts_to_a_quote_shared_on_whatsapp_opened_without_an_account_and_printed(catalog_server, page):
    url, dealer, _app = catalog_server
    page.set_viewport_size(DESKTOP)
    open_oil_filter(page, url, dealer)
    add_three_parts(page)
    open_quote(page)

    lines = page.locator("li.quote-line")
    assert lines.count() >= 3
    for index in range(lines.count()):
        line = page.locator("li.quote-line").nth(index)
        line.locator("input[name=unit_price]").fill(f"{index + 1}.250,50")
        line.get_by_role("button", name="Kaydet").click()
        expect(page.locator("li.quote-line").nth(index).locator(".quote-line-total")).not_to_contain_text("fiyat yok")
    free = page.locator("form.quote-free-line")
    free.locator("input[name=name]").fill("İşçilik")
    free.locator("input[name=unit_price]").fill("750")
    free.get_by_role("button", name="Ekle").click()
    expect(page.locator("li.quote-line", has_text="İşçilik")).to_have_count(1)
    before = page.locator("[data-total=gross]").inner_text()
    rate = page.locator("form.quote-rate")
    rate.locator("input[name=kdv_rate]").fill("10")
    rate.get_by_role("button", name="Kaydet").click()  # this quote's rate, in place
    expect(page.locator(".quote-totals")).to_contain_text("KDV %10")
    expect(page.locator("[data-total=gross]")).not_to_have_text(before)
    gross = page.locator("[data-total=gross]").inner_text()
    assert gross.endswith(" ₺")

    page.get_by_role("button", name=re.compile("bağlantı oluştur", re.IGNORECASE)).click()
    link = page.locator("[data-share-link]").input_value()
    whatsapp = page.locator("[data-whatsapp]").get_attribute("href")
    assert whatsapp.startswith("https://wa.me/?text=")
    text = unquote(whatsapp.removeprefix("https://wa.me/?text="))
    assert "için teklif, toplam" in text and gross in text and "(KDV dahil)" in text and text.endswith(link)

    browser = page.context.browser
    stranger = browser.new_context(locale="tr-TR", viewport=DESKTOP)  # no cookies: the customer's phone
    shared = stranger.new_page()
    shared.goto(link)
    expect(shared.locator(".quote-table tbody tr")).to_have_count(lines.count())
    expect(shared.locator("[data-total=gross]")).to_have_text(gross)
    expect(shared.locator("img.quote-thumb").first).to_be_visible()
    shared.wait_for_function("() => [...document.images].every(img => img.complete)")
    screenshot(shared, "quote.png")
    shared.set_viewport_size(PHONE)
    assert shared.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    stranger.close()

    page.goto(page.url + "/print")
    pdf = page.pdf(format="A4", print_background=True)
    assert len(PDF_PAGE.findall(pdf)) == 1
    assert page.console_errors == []


def test_the_quote_page_on_a_phone_at_360_px(catalog_server, page):
    url, dealer, _app = catalog_server
    page.set_viewport_size(PHONE)
    open_oil_filter(page, url, dealer)
    page.locator("#catalog-main form.quote-add button").first.scroll_into_view_if_needed()
    add_three_parts(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    open_quote(page)

    for element in (
        page.locator("li.quote-line").first,
        page.locator("form.quote-free-line"),
        page.locator("#quote-share"),
    ):
        element.scroll_into_view_if_needed()
        box = element.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert page.console_errors == []


def opened_at(app, quote_id: int):
    with app.app_context():
        found = db.session.get(Quote, quote_id).first_opened_at
        db.session.remove()
        return found


def test_opening_the_link_in_a_browser_marks_it_opened_and_a_preview_or_the_dealer_does_not(catalog_server, page):
    url, dealer, app = catalog_server
    page.set_viewport_size(DESKTOP)
    open_oil_filter(page, url, dealer)
    page.locator("#catalog-main .parts-table form.quote-add button").first.click()
    expect(page.locator("#catalog-main .quote-added").first).to_be_visible()
    open_quote(page)
    quote_id = int(page.url.rsplit("/", 1)[1])
    page.get_by_role("button", name=re.compile("bağlantı oluştur", re.IGNORECASE)).click()
    link = page.locator("[data-share-link]").input_value()

    own = page.context.new_page()  # the dealer looks at what he sent, signed in
    own.goto(link)
    expect(own.locator(".quote-table")).to_be_visible()
    browser = page.context.browser
    preview = browser.new_context(user_agent="WhatsApp/2.23.20.0 A", locale="tr-TR")  # a fetcher that runs scripts
    preview.new_page().goto(link)
    time.sleep(1.5)  # what either page's script would send has arrived by now
    assert opened_at(app, quote_id) is None
    preview.close()

    customer = browser.new_context(locale="tr-TR", viewport=PHONE)  # no cookies: the customer's phone
    shown = customer.new_page()
    shown.goto(link)
    expect(shown.locator(".quote-table")).to_be_visible()
    deadline = time.monotonic() + 10
    while opened_at(app, quote_id) is None and time.monotonic() < deadline:
        time.sleep(0.2)
    assert opened_at(app, quote_id) is not None
    customer.close()
    page.reload()
    expect(page.locator("#quote-share")).to_contain_text("açtı")
    assert page.console_errors == []
