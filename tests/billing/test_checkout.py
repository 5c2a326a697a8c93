"""Starting a card checkout: a pending subscription, its pending payment and a hosted session at the provider."""

import pytest

from tests.conftest import SITE, csrf_token_from
from tests.support.payments import payments_of, sign_in_client, start_checkout, subscriptions_of


def test_checkout_creates_the_pending_subscription_payment_and_provider_session(
    card_client, dealer, billing_catalog, stripe_sandbox, posthog
):
    response = start_checkout(card_client, billing_catalog, "trio", "monthly")

    assert response.status_code == 200, response.get_json()
    [subscription] = subscriptions_of(dealer)
    [payment] = payments_of(dealer)
    session = stripe_sandbox.sessions[payment.checkout_session_id]
    assert response.get_json() == {"url": f"{stripe_sandbox.url}/pay/{session['id']}"}
    assert (subscription.status, subscription.plan.key, len(subscription.brands)) == ("pending", "trio", 3)
    assert (payment.status, payment.method, payment.amount, payment.currency) == ("pending", "card", 79_900, "TRY")
    assert (payment.billing_period, payment.subscription_id) == ("monthly", subscription.id)
    assert (session["amount_total"], session["currency"]) == (79_900, "try")
    ids = {"subscription_id": str(subscription.id), "payment_id": str(payment.id)}
    # The trio plan includes two seats: the subscription carries them, one line for the plan and no extra seats.
    assert session["metadata"] == {**ids, "purpose": "plan", "seats": "2"}
    assert [(line["description"], line["quantity"]) for line in session["line_items"]["data"]] == [
        ("Parça Bul Üç Marka, aylık", 1)
    ]
    assert session["client_reference_id"] == str(subscription.id)
    assert session["customer_email"] == dealer.email
    assert session["success_url"] == "http://localhost/subscription?checkout=success"
    assert session["cancel_url"] == "http://localhost/subscription?checkout=cancelled"
    [started] = posthog.named("checkout_started")
    assert started["properties"]["amount"] == 79_900
    assert started["properties"]["plan"] == "trio"
    assert "$revenue" not in started["properties"]


def test_the_yearly_full_plan_is_charged_its_yearly_price_without_a_brand_choice(
    card_client, dealer, billing_catalog, stripe_sandbox
):
    response = start_checkout(card_client, billing_catalog, "full", "yearly")

    assert response.status_code == 200, response.get_json()
    [payment] = payments_of(dealer)
    assert (payment.amount, payment.billing_period) == (1_499_000, "yearly")
    assert stripe_sandbox.sessions[payment.checkout_session_id]["amount_total"] == 1_499_000


@pytest.mark.parametrize(
    ("plan_key", "period", "pick", "code"),
    [
        ("platinum", "monthly", lambda ids: ids[:1], "invalid_plan"),
        ("trio", "weekly", lambda ids: ids[:3], "invalid_billing_period"),
        ("trio", "monthly", lambda ids: ids[:2], "invalid_brand_set"),
        ("trio", "monthly", lambda ids: [ids[0], ids[0], ids[1]], "invalid_brand_set"),
        ("trio", "monthly", lambda ids: [*ids[:2], 999_999], "invalid_brand_set"),
        ("trio", "monthly", lambda ids: "1,2,3", "invalid_brand_set"),
    ],
)
def test_an_invalid_choice_is_refused_and_nothing_is_written(
    card_client, dealer, billing_catalog, stripe_sandbox, plan_key, period, pick, code
):
    body = {"planKey": plan_key, "billingPeriod": period, "brandIds": pick(billing_catalog.all_brand_ids)}

    response = card_client.post("/api/payments/card/checkout", json=body, headers=SITE)

    assert response.status_code == 400
    assert response.get_json()["error"]["code"] == code
    assert subscriptions_of(dealer) == [] and payments_of(dealer) == []
    assert stripe_sandbox.sessions == {}


def test_a_new_checkout_expires_the_older_pending_one_here_and_at_the_provider(
    card_client, dealer, billing_catalog, stripe_sandbox
):
    start_checkout(card_client, billing_catalog, "trio")
    response = start_checkout(card_client, billing_catalog, "single")

    assert response.status_code == 200
    older, newer = subscriptions_of(dealer)
    older_payment, newer_payment = payments_of(dealer)
    assert (older.status, newer.status) == ("expired", "pending")
    assert (older_payment.status, newer_payment.status) == ("expired", "pending")
    assert stripe_sandbox.sessions[older_payment.checkout_session_id]["status"] == "expired"
    assert stripe_sandbox.sessions[newer_payment.checkout_session_id]["status"] == "open"


def test_an_unreachable_provider_is_a_502_and_nothing_is_written(make_app, create_user, billing_catalog):
    app = make_app(STRIPE_SECRET_KEY="sk_test_x", STRIPE_API_BASE="http://127.0.0.1:9")
    client = app.test_client()
    user = create_user()
    sign_in_client(client, user.email)

    response = start_checkout(client, billing_catalog)

    assert response.status_code == 502
    assert response.get_json()["error"]["code"] == "payment_provider_error"
    assert "sk_test_x" not in response.get_data(as_text=True)
    assert subscriptions_of(user) == [] and payments_of(user) == []


def test_checkout_needs_a_session(card_client, billing_catalog):
    response = start_checkout(card_client, billing_catalog)

    assert response.status_code == 401


# The plans page form


def plans_form_token(client) -> str:
    return csrf_token_from(client.get("/plans").get_data(as_text=True))


def test_the_plans_form_redirects_to_the_hosted_checkout(card_client, dealer, billing_catalog, stripe_sandbox):
    form = {
        "csrf_token": plans_form_token(card_client),
        "plan_key": "trio",
        "billing_period": "monthly",
        "brand_ids": [str(brand_id) for brand_id in billing_catalog.all_brand_ids[:3]],
    }

    response = card_client.post("/checkout", data=form)

    assert response.status_code == 303
    [payment] = payments_of(dealer)
    assert response.headers["Location"] == f"{stripe_sandbox.url}/pay/{payment.checkout_session_id}"


def test_an_invalid_plans_form_goes_back_to_the_plans_with_the_reason(
    card_client, dealer, billing_catalog, stripe_sandbox
):
    form = {
        "csrf_token": plans_form_token(card_client),
        "plan_key": "trio",
        "billing_period": "monthly",
        "brand_ids": [str(billing_catalog.all_brand_ids[0])],
    }

    response = card_client.post("/checkout", data=form)

    assert response.status_code == 303
    assert response.headers["Location"].startswith("/plans")
    assert "Bu plan için tam olarak 3 marka seçin" in card_client.get(response.headers["Location"]).get_data(
        as_text=True
    )
    assert subscriptions_of(dealer) == [] and payments_of(dealer) == []
    assert stripe_sandbox.sessions == {}


def test_the_plans_form_needs_its_csrf_token(card_client, dealer, billing_catalog):
    response = card_client.post("/checkout", data={"plan_key": "trio", "billing_period": "monthly"})

    assert response.status_code == 403
    assert payments_of(dealer) == []
