"""Subscribing with a card in a real browser: plans, the hosted checkout (the Stripe sandbox), and back active."""

import uuid

import pytest

from app.billing import seed
from app.core.loopback import LoopbackServer
from app.extensions import db
from tests.support.payments import WEBHOOK_SECRET

pytestmark = [pytest.mark.e2e, pytest.mark.no_isolation]

PASSWORD = "triger-kayisi-9"
BRANDS = ("Audi", "BMW", "Fiat")


@pytest.fixture
def card_live_server(make_app, stripe_sandbox):  # noqa: ANN001, ANN201
    """A live server whose checkouts go to the sandbox, and whose webhook the sandbox calls back."""
    app = make_app(
        STRIPE_SECRET_KEY="sk_test_e2e",
        STRIPE_WEBHOOK_SECRET=WEBHOOK_SECRET,
        STRIPE_API_BASE=stripe_sandbox.url,
        CHECKOUT_ORIGIN=stripe_sandbox.url,
    )
    with app.app_context():
        seed.brands()
        seed.plans()
        db.session.commit()
    server = LoopbackServer(app, name="live-server").start()
    url = server.url
    app.config["BASE_URL"] = url  # the provider's return addresses: known only once the port is
    stripe_sandbox.webhook_url = url + "/api/payments/card/webhook"
    yield url
    server.stop()


def register(page, live_server: str) -> None:  # noqa: ANN001
    page.goto(live_server + "/register")
    page.get_by_label("Ad soyad").fill("Abone Bayi")
    page.get_by_label("E-posta").fill(f"e2e-pay-{uuid.uuid4().hex[:12]}@example.com")
    page.get_by_label("Şifre").fill(PASSWORD)
    page.get_by_role("button", name="Kayıt ol").click()
    page.wait_for_url(live_server + "/")


def test_subscribe_to_three_brands_with_a_card(card_live_server, stripe_sandbox, page):
    register(page, card_live_server)

    page.goto(card_live_server + "/plans")
    trio = page.locator("section.plan-card", has=page.get_by_role("heading", name="Üç Marka"))
    for brand in BRANDS:
        trio.get_by_label(brand, exact=True).check()
    trio.get_by_role("button", name="Ödemeye geç").click()

    page.wait_for_url(stripe_sandbox.url + "/pay/**")
    assert "799,00 TRY" in page.locator(".amount").inner_text()
    page.get_by_role("button", name="Öde · Pay").click()

    page.wait_for_url(card_live_server + "/subscription?checkout=success")
    assert page.get_by_text("Ödemeniz alındı; aboneliğiniz aktif.").is_visible()
    card = page.locator(".subscription-card")
    assert "Üç Marka" in card.locator("h2").inner_text() and "Aktif" in card.locator("h2").inner_text()
    assert card.get_by_text(", ".join(BRANDS)).is_visible()
    assert page.console_errors == []
