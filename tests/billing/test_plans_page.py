"""/plans and /subscription tell a dealer with a plan the truth: which plan is theirs, until when, what each other
plan would mean, a scheduled downgrade; plan names in both languages; no row for a checkout that took no money."""

from tests.conftest import SITE
from tests.support.payments import payments_of, start_checkout


def cards(html: str) -> dict[str, str]:
    """The plan cards of the page by plan key."""
    parts = html.split('data-plan="')[1:]
    return {part.split('"', 1)[0]: part.split("</section>", 1)[0] for part in parts}


def test_the_plans_page_marks_the_current_plan_and_offers_only_what_can_be_done(card_client, dealer, make_subscription):
    make_subscription(dealer, "active", "trio", days_left=20)

    html = card_client.get("/plans").get_data(as_text=True)

    by_key = cards(html)
    assert 'data-change="current"' in by_key["trio"] and "Mevcut planınız" in by_key["trio"]
    assert "tarihine kadar ödendi" in by_key["trio"] and "Ödemeye geç" not in by_key["trio"]
    assert 'data-change="downgrade"' in by_key["single"] and "Dönem sonunda bu plana geç" in by_key["single"]
    assert "/subscription/downgrade" in by_key["single"] and "/checkout" not in by_key["single"]
    assert 'data-change="upgrade"' in by_key["full"] and "Yükselt ve öde" in by_key["full"]
    assert "10 gün" in by_key["full"]  # 20 days of 799 TL a month are 10 days of 1,499 TL a month
    assert "Tüm fiyatlara KDV dahildir." in html


def test_a_trial_dealer_may_buy_every_plan(card_client, dealer, make_subscription):
    make_subscription(dealer, "trial", "full")

    by_key = cards(card_client.get("/plans").get_data(as_text=True))

    assert {key: 'data-change="new"' in card for key, card in by_key.items()} == {
        "single": True,
        "trio": True,
        "full": True,
    }
    assert "Ücretsiz deneme süreniz ödeme onaylandığında sona erer." in by_key["trio"]


def test_plan_names_are_translated(card_client, dealer, billing_catalog):
    turkish = card_client.get("/plans").get_data(as_text=True)
    english = card_client.get("/plans?lang=en").get_data(as_text=True)

    assert all(name in turkish for name in ("Tek Marka", "Üç Marka", "Tam Erişim"))
    assert all(name in english for name in ("Single brand", "Three brands", "Full access"))
    assert "All prices include VAT (KDV)." in english
    api = card_client.get("/api/subscriptions/plans", headers={"Accept-Language": "en"}).get_json()
    assert [plan["name"] for plan in api["plans"]] == ["Single brand", "Three brands", "Full access"]


def test_a_scheduled_downgrade_shows_on_the_subscription_page_with_its_brands(
    card_client, dealer, make_subscription, billing_catalog
):
    make_subscription(dealer, "active", "trio")
    brand = billing_catalog.brands[2]
    body = {"planKey": "single", "brandIds": [brand.id]}
    assert card_client.patch("/api/subscriptions/downgrade", json=body, headers=SITE).status_code == 200

    html = card_client.get("/subscription").get_data(as_text=True)

    assert "planınız Tek Marka olacak" in html and f"({brand.name})" in html
    assert "Mevcut planımda kalayım" in html
    assert 'data-change="downgrade"' in cards(card_client.get("/plans").get_data(as_text=True))["single"]
    assert "Planlandı" in cards(card_client.get("/plans").get_data(as_text=True))["single"]


def test_a_cancelled_checkout_leaves_no_payment_row(card_client, dealer, billing_catalog, stripe_sandbox):
    assert start_checkout(card_client, billing_catalog, "trio").status_code == 200
    assert start_checkout(card_client, billing_catalog, "single").status_code == 200  # the first is abandoned

    history = card_client.get("/api/payments/me").get_json()
    page = card_client.get("/payments").get_data(as_text=True)

    assert [p.status for p in payments_of(dealer)] == ["expired", "pending"]
    assert [row["status"] for row in history] == ["pending"]
    assert "Süresi doldu" not in page
