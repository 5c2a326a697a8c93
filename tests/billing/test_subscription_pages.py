"""Plans and subscription pages: Turkish by default, period switch, trial, cancel-pending, checkout return."""

from datetime import UTC, datetime

import pytest
from bs4 import BeautifulSoup, Tag

from app.billing import views
from app.extensions import db
from tests.conftest import csrf_token_from
from tests.support.markup import elements
from tests.support.payments import payments_of


@pytest.fixture
def user(create_user, sign_in):
    account = create_user()
    sign_in(account.email)
    return account


def page(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200
    return response.get_data(as_text=True)


def test_plans_page_is_public_and_turkish_with_monthly_prices(client, billing_catalog):
    html = page(client, "/plans")

    assert '<h1 class="page-title">Planlar</h1>' in html
    assert "Tek Marka" in html and "Üç Marka" in html and "Tam Erişim" in html
    assert "399,00 ₺" in html and "1.499,00 ₺" in html
    assert "Abone olmak için kayıt olun" in html
    assert "Ücretsiz denemeyi başlat" not in html


def test_the_period_switch_shows_yearly_prices(client, billing_catalog):
    html = page(client, "/plans?period=yearly")

    assert "3.990,00 ₺" in html and "14.990,00 ₺" in html
    assert [link["href"] for link in elements(html, "a[aria-current=true]")] == ["/plans?period=yearly"]
    assert "aylık 332,50 ₺" in html


def test_an_unknown_period_falls_back_to_monthly(client, billing_catalog):
    html = page(client, "/plans?period=weekly")

    assert [link["href"] for link in elements(html, "a[aria-current=true]")] == ["/plans?period=monthly"]
    assert "399,00 ₺" in html


def test_the_brand_picker_matches_each_plan(client, billing_catalog):
    html = page(client, "/plans")

    assert "1 marka seçin" in html and "3 marka seçin" in html
    assert f"Tüm markalar dahil (bugün {len(billing_catalog.brands)} marka)." in html
    assert html.count('name="brand_ids"') == 2 * len(billing_catalog.brands)


def plan_forms(html: str) -> dict[str, Tag]:
    """The plans page's checkout forms by the plan they buy."""
    forms = BeautifulSoup(html, "html.parser").select("form:has(input[name=plan_key])")
    return {form.select_one("input[name=plan_key]")["value"]: form for form in forms}


def test_the_checkout_form_posts_the_choice_with_a_csrf_token(card_client, dealer, billing_catalog, stripe_sandbox):
    html = page(card_client, "/plans?period=yearly")
    forms = plan_forms(html)

    assert sorted(forms) == ["full", "single", "trio"]
    for form in forms.values():
        assert (form["method"].lower(), form["action"]) == ("post", "/checkout")
        assert form.select_one("input[type=hidden][name=billing_period]")["value"] == "yearly"
        assert form.select_one("input[name=csrf_token]")["value"]
    assert forms["trio"].select("input[type=checkbox][name=brand_ids]")
    assert forms["single"].select("input[type=radio][name=brand_ids]")
    assert not forms["full"].select("input[name=brand_ids]")

    # Submitted as a browser would: its hidden fields and three ticked brands, to the real checkout.
    trio = forms["trio"]
    fields = {field["name"]: field["value"] for field in trio.select("input[type=hidden]")}
    fields["brand_ids"] = [box["value"] for box in trio.select("input[type=checkbox][name=brand_ids]")[:3]]
    response = card_client.post(trio["action"], data=fields)

    assert response.status_code == 303
    [payment] = payments_of(dealer)
    assert response.headers["Location"] == f"{stripe_sandbox.url}/pay/{payment.checkout_session_id}"
    session = stripe_sandbox.sessions[payment.checkout_session_id]
    assert (payment.billing_period, payment.amount, session["amount_total"]) == ("yearly", 799_000, 799_000)
    assert sorted(brand.id for brand in payment.subscription.brands) == sorted(map(int, fields["brand_ids"]))
    assert payment.subscription.plan.key == "trio"


def test_without_card_payments_the_button_is_disabled(client, user, billing_catalog, monkeypatch):
    monkeypatch.setattr(views, "CHECKOUT_ENDPOINT", "payments_pages.not_installed")

    soup = BeautifulSoup(page(client, "/plans"), "html.parser")

    buttons = [button for button in soup.select("button") if button.get_text(strip=True) == "Ödemeye geç"]
    assert len(buttons) == 3
    assert all(button.has_attr("disabled") and button["type"] == "button" for button in buttons)
    assert not soup.select("form[action='/checkout']")


def test_an_eligible_user_starts_the_trial_from_the_plans_page(client, user, billing_catalog):
    html = page(client, "/plans")
    assert "Tüm markaları 7 gün ücretsiz deneyin" in html

    response = client.post("/subscription/trial", data={"csrf_token": csrf_token_from(html)})

    assert response.status_code == 303
    assert response.headers["Location"] == "/subscription"
    html = page(client, "/subscription")
    assert "Ücretsiz denemeniz başladı." in html
    assert "Ücretsiz deneme" in html and "Tüm markalar" in html
    assert "Ücretsiz denemeyi başlat" not in page(client, "/plans")


def test_a_second_trial_is_refused_with_a_message(client, user, make_subscription):
    make_subscription(user, "expired", days_left=-1)
    token = csrf_token_from(page(client, "/subscription"))

    response = client.post("/subscription/trial", data={"csrf_token": token}, follow_redirects=True)

    assert "Ücretsiz deneme yalnızca daha önce hiç planı olmamış hesaplar içindir." in response.get_data(as_text=True)


def test_posting_without_the_csrf_token_is_refused(client, user, billing_catalog):
    assert client.post("/subscription/trial").status_code == 403


def test_the_subscription_page_needs_a_session(client):
    response = client.get("/subscription")

    assert response.status_code == 302
    assert "/login" in response.headers["Location"]


def test_without_a_subscription_the_page_points_to_the_plans(client, user):
    html = page(client, "/subscription")

    assert "Henüz bir aboneliğiniz yok." in html
    assert 'href="/plans"' in html


def test_the_subscription_page_shows_status_plan_brands_and_istanbul_dates(client, user, make_subscription):
    subscription = make_subscription(user, "active", "trio")
    subscription.start_date = datetime(2027, 3, 10, 22, 30, tzinfo=UTC)  # already 11 March in Istanbul (UTC+3)
    subscription.end_date = datetime(2099, 4, 10, 22, 30, tzinfo=UTC)
    db.session.commit()

    html = page(client, "/subscription")

    assert "Üç Marka" in html and "Aktif" in html and "Aylık" in html
    assert "11 Mart 2027" in html and "11 Nisan 2099" in html
    assert ", ".join(brand.name for brand in subscription.brands) in html
    assert "Bekleyen aboneliği iptal et" not in html


def test_a_scheduled_downgrade_is_shown(client, user, make_subscription, billing_catalog):
    subscription = make_subscription(user, "active", "trio")
    subscription.scheduled_plan_id = billing_catalog.plans["single"].id
    subscription.scheduled_brand_ids = billing_catalog.brand_ids(1)
    db.session.commit()

    assert "planınız Tek Marka olacak." in page(client, "/subscription")


def test_a_pending_subscription_can_be_cancelled_from_the_page(client, user, make_subscription):
    pending = make_subscription(user, "pending")
    html = page(client, "/subscription")
    assert "Ödeme bekleniyor" in html and "Bekleyen aboneliği iptal et" in html

    response = client.post("/subscription/cancel-pending", data={"csrf_token": csrf_token_from(html)})

    assert response.status_code == 303
    assert response.headers["Location"] == "/subscription"
    db.session.refresh(pending)
    assert pending.status == "expired"
    assert "Ödeme bekleyen abonelik iptal edildi." in page(client, "/subscription")


def test_cancelling_without_a_pending_subscription_says_so(client, user, billing_catalog):
    token = csrf_token_from(page(client, "/subscription"))

    response = client.post("/subscription/cancel-pending", data={"csrf_token": token}, follow_redirects=True)

    assert "Ödeme bekleyen bir aboneliğiniz yok." in response.get_data(as_text=True)


def test_checkout_success_with_an_active_subscription(client, user, make_subscription):
    make_subscription(user, "active")

    assert "Ödemeniz alındı; aboneliğiniz aktif." in page(client, "/subscription?checkout=success")


def test_checkout_success_before_the_webhook_says_it_is_being_confirmed(client, user, make_subscription):
    make_subscription(user, "pending")

    html = page(client, "/subscription?checkout=success")

    assert "Ödemeniz alındı ve onaylanıyor." in html
    assert "aboneliğiniz aktif" not in html


def test_checkout_cancelled(client, user, make_subscription):
    make_subscription(user, "pending")

    html = page(client, "/subscription?checkout=cancelled")

    assert "Ödeme iptal edildi. Tekrar deneyebilirsiniz." in html
    assert 'href="/plans"' in html


def test_the_pages_speak_english_when_asked(client, user, billing_catalog):
    html = client.get("/plans?lang=en").get_data(as_text=True)

    assert "Start free trial" in html and "399.00 ₺" in html


def test_the_header_links_to_plans_and_subscription(client, user):
    html = page(client, "/account")

    assert 'href="/plans">Planlar</a>' in html
    assert 'href="/subscription">Abonelik</a>' in html


def test_subscription_page_links_to_the_payment_history(client, create_user, sign_in):
    sign_in(create_user().email)

    html = client.get("/subscription").get_data(as_text=True)

    assert 'href="/payments"' in html and "Ödeme geçmişi ve makbuzlar" in html
