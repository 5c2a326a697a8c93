"""Issue 41's shop in a real browser, mail through a real SMTP catcher and the RQ worker, seats through the Stripe
sandbox and its webhook: an owner with a plan names two branches and invites a manager and two clerks; past the
seats he is refused with a link, adds a seat and invites the last one; everyone joins from the mailed link; the
manager decodes a car and imports his branch's list; a clerk of the other branch finds the car in the shop's history,
sees both branches' stock on the row (his own first) and sends a quote carrying his branch; the owner sees who did
what and removes a clerk, whose open browser is signed out at its next request; a second shop sees none of it."""

from __future__ import annotations

import re
import uuid
from email import policy
from email.parser import BytesParser
from pathlib import Path

import pytest
import sqlalchemy as sa
from playwright.sync_api import expect

import worker
from app.accounts.models import User
from app.core.loopback import LoopbackServer
from app.extensions import db
from app.notifications.local_mail import MailCatcher
from app.notifications.models import OutboxEmail
from app.shops.models import Shop
from app.sources.sandbox.catalog import VIN_GOLF
from app.vehicles.models import QueryLog
from tests.e2e.test_leaf_layout import DESKTOP
from tests.e2e.test_vehicle_page import open_branch
from tests.e2e.test_vin_search import sign_in
from tests.support.browser import PASSWORD as NEW_PASSWORD
from tests.support.browser import register
from tests.support.committed_dealer import committed_dealer
from tests.support.payments import WEBHOOK_SECRET
from tests.support.shelf import shelf_list

pytestmark = [pytest.mark.e2e, pytest.mark.no_isolation]

TAG = uuid.uuid4().hex[:8]
MANAGER = f"mudur-{TAG}@example.com"
CLERK_A = f"tezgah-a-{TAG}@example.com"
CLERK_B = f"tezgah-b-{TAG}@example.com"
HOME = ("Kadıköy", "Söğütlüçeşme Cd. 12", "0216 111 22 33")
SECOND = ("Ümraniye", "Alemdağ Cd. 5", "0216 444 55 66")
LINK = re.compile(r"https?://[^\s\"'<>]+/davet/[A-Za-z0-9_-]+")
OIL_FILTER = re.compile(r"^Yağ filtresi 103-010$")


@pytest.fixture
def shop_server(make_app, upstreams, stripe_sandbox, tmp_path):
    """A live server on the upstream sandboxes, its mail to an SMTP catcher, its card payments to the Stripe sandbox;
    the owner is a committed dealer with a Full plan (three seats). The shop and everything in it go afterwards."""
    mailbox = tmp_path / "mailbox"
    catcher = MailCatcher(mailbox).start()
    app = make_app(
        **upstreams.settings,
        STORAGE_DIR=str(tmp_path / "storage"),
        MAIL_URL=catcher.url,
        MAILBOX_DIR=str(mailbox),
        STRIPE_SECRET_KEY="sk_test_e2e",
        STRIPE_WEBHOOK_SECRET=WEBHOOK_SECRET,
        STRIPE_API_BASE=stripe_sandbox.url,
        CHECKOUT_ORIGIN=stripe_sandbox.url,
    )
    with committed_dealer(app) as owner:  # removes the shop with its members and everything in it
        server = LoopbackServer(app, name="live-server").start()
        app.config["BASE_URL"] = server.url  # the links in the mail and the checkout's return address
        stripe_sandbox.webhook_url = server.url + "/api/payments/card/webhook"
        try:
            yield server.url, app, owner, mailbox
        finally:
            server.stop()
            catcher.stop()
            _remove_the_removed_clerk(app)


def _remove_the_removed_clerk(app) -> None:
    """The clerk taken out of the shop, now in a one-person shop of his own; and the mail sent to the people."""
    with app.app_context():
        people = [MANAGER, CLERK_A, CLERK_B]
        db.session.execute(sa.delete(OutboxEmail).where(OutboxEmail.to_address.in_(people)))
        removed = db.session.scalar(sa.select(User).where(User.email == CLERK_A))
        if removed is not None:
            shop_id = removed.shop_id
            db.session.execute(sa.delete(QueryLog).where(QueryLog.shop_id == shop_id))
            db.session.execute(sa.delete(User).where(User.id == removed.id))
            db.session.execute(sa.delete(Shop).where(Shop.id == shop_id))
        db.session.commit()
        db.session.remove()


def new_page(page, viewport=DESKTOP):
    """Another person's browser: a context of its own (its own cookies)."""
    tab = page.context.browser.new_context(locale="tr-TR", viewport=viewport).new_page()
    tab.console_errors = []
    tab.on("pageerror", lambda error: tab.console_errors.append(str(error)))
    return tab


def flashed(page):
    return page.locator(".flashes")


def save_branch(page, index: int, details: tuple[str, str, str]) -> None:
    form = page.locator("form[action*='/dukkan/subeler/']").filter(has=page.locator("input[name=name]")).nth(index)
    for field, value in zip(("name", "address", "phone"), details, strict=True):
        form.locator(f"input[name={field}]").fill(value)
    form.get_by_role("button", name="Kaydet").click()
    expect(flashed(page)).to_be_visible()


def add_branch(page, details: tuple[str, str, str]) -> None:
    for field, value in zip(("name", "address", "phone"), details, strict=True):
        page.locator(f"#new-branch-{field}").fill(value)
    page.get_by_role("button", name="Şubeyi ekle").click()
    expect(page.locator(f"#my-branch option:text-is('{details[0]}')")).to_have_count(1)


def invite(page, email: str, role: str, branch: str) -> None:
    page.locator("#invite-email").fill(email)
    page.locator("#invite-role").select_option(role)
    page.locator("#invite-branch").select_option(label=branch)
    page.get_by_role("button", name="Daveti gönder").click()
    page.wait_for_load_state("load")


def mailed_links(app, mailbox: Path) -> dict[str, str]:
    """Send the queued mail through the worker and read each invitation's link from the catcher's files."""
    worker.run_worker(app, burst=True)
    links = {}
    for path in sorted(mailbox.glob("*.eml")):
        message = BytesParser(policy=policy.default).parsebytes(path.read_bytes())
        body = message.get_body(preferencelist=("plain", "html")).get_content()
        found = LINK.search(body)
        if found:
            links[message["To"]] = found[0]
    return links


def join(page, link: str, name: str) -> None:
    page.goto(link)
    page.get_by_label("Ad soyad").fill(name)
    page.get_by_label("Şifre").fill(NEW_PASSWORD)
    page.get_by_role("button", name="Hesabımı oluştur ve katıl").click()
    page.wait_for_url(re.compile(r"/dukkan$"))


def decode_golf(page, url: str) -> None:
    """The signed-in member decodes the sandbox Golf and lands on its page."""
    page.goto(url + "/vin")
    page.get_by_label("Şasi numarası (VIN)").fill(VIN_GOLF)
    page.get_by_role("button", name="Aracı bul").click()
    expect(page).to_have_url(re.compile(re.escape(url) + r"/vehicles/\d+$"), timeout=15_000)
    page.wait_for_load_state("load")  # htmx binds the tree's toggles on DOMContentLoaded


def open_oil_filter_of_history(page, url: str) -> None:
    """The car a colleague decoded, from the shop's history on /vin, to its oil filter drawing."""
    page.goto(url + "/vin")
    page.locator("a[href*='/vehicles/']").filter(has_text="Golf").first.click()
    page.wait_for_load_state("load")
    open_branch(page, "Motor")
    open_branch(page, "Silindir bloğu")
    page.locator("#catalog-tree").get_by_role("link", name=OIL_FILTER).click()
    expect(page.locator("img.schema-image")).to_be_visible()


def import_list(page, app, url: str, codes: list[str], tmp_path: Path) -> None:
    """The manager's own branch list, through the upload, the column choice and the import job."""
    rows = ["Stok Kodu;OEM No;Ürün Adı;Birim Fiyat;Stok Miktarı"]
    rows += [f"KD-{index};{code};Filtre;{100 + index},00;2" for index, code in enumerate(codes)]
    listed = tmp_path / "kadikoy-raf.csv"
    listed.write_text("\n".join(rows) + "\n", encoding="utf-8")
    page.goto(url + "/raf")
    page.get_by_label("Liste dosyası").set_input_files(str(listed))
    page.get_by_role("button", name="Yükle ve önizle").click()
    page.wait_for_url(re.compile(r"/raf/aktarim/\d+$"))
    page.get_by_role("button", name="Listeyi aktar").click()
    page.wait_for_load_state("load")
    worker.run_worker(app, burst=True)
    page.goto(url + "/raf")
    expect(page.locator(".shelf-active")).to_contain_text("kadikoy-raf.csv")


def test_a_shop_owner_builds_a_team_that_works_together_and_nobody_outside_sees_it(
    shop_server, stripe_sandbox, page, tmp_path
):
    url, app, owner, mailbox = shop_server
    page.set_viewport_size(DESKTOP)
    sign_in(page, url, owner)

    # The owner names his branches and invites: the plan's three seats are full after two.
    page.goto(url + "/dukkan")
    save_branch(page, 0, HOME)
    add_branch(page, SECOND)
    invite(page, MANAGER, "manager", HOME[0])
    invite(page, CLERK_A, "clerk", HOME[0])
    invite(page, CLERK_B, "clerk", SECOND[0])
    expect(flashed(page)).to_contain_text("Planınızın 3 koltuğunun hepsi dolu")
    assert page.locator(".shop-invitations").get_by_text(CLERK_B).count() == 0

    # He adds a seat: the prorated checkout in the Stripe sandbox, the seat arriving by its webhook.
    page.get_by_role("link", name="Koltuk ekle").click()
    page.wait_for_url(re.compile(r"/subscription#seats$"))
    page.locator("#seats input[name=seats]").fill("4")
    page.get_by_role("button", name="Koltukları değiştir").click()
    page.wait_for_url(stripe_sandbox.url + "/pay/**")
    page.get_by_role("button", name="Öde · Pay").click()
    page.wait_for_url(url + "/subscription?checkout=success")
    expect(page.locator("#seats [data-seats]")).to_have_attribute("data-seats", "4")
    page.goto(url + "/dukkan")
    invite(page, CLERK_B, "clerk", SECOND[0])
    expect(page.locator(".shop-invitations")).to_contain_text(CLERK_B)

    # Everyone joins from the mailed link.
    links = mailed_links(app, mailbox)
    assert set(links) == {MANAGER, CLERK_A, CLERK_B}
    manager, clerk_a, clerk_b = new_page(page), new_page(page), new_page(page)
    join(manager, links[MANAGER], "Mehmet Müdür")
    join(clerk_a, links[CLERK_A], "Ali Tezgâh")
    join(clerk_b, links[CLERK_B], "Berk Tezgâh")
    expect(clerk_b.locator("#my-branch option:checked")).to_have_text(SECOND[0])

    # The manager decodes the Golf and imports his branch's list with two of the oil filter drawing's numbers.
    decode_golf(manager, url)
    open_branch(manager, "Motor")
    open_branch(manager, "Silindir bloğu")
    manager.locator("#catalog-tree").get_by_role("link", name=OIL_FILTER).click()
    expect(manager.locator("img.schema-image")).to_be_visible()
    codes = manager.locator(".parts-table:not(.not-fitting-table) .part-row .oem-code").all_inner_texts()[:2]
    import_list(manager, app, url, codes, tmp_path)
    with app.app_context():  # Ümraniye's list, made straight in its tables (its upload is the same page)
        member = db.session.scalar(sa.select(User).where(User.email == CLERK_B))
        shelf_list(member, [{"oem": codes[0], "own": "UM-1", "price": "99.90", "stock": 5}], "umraniye.csv")
        db.session.remove()

    # A clerk of the other branch finds the car in the shop's history and sees his stock first, then Kadıköy's.
    open_oil_filter_of_history(clerk_b, url)
    row = clerk_b.locator(".part-row", has=clerk_b.locator(".oem-code", has_text=codes[0])).first
    expect(row.locator("[data-shelf-branches]")).to_have_text(f"{SECOND[0]}: 5 · {HOME[0]}: 2")
    row.locator("form.quote-add button").click()
    expect(row.locator(".quote-added")).to_be_visible()
    clerk_b.locator("#catalog-main a.leaf-quote").click()
    clerk_b.wait_for_url(re.compile(r"/teklifler/\d+$"))
    quote_url = clerk_b.url
    clerk_b.get_by_role("button", name=re.compile("bağlantı oluştur", re.IGNORECASE)).click()
    shared = new_page(page)  # the customer's phone, no cookies
    shared.goto(clerk_b.locator("[data-share-link]").input_value())
    expect(shared.locator("[data-quote-branch]")).to_contain_text(f"Şube: {SECOND[0]} · {SECOND[1]} · {SECOND[2]}")

    # The clerk of the first branch sees the quote his colleague started.
    clerk_a.goto(quote_url)
    expect(clerk_a.locator("li.quote-line")).to_have_count(1)

    # The owner sees who did what, and removes a clerk while that clerk's browser is open.
    page.goto(url + "/dukkan/hareketler")
    activity = page.locator("main")
    for seen in ("Mehmet Müdür", "kadikoy-raf.csv", "Berk Tezgâh", "Ali Tezgâh"):
        expect(activity).to_contain_text(seen)
    page.goto(url + "/dukkan")
    member_row = page.locator(".shop-members tr", has_text=CLERK_A)
    member_row.get_by_role("button", name="Kaldır").click()
    expect(page.locator(".shop-members")).not_to_contain_text(CLERK_A)
    clerk_a.goto(quote_url)
    expect(clerk_a).to_have_url(re.compile(r"/login"))

    # A second shop sees nothing of the first: not its history, not its quote, not its people.
    stranger = new_page(page)
    register(stranger, url)
    stranger.goto(url + "/vin")
    assert stranger.locator("a[href*='/vehicles/']").filter(has_text="Golf").count() == 0
    assert stranger.goto(quote_url).status == 404
    stranger.goto(url + "/dukkan")
    for name in ("Mehmet Müdür", "Berk Tezgâh", HOME[0], SECOND[0]):
        expect(stranger.locator("main")).not_to_contain_text(name)
    for tab in (page, manager, clerk_a, clerk_b, shared, stranger):
        assert tab.console_errors == [], tab.console_errors
