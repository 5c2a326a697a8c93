"""Subscribing with a card in a real browser: plans, the hosted checkout (the Stripe sandbox), and back active."""

import pytest

from tests.support.browser import register

pytestmark = [pytest.mark.e2e, pytest.mark.no_isolation]

BRANDS = ("Audi", "BMW", "Fiat")


def test_subscribe_to_three_brands_with_a_card(card_live_server, stripe_sandbox, page):
    register(page, card_live_server)

    page.goto(card_live_server + "/plans")
    trio = page.locator("section.plan-card", has=page.get_by_role("heading", name="Üç Marka"))
    for brand in BRANDS:
        trio.get_by_label(brand, exact=True).check()
    trio.get_by_role("button", name="Ödemeye geç").click()

    page.wait_for_url(stripe_sandbox.url + "/pay/**")
    assert "799,00 ₺" in page.locator(".amount").inner_text()
    page.get_by_role("button", name="Öde · Pay").click()

    page.wait_for_url(card_live_server + "/subscription?checkout=success")
    assert page.get_by_text("Ödemeniz alındı; aboneliğiniz aktif.").is_visible()
    card = page.locator(".subscription-card")
    assert "Üç Marka" in card.locator("h2").inner_text() and "Aktif" in card.locator("h2").inner_text()
    assert card.get_by_text(", ".join(BRANDS)).is_visible()
    assert page.console_errors == []
