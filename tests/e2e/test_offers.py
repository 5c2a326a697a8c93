"""Issue 42 in a real browser, on the sandbox Golf's oil filter drawing: a row shows the dealer's shelf, then his three
suppliers' offers and an equivalent's (cheapest and fastest marked, the equivalent saying where its link came from);
choosing one puts it on the quote with its cost and the price the shop's markup rule gives; the quote line goes on
the supplier's order list, and the list's mail with its XLSX arrives in the SMTP catcher.

With SCREENSHOTS=<dir> set, the test saves docs/screenshots/offers.png there."""

from __future__ import annotations

import io
import re
from decimal import Decimal
from email import policy
from email.parser import BytesParser

import pytest
import sqlalchemy as sa
from openpyxl import load_workbook
from playwright.sync_api import expect

import worker
from app.accounts.models import User
from app.core.loopback import LoopbackServer
from app.equivalents.services import NumberLink, record_links
from app.extensions import db
from app.notifications.local_mail import MailCatcher
from app.notifications.models import OutboxEmail
from app.suppliers.markup import set_rule
from tests.e2e.test_counter_clerk import screenshot
from tests.e2e.test_leaf_layout import DESKTOP, open_oil_filter
from tests.support.committed_dealer import committed_dealer
from tests.support.shelf import shelf_list
from tests.support.suppliers import supplier_list

pytestmark = [pytest.mark.e2e, pytest.mark.no_isolation]

ORDER_ADDRESSES = ["siparis@anadolu.example", "siparis@ege.example", "siparis@marmara.example"]
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


@pytest.fixture
def counter(make_app, upstreams, tmp_path):
    """A live server on the sandboxes whose mail goes to an SMTP catcher, and a committed dealer (removed after)."""
    catcher = MailCatcher(tmp_path / "mailbox").start()
    app = make_app(**upstreams.settings, STORAGE_DIR=str(tmp_path / "storage"), MAIL_URL=catcher.url)
    try:
        with committed_dealer(app) as dealer:
            server = LoopbackServer(app, name="live-server").start()
            try:
                yield server.url, dealer, app, catcher
            finally:
                server.stop()
    finally:
        catcher.stop()
        with app.app_context():
            db.session.execute(sa.delete(OutboxEmail).where(OutboxEmail.to_address.in_(ORDER_ADDRESSES)))
            db.session.commit()
            db.session.remove()


def stock_and_offers(app, dealer, code: str) -> None:
    """The code on the dealer's shelf (none in stock) and on three suppliers' lists, an equivalent of it on the first's;
    a 30 % markup for the shop."""
    with app.app_context():
        user = db.session.get(User, dealer.id)
        shelf_list(user, [{"oem": code, "own": "RAF-1", "price": "450", "stock": 0}])
        lines = [("Anadolu", "BSB-1", "Bosch", "300", 4, None), ("Ege", "MN-2", "Mann", "280", 0, None),
                 ("Marmara", "FB-3", "Febi", "310", 9, "23:59")]  # fmt: skip
        equivalent = {"own": "OC 456", "brand": "Mahle", "name": "Yağ filtresi", "price": "260", "stock": 2}
        for (name, own, brand, price, stock, cutoff), address in zip(lines, ORDER_ADDRESSES, strict=True):
            line = {"own": own, "brand": brand, "name": "Yağ filtresi", "price": price, "stock": stock, "oem": code}
            listed = [line, equivalent] if name == "Anadolu" else [line]
            supplier_list(user, name, listed, order_email=address, order_cutoff=cutoff, delivery_promise="17:00 teslim")
        link = NumberLink(code, "OC 456", b_brand="Mahle")  # a member's confirmation: Mahle OC 456 is the same part
        record_links([link], shop_id=user.shop_id, source="member", user_id=user.id)
        set_rule(user, {"kind": "percent", "value": "30"})
        db.session.commit()
        db.session.remove()


def test_a_row_s_offer_goes_on_the_quote_and_its_order_mail_carries_the_xlsx(counter, page):
    url, dealer, app, catcher = counter
    page.set_viewport_size(DESKTOP)
    open_oil_filter(page, url, dealer)
    code = page.locator(".parts-table:not(.not-fitting-table) .part-row .oem-code").first.inner_text()
    stock_and_offers(app, dealer, code)
    page.reload()

    row = page.locator(".part-row", has=page.locator(".oem-code", has_text=code)).first
    expect(row.locator(".shelf-summary")).to_have_text("Rafta yok · 450,00 ₺ · kodunuz RAF-1")
    offers = row.locator("[data-offers]")
    expect(offers.locator(".offer-summary")).to_contain_text("4 teklif · en ucuz 260,00 ₺ Anadolu")
    offers.locator(".offer-summary").click()
    expect(offers.locator(".offer")).to_have_count(4)
    mahle = offers.locator(".offer", has_text="OC 456")
    expect(mahle.locator(".offer-via")).to_have_text("muadil OC456, kaynak: dükkânınızdan bir üyenin onayı")
    expect(mahle.locator(".offer-cheapest")).to_be_visible()
    expect(offers.locator(".offer").last).to_contain_text("Stok yok")  # Ege: cheaper, but none in stock
    marmara = offers.locator(".offer", has_text="Marmara")
    expect(marmara.locator(".offer-fastest")).to_be_visible()
    row.scroll_into_view_if_needed()
    screenshot(page, "offers.png")

    marmara.get_by_role("button", name="Bu teklifi ekle").click()
    expect(marmara.locator(".quote-added")).to_be_visible()

    vehicle_id = re.search(r"/vehicles/(\d+)/", page.url).group(1)
    page.goto(f"{url}/teklifler/vehicles/{vehicle_id}")  # the vehicle's open quote
    line = page.locator(".quote-line").first
    expect(line.locator("[data-line-offer]")).to_contain_text("Marmara FB-3")
    expect(line.locator("[data-line-offer]")).to_contain_text("310,00 ₺")  # the cost
    sale = (Decimal("310") * Decimal("1.3")).quantize(Decimal("0.01"))  # 403,00
    expect(line.locator("[data-line-offer]")).to_contain_text(f"{sale:.2f}".replace(".", ",") + "\u00a0₺")

    page.goto(url + "/dukkan/siparisler")
    page.get_by_role("button", name="Sipariş listesine ekle").click()
    page.get_by_role("button", name="Tedarikçiye gönder").click()
    worker.run_worker(app, burst=True)  # the email queue: the mail goes to the SMTP catcher

    [mail] = [
        BytesParser(policy=policy.default).parsebytes(eml.read_bytes()) for eml in catcher.directory.glob("*.eml")
    ]
    assert mail["To"] == "siparis@marmara.example"
    [attachment] = list(mail.iter_attachments())
    assert attachment.get_content_type() == XLSX
    rows = list(load_workbook(io.BytesIO(attachment.get_content())).active.iter_rows(values_only=True))
    assert rows[1][:2] == ("FB-3", "Febi") and rows[1][2] == code
    assert page.console_errors == []
