"""Every page a visitor, a dealer and the admin reach, audited by axe-core (WCAG 2.1 A and AA) in Chromium on a desktop
(in the light and the dark theme) and on a phone: no serious or critical violation. The pages show their real content:
a decoded Golf with its tree, a drawing with its 78 parts, browsed cars, a payment, a caught mail, a changelog entry,
the admin's charts.

One browser for the module, one context per viewport (and theme), one live server and one set of data for all the
audits; the list of pages is checked against the app's routes, so a new page cannot stay out of the audit unnoticed."""

from __future__ import annotations

import io
import re
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import timedelta
from decimal import Decimal
from pathlib import Path
from string import Formatter
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from playwright.sync_api import expect

from app import create_app
from app.accounts.models import User
from app.accounts.services import create_user
from app.auth.sessions import COOKIE_NAME, create_session, sign
from app.billing.models import Payment, Subscription
from app.changelog.models import ChangelogEntry
from app.changelog.services import create_entry
from app.core.db import utcnow
from app.core.loopback import LoopbackServer
from app.demo import seed as demo_seed
from app.extensions import db
from app.notifications import delivery
from app.notifications.local_mail import MailCatcher
from app.notifications.models import OutboxEmail
from app.notifications.services import send_email
from app.quotes.models import QuoteLine
from app.shops.models import ShopInvitation
from app.sources.sandbox.catalog import VIN_COROLLA, VIN_GOLF
from app.suppliers.models import Supplier, SupplierSuggestion
from app.vehicles.pairing import services as pairing
from app.vehicles.race import IN_FLIGHT
from tests.conftest import PASSWORD, SITE, RequestIsolatedClient, csrf_token_from
from tests.e2e.conftest import launch, require_chromium
from tests.e2e.test_demo_page import store_first_branch
from tests.e2e.test_leaf_layout import DESKTOP
from tests.e2e.test_vehicle_page import open_branch
from tests.support.axe import audit, report
from tests.support.committed_dealer import committed_dealer

pytestmark = [pytest.mark.e2e, pytest.mark.no_isolation]

VIEWPORTS = {
    "desktop": {"viewport": DESKTOP},
    "desktop, dark": {"viewport": DESKTOP, "color_scheme": "dark"},
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
}
WAIT_MS = 15_000
INVITED = f"davetli-a11y-{uuid.uuid4().hex[:8]}@example.com"  # the invitation page's address


@dataclass(frozen=True)
class Visit:
    """A page as one role reaches it. `path` is filled from the module's data (ids, codes); `ready` is what shows the
    page's real content is there (in the page, if not in view: a phone keeps the tree in a closed drawer)."""

    name: str
    role: str  # visitor, dealer or admin
    path: str
    ready: str = "main h1"
    status: int = 200


VISITS = (
    # A visitor.
    Visit("landing", "visitor", "/"),
    Visit("plans", "visitor", "/plans", ready="section.plan-card"),
    Visit("sign-in", "visitor", "/login", ready="form input[type=password]"),
    Visit("register", "visitor", "/register", ready="form input[type=password]"),
    Visit("forgotten password", "visitor", "/forgot-password", ready="form input[type=email]"),
    Visit("new password", "visitor", "/reset-password?token=from-the-mail", ready="form input[type=password]"),
    Visit("e-mail verification", "visitor", "/verify-email?token=from-the-mail", ready="main form button"),
    Visit("contact", "visitor", "/contact", ready="form textarea"),
    Visit("cookies", "visitor", "/cookies"),
    Visit("privacy", "visitor", "/privacy"),
    Visit("terms", "visitor", "/terms"),
    Visit("demo", "visitor", "/demo", ready="#catalog-tree .tree-link"),
    Visit("demo drawing", "visitor", "/demo/categories/{demo_leaf}", ready=".part-row button[data-copy]"),
    Visit("VIN preview", "visitor", "/vin/preview?vin={golf_vin}", ready="#vin-preview"),
    Visit("phone's pairing page", "visitor", "/vin/pair/{pairing_token}", ready="form[data-pair-send]"),
    Visit("API documentation", "visitor", "/api/docs", ready=".swagger-ui .opblock-tag"),
    Visit("a shared quote", "visitor", "/teklif/{quote_token}", ready="table"),
    Visit("an invitation to a shop", "visitor", "/davet/{invitation_token}", ready="main form input[type=password]"),
    Visit("missing page", "visitor", "/bu-sayfa-yok", status=404),
    # A dealer.
    Visit("welcome", "dealer", "/welcome"),
    Visit("VIN search and history", "dealer", "/vin", ready="#vin-history a[href^='/vehicles/']"),
    Visit("candidates of a VIN", "dealer", "/vin/decode/{corolla_decode}", ready=".candidate-list .candidate"),
    Visit("vehicle", "dealer", "/vehicles/{golf}", ready="#catalog-tree .tree-link"),
    Visit("group", "dealer", "/vehicles/{golf}/categories/{motor}", ready="#catalog-main .tree-link, #catalog-main a"),
    Visit("drawing and parts", "dealer", "/vehicles/{golf}/categories/{oil_filter}", ready="img.schema-image"),
    Visit("drawing, in English", "dealer", "/vehicles/{golf}/categories/{oil_filter}?lang=en", ready=".part-row"),
    Visit("a part's link", "dealer", "/vehicles/{golf}/catalog/{trail}?{part_query}", ready=".part-row.is-selected"),
    Visit("printed parts list", "dealer", "/vehicles/{golf}/categories/{oil_filter}/print", ready="table"),
    Visit("search", "dealer", "/vehicles/{golf}?q=filtre", ready="#catalog-main .part-row"),
    Visit("where used", "dealer", "/vehicles/{golf}/parts/{part}/where-used"),
    Visit("browsed vehicle (web catalog)", "dealer", "/vehicles/{web_catalog_car}", ready="#catalog-tree .tree-link"),
    Visit("browse: makes", "dealer", "/browse", ready="#browse-makes li"),
    Visit("browse: models", "dealer", "/browse/catapi/{catapi_catalog}", ready="main a[href*='/browse/catapi/']"),
    Visit("browse: cars", "dealer", "/browse/catapi/{catapi_catalog}/{catapi_model}", ready=".browse-cars tbody tr"),
    Visit("browse: web catalog models", "dealer", "/browse/scrape/{scrape_brand}", ready="main a, main select"),
    Visit(
        "browse: web catalog variants",
        "dealer",
        "/browse/scrape/{scrape_brand}?{scrape_query}",
        ready=".browse-cars tbody tr",
    ),  # fmt: skip
    Visit("shelf list", "dealer", "/raf", ready="main form"),
    Visit("shelf import: columns", "dealer", "/raf/aktarim/{shelf_import}", ready="main form select"),
    Visit("shelf import, without JS", "dealer", "/raf/aktarim/{shelf_import}/ilerleme"),
    Visit("quotes", "dealer", "/teklifler", ready="main table tbody tr"),
    Visit("a quote", "dealer", "/teklifler/{quote}", ready="main form"),
    Visit("printed quote", "dealer", "/teklifler/{quote}/print", ready="table"),
    Visit("quote settings", "dealer", "/teklifler/ayarlar", ready="main form input"),
    Visit("my shop", "dealer", "/dukkan", ready="main table tbody tr"),
    Visit("the shop's activity", "dealer", "/dukkan/hareketler", ready="main form"),
    Visit("the shop's API keys", "dealer", "/shop/keys", ready="main form"),
    Visit("suppliers", "dealer", "/dukkan/tedarikciler", ready="main form"),
    Visit("a supplier", "dealer", "/dukkan/tedarikciler/{supplier}", ready="main form"),
    Visit("markup rules", "dealer", "/dukkan/tedarikciler/kar-kurallari", ready="main form"),
    Visit("supplier suggestions", "dealer", "/dukkan/tedarikciler/{supplier}/oneriler", ready="main form"),
    Visit(
        "supplier import: columns",
        "dealer",
        "/dukkan/tedarikciler/{supplier}/aktarim/{supplier_import}",
        ready="main form select",
    ),
    Visit(
        "supplier import, without JS", "dealer", "/dukkan/tedarikciler/{supplier}/aktarim/{supplier_import}/ilerleme"
    ),
    Visit("order lists", "dealer", "/dukkan/siparisler", ready="main form"),
    Visit("equivalents search", "dealer", "/muadil", ready="main form"),
    Visit("a number's equivalents", "dealer", "/muadil/1K0129620D", ready="main"),
    Visit("account", "dealer", "/account", ready="form"),
    Visit("referrals", "dealer", "/account/referrals", ready="#share-url"),
    Visit("subscription", "dealer", "/subscription"),
    Visit("plans, subscribed", "dealer", "/plans", ready="section.plan-card"),
    Visit("payments", "dealer", "/payments", ready="table tbody tr"),
    Visit("what's new", "dealer", "/whats-new", ready="main article, main li"),
    # The admin.
    Visit("dashboard", "admin", "/admin", ready="#chart-decodes[data-drawn='true']"),
    Visit("users", "admin", "/admin/users", ready="table tbody tr"),
    Visit("a user", "admin", "/admin/users/{dealer_id}"),
    Visit("shops", "admin", "/admin/shops", ready="table tbody tr"),
    Visit("a shop", "admin", "/admin/shops/{dealer_shop}"),
    Visit("queues", "admin", "/admin/queues"),
    Visit("referrals (admin)", "admin", "/admin/referrals"),
    Visit("translations", "admin", "/admin/translations", ready="form"),
    Visit("mail", "admin", "/admin/mail", ready="a[href^='/admin/mail/']"),
    Visit("a caught mail", "admin", "/admin/mail/{mail}"),
)

# GET routes that answer something other than a page, each with its reason. Under /api/ every route answers JSON (the
# OpenAPI tests hold each one to its documented model), except the pages named in API_PAGES.
NOT_PAGES = {
    "static": "the front-end's files",
    "storage.serve": "stored schema pictures",
    "mail_links.follow": "a mail's tracked link: counts the click and redirects to its page",
    "impersonation.consume": "the founder's impersonation link: starts the session and redirects",
    "demo_views.register": "counts the demo's call to register and redirects to /register",
    "demo_views.children": "a tree branch for HTMX; without HTMX it redirects to the category's page (audited)",
    "catalog_views.children": "a tree branch for HTMX; without HTMX it redirects to the category's page (audited)",
    "catalog_progress.progress": "the catalog bar's poll for HTMX; without HTMX it redirects to the vehicle page",
    "catalog_exports.parts_csv": "the parts list as CSV",
    "quotes_views.csv_export": "a quote as CSV",
    "orders_views.download": "an order's lines as XLSX",
    "shop_pages.activity_csv": "the shop's activity as CSV",
    "quotes_views.vehicle_quote": "a drawing's quote link: redirects to the vehicle's open quote (audited) or the list",
    "catalog_views.reference": "a reference row followed: redirects to the picture it names (or to its search)",
    "payments_pages.receipt": "redirects to the payment provider's receipt",
    "vehicles_pairing_views.poll": "the counter PC's pairing poll for HTMX (else: the VIN page or a one-line panel)",
}
API_PREFIX = "/api/"
API_PAGES = {"api_docs.docs"}


def html_page_endpoints(app: Flask) -> set[str]:
    return {
        rule.endpoint
        for rule in app.url_map.iter_rules()
        if "GET" in rule.methods and (not rule.rule.startswith(API_PREFIX) or rule.endpoint in API_PAGES)
    }


def audited_endpoints(app: Flask) -> dict[str, str]:
    """The endpoint of each page visit (any value in the path's blanks), by visit name."""
    adapter = app.url_map.bind("localhost")
    blanks = {name: "1" for visit in VISITS for _text, name, _spec, _conv in Formatter().parse(visit.path) if name}
    found = {}
    for visit in VISITS:
        if visit.status == 200:
            path = visit.path.format_map(blanks).partition("?")[0]
            found[visit.name] = adapter.match(path, method="GET")[0]
    return found


def test_every_html_page_of_the_app_is_in_the_audit(app):
    audited = set(audited_endpoints(app).values())
    pages = html_page_endpoints(app)
    rules = {rule.endpoint: rule.rule for rule in app.url_map.iter_rules()}
    left_out = sorted(rules[endpoint] for endpoint in pages - audited - NOT_PAGES.keys())
    assert not left_out, f"HTML GET routes neither in VISITS nor in NOT_PAGES (with the reason): {left_out}"
    assert not audited & NOT_PAGES.keys(), f"NOT_PAGES lists routes the audit visits: {audited & NOT_PAGES.keys()}"
    assert NOT_PAGES.keys() <= pages, f"NOT_PAGES lists routes the app no longer has: {NOT_PAGES.keys() - pages}"


# --- the data and the browser -------------------------------------------------------------------------------------


@dataclass
class Site:
    url: str
    app: Flask
    cookies: dict[str, str]
    values: dict[str, Any] = field(default_factory=dict)

    def become(self, tab, role: str) -> None:
        """The tab's context signed in as `role` (a visitor: signed out)."""
        if tab.role == role:
            return
        tab.context.clear_cookies()
        if role != "visitor":
            tab.context.add_cookies([{"name": COOKIE_NAME, "value": self.cookies[role], "url": self.url}])
        tab.role = role

    def path(self, visit: Visit) -> str:
        return visit.path.format_map(Values(self))

    def start_decode(self, vin: str) -> str:
        """Start the dealer's decode of `vin` as the VIN page does (HTMX); the token its progress page polls."""
        client = self.app.test_client()
        client.set_cookie(COOKIE_NAME, self.cookies["dealer"])
        token = csrf_token_from(client.get("/vin").get_data(as_text=True))
        answer = client.post(
            "/vin/decode", data={"vin": vin, "csrf_token": token}, headers={"HX-Request": "true", **SITE}
        )
        assert answer.status_code == 200, answer.get_data(as_text=True)
        return re.search(r'hx-get="/vin/decode/([^"?]+)', answer.get_data(as_text=True)).group(1)


class Values(dict):
    """The site's values, and a fresh decode when a path asks for one (its progress lives two minutes)."""

    def __init__(self, site: Site) -> None:
        super().__init__(site.values)
        self.site = site

    def __missing__(self, key: str) -> str:
        if key == "corolla_decode":
            return self.site.start_decode(VIN_COROLLA)
        if key == "pairing_token":  # a phone's link lives until its VIN is sent: a fresh one for each visit
            with self.site.app.app_context():
                return pairing.create("accessibility audit").token
        raise KeyError(key)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = launch(playwright)
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def site(app, base_config, _upstream_sandboxes, tmp_path_factory, browser) -> Iterator[Site]:
    folder = tmp_path_factory.mktemp("accessibility")
    catcher = MailCatcher(folder / "mailbox").start()
    _upstream_sandboxes.reset()
    settings = {"STORAGE_DIR": str(folder / "storage"), "MAIL_URL": catcher.url, "MAILBOX_DIR": str(folder / "mailbox")}
    audited = create_app({**base_config, **_upstream_sandboxes.settings, **settings})
    audited.test_client_class = RequestIsolatedClient
    admin_email = f"yonetici-a11y-{uuid.uuid4().hex[:8]}@example.com"
    try:
        with committed_dealer(audited) as dealer:
            with audited.app_context():
                values, cookies = seed_pages(audited, dealer, admin_email)
            server = LoopbackServer(audited, name="live-server").start()
            try:
                built = Site(server.url, audited, cookies, values)
                walk_a_dealer_s_day(browser, built)
                seed_counter_pages(built)
                yield built
            finally:
                server.stop()
                IN_FLIGHT.wait_idle(timeout=10)
                remove_seeded(audited, dealer, admin_email)
    finally:
        catcher.stop()
        _upstream_sandboxes.reset()


def seed_pages(app: Flask, dealer, admin_email: str) -> tuple[dict[str, Any], dict[str, str]]:
    """The demo's Golf, an admin, a payment, a changelog entry and a delivered mail; the sessions of both users."""
    demo_vehicle = demo_seed.store_vehicle(VIN_GOLF)
    demo_leaf = store_first_branch(demo_vehicle)
    app.config["DEMO_VEHICLE_ID"] = demo_vehicle
    admin = create_user(email=admin_email, name="Yönetici", password=PASSWORD, role="admin", email_verified=True)
    subscription = db.session.scalar(sa.select(Subscription).where(Subscription.user_id == dealer.id))
    db.session.add(
        Payment(user_id=dealer.id, subscription_id=subscription.id, amount=149_900, status="completed", method="card",
                billing_period="monthly", receipt_url="https://pay.example.com/receipt/1",
                paid_at=utcnow() - timedelta(days=1))
    )  # fmt: skip
    create_entry({"title": "Parça bağlantısı", "body": "Bir parçanın bağlantısı kopyalanabiliyor.",
                  "changeType": "feature", "version": "1.4"})  # fmt: skip
    mail = send_email(dealer.email, "welcome", name="Sayfa Bayi")
    dealer_user = db.session.get(User, dealer.id)
    cookies = {
        "dealer": create_session(dealer_user, persistent=False),
        "admin": create_session(admin, persistent=False),
    }
    db.session.commit()
    assert delivery.deliver(mail.id) == "sent"
    values = {
        "demo_leaf": demo_leaf,
        "golf_vin": VIN_GOLF,
        "dealer_id": dealer.id,
        "dealer_shop": dealer_user.shop_id,
        "mail": min(path.name for path in Path(app.config["MAILBOX_DIR"]).iterdir()),
    }
    signed = {role: sign(row.id) for role, row in cookies.items()}
    db.session.remove()
    return values, signed


def seed_counter_pages(site: Site) -> None:
    """The dealer's shelf list uploaded (waiting for its columns) and a quote for the Golf with a part and a free
    line, shared: through the API, as a script or the pages would."""
    client = site.app.test_client()
    client.set_cookie(COOKIE_NAME, site.cookies["dealer"])
    values = site.values
    csv = "OEM No;Stok Kodu;Ürün Adı;Fiyat;Stok\n1K0 129 620 D;RAF-1;Hava filtresi;1.250,50;3\n".encode("cp1254")
    upload = client.post("/api/shelf/imports", data={"file": (io.BytesIO(csv), "liste.csv")}, headers=SITE)
    assert upload.status_code == 201, upload.get_data(as_text=True)
    values["shelf_import"] = upload.get_json()["id"]
    quote = client.post("/api/quotes", json={"vehicleId": values["golf"], "customer": "Ahmet Usta"}, headers=SITE)
    assert quote.status_code == 201, quote.get_data(as_text=True)
    values["quote"] = quote_id = quote.get_json()["id"]
    for line in ({"kind": "part", "partId": values["part"]}, {"kind": "free", "name": "İşçilik", "unitPrice": "450"}):
        added = client.post(f"/api/quotes/{quote_id}/lines", json=line, headers=SITE)
        assert added.status_code == 201, added.get_data(as_text=True)
    shared = client.post(f"/api/quotes/{quote_id}/share", headers=SITE)
    assert shared.status_code == 200, shared.get_data(as_text=True)
    values["quote_token"] = shared.get_json()["url"].rstrip("/").rpartition("/")[2]
    supplier = client.post("/api/suppliers", json={"name": "Anadolu Parça", "currency": "EUR"}, headers=SITE)
    assert supplier.status_code == 201, supplier.get_data(as_text=True)
    values["supplier"] = supplier_id = supplier.get_json()["id"]
    listed = client.post(
        f"/api/suppliers/{supplier_id}/imports", data={"file": (io.BytesIO(csv), "fiyat.csv")}, headers=SITE
    )
    assert listed.status_code == 201, listed.get_data(as_text=True)
    values["supplier_import"] = listed.get_json()["id"]
    rule = {"supplierId": supplier_id, "brand": "Bosch", "kind": "percent", "value": "25"}
    marked_up = client.post("/api/suppliers/markup-rules", json=rule, headers=SITE)  # the rules page's table
    assert marked_up.status_code == 200, marked_up.get_data(as_text=True)
    _seed_order_lists(site, client, quote_id, supplier_id)
    _seed_suggestion(site, supplier_id)
    invited = client.post("/api/shop/invitations", json={"email": INVITED, "role": "clerk"}, headers=SITE)
    assert invited.status_code == 201, invited.get_data(as_text=True)
    with site.app.app_context():
        mail = db.session.scalar(sa.select(OutboxEmail).where(OutboxEmail.to_address == INVITED))
        values["invitation_token"] = re.search(r"/davet/([A-Za-z0-9_-]+)", mail.body_text)[1]
        db.session.remove()


def _seed_suggestion(site: Site, supplier_id: int) -> None:
    """A pending suggestion on the supplier (as its list's import writes one), so its page shows the table."""
    with site.app.app_context():
        supplier = db.session.get(Supplier, supplier_id)
        db.session.add(
            SupplierSuggestion(
                shop_id=supplier.shop_id,
                supplier_id=supplier_id,
                own_code="AN-1001",
                line_key="an1001",
                number_key="1k0129620e",
                candidate_key="1k0129620d",
                reason="similar_number",
                score=90.0,
            )  # fmt: skip
        )
        db.session.commit()
        db.session.remove()


def _seed_order_lists(site: Site, client, quote_id: int, supplier_id: int) -> None:
    """Two quote lines with the supplier's offer chosen (as the offer route writes them): one on an open order, one
    waiting, so the order lists page shows both of its parts."""
    with site.app.app_context():
        lines = [
            QuoteLine(
                quote_id=quote_id,
                name=name,
                oem_code="1K0 129 620 D",
                offer_code=code,
                offer_brand="Bosch",
                quantity=Decimal(1),
                unit_cost=Decimal("812.40"),
                supplier_id=supplier_id,
                supplier_name="Anadolu Parça",
                sort_order=10 + number,
            )
            for number, (name, code) in enumerate((("Hava filtresi", "AN-1001"), ("Yağ filtresi", "AN-1002")))
        ]
        db.session.add_all(lines)
        db.session.commit()
        first = lines[0].id
        db.session.remove()
    ordered = client.post("/api/orders", json={"supplierId": supplier_id, "quoteLineIds": [first]}, headers=SITE)
    assert ordered.status_code == 200, ordered.get_data(as_text=True)


def walk_a_dealer_s_day(browser, site: Site) -> None:
    """Decode the Golf, open its oil filter drawing and browse two makes without a VIN, noting the ids on the way."""
    context = browser.new_context(locale="tr-TR", viewport=DESKTOP)
    try:
        tab = context.new_page()
        tab.role = "visitor"
        site.become(tab, "dealer")
        values = site.values
        tab.goto(site.url + "/vin")
        tab.get_by_label("Şasi numarası (VIN)").fill(VIN_GOLF)
        tab.get_by_role("button", name="Aracı bul").click()
        expect(tab).to_have_url(re.compile(r"/vehicles/\d+$"), timeout=WAIT_MS)
        values["golf"] = number_in(tab.url, r"/vehicles/(\d+)$")
        tree = tab.locator("#catalog-tree")
        values["motor"] = number_in(tree.get_by_role("link", name="Motor", exact=True).get_attribute("href"))
        open_branch(tab, "Motor")
        open_branch(tab, "Silindir bloğu")
        tree.get_by_role("link", name=re.compile(r"^Yağ filtresi 103-010$")).click()
        tab.wait_for_url(re.compile(r"/categories/\d+$"))
        values["oil_filter"] = number_in(tab.url)
        values["part"] = number_in(tab.locator(".where-used-link").first.get_attribute("href"), r"/parts/(\d+)/")
        values["trail"] = tab.locator("[data-leaf]").get_attribute("data-deep-link").partition("/catalog/")[2]
        row = tab.locator(".part-row[data-position]").nth(3)
        position, code = row.get_attribute("data-position"), row.locator("button[data-copy]").get_attribute("data-copy")
        values["part_query"] = f"pos={position}&oem={code}"

        tab.goto(site.url + "/browse")
        tab.locator("#browse-makes").get_by_role("link", name="Volkswagen").first.click()
        tab.get_by_role("link", name="Golf").first.click()
        tab.wait_for_url(re.compile(r"/browse/catapi/[^/]+/[^/?]+"))
        expect(tab.locator(".browse-cars tbody tr").first).to_be_visible()
        values["catapi_catalog"], values["catapi_model"] = re.search(
            r"/browse/catapi/([^/]+)/([^/?]+)", tab.url
        ).groups()
        tab.goto(site.url + "/browse")
        tab.locator("#browse-makes a[href*='/browse/scrape/']").first.click()
        tab.locator(".browse-options a").first.click()  # the wizard's first choice
        expect(tab).to_have_url(re.compile(r"/browse/scrape/[^/?]+\?.+"))  # its address, pushed by htmx
        expect(tab.locator(".browse-cars tbody tr").first).to_be_visible()
        values["scrape_brand"], values["scrape_query"] = re.search(r"/browse/scrape/([^/?]+)\?(.+)$", tab.url).groups()
        tab.locator(".browse-cars tbody tr button").first.click()
        tab.wait_for_url(re.compile(r"/vehicles/\d+$"))
        values["web_catalog_car"] = number_in(tab.url, r"/vehicles/(\d+)$")
    finally:
        context.close()


def number_in(text: str, pattern: str = r"/categories/(\d+)") -> int:
    return int(re.search(pattern, text).group(1))


def remove_seeded(app: Flask, dealer, admin_email: str) -> None:
    """What seed_pages added; committed_dealer removes the dealer, its vehicles and its decodes."""
    with app.app_context():
        db.session.execute(sa.delete(Payment).where(Payment.user_id == dealer.id))
        db.session.execute(sa.delete(ChangelogEntry).where(ChangelogEntry.title == "Parça bağlantısı"))
        db.session.execute(sa.delete(OutboxEmail).where(OutboxEmail.to_address.in_([dealer.email, INVITED])))
        db.session.execute(sa.delete(ShopInvitation).where(ShopInvitation.email == INVITED))
        db.session.execute(sa.delete(User).where(User.email == admin_email))
        db.session.commit()
        db.session.remove()


@pytest.fixture(scope="module", params=list(VIEWPORTS))
def tab(request, browser, site) -> Iterator[Any]:
    context = browser.new_context(locale="tr-TR", **VIEWPORTS[request.param])
    page = context.new_page()
    page.role = "visitor"
    page.viewport_name = request.param
    yield page
    context.close()


# --- the audit ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("visit", VISITS, ids=lambda visit: f"{visit.role}: {visit.name}")
def test_no_serious_or_critical_violation(site, tab, visit):
    site.become(tab, visit.role)
    path = site.path(visit)
    answer = tab.goto(site.url + path)
    assert answer.status == visit.status, f"{path} answered {answer.status}"
    expect(tab.locator(visit.ready).first).to_be_attached(timeout=WAIT_MS)
    findings = audit(tab, f"{visit.name} ({path}, {tab.viewport_name})")
    if findings:
        pytest.fail("axe-core (WCAG 2.1 A/AA) found:\n" + report(findings), pytrace=False)
