"""The dealer back from the hosted checkout: `payment_redirect_returned` is reported once per checkout and outcome,
naming the checkout (its amount in kuruş, plan, period, and the payment's state on return), never with $revenue."""

from __future__ import annotations

from datetime import timedelta
from urllib.parse import urlsplit

import pytest
import requests
import sqlalchemy as sa

from app.billing.models import Payment
from app.extensions import db
from tests.support.payments import payments_of, start_checkout

EVENT = "payment_redirect_returned"


def leave_checkout(client, catalog, sandbox, button: str) -> str:
    """Start a trio checkout and press Pay or Cancel on the provider's page; where the provider sends the dealer."""
    url = start_checkout(client, catalog, "trio").get_json()["url"]
    answer = requests.post(f"{url}/{button}", allow_redirects=False, timeout=10)
    assert answer.status_code == 303
    return answer.headers["Location"]


def come_back(client, location: str) -> str:
    parts = urlsplit(location)
    response = client.get(f"{parts.path}?{parts.query}")
    assert response.status_code == 200
    return response.get_data(as_text=True)


@pytest.mark.parametrize(("button", "outcome"), [("complete", "success"), ("cancel", "cancelled")])
def test_the_return_from_the_provider_is_reported_once(
    card_client, dealer, billing_catalog, stripe_sandbox, posthog, button, outcome
):
    location = leave_checkout(card_client, billing_catalog, stripe_sandbox, button)

    come_back(card_client, location)
    come_back(card_client, location)  # a reload, or "Refresh" while the payment is being confirmed

    [payment] = payments_of(dealer)
    [event] = posthog.named(EVENT)
    assert location.endswith(f"/subscription?checkout={outcome}")
    assert event["distinct_id"] == str(dealer.id)
    properties = event["properties"]
    assert (properties["outcome"], properties["status"]) == (outcome, payment.status)
    assert (properties["amount"], properties["plan"], properties["billing_period"]) == (79_900, "trio", "monthly")
    assert properties["method"] == "card" and "$revenue" not in properties


def test_each_checkout_s_return_counts_and_the_newest_is_named(
    card_client, dealer, billing_catalog, stripe_sandbox, posthog
):
    first = leave_checkout(card_client, billing_catalog, stripe_sandbox, "cancel")
    come_back(card_client, first)
    url = start_checkout(card_client, billing_catalog, "full", "yearly").get_json()["url"]
    second = requests.post(f"{url}/complete", allow_redirects=False, timeout=10).headers["Location"]

    come_back(card_client, second)

    returns = posthog.named(EVENT)
    assert [(item["properties"]["outcome"], item["properties"]["plan"]) for item in returns] == [
        ("cancelled", "trio"),
        ("success", "full"),
    ]
    assert returns[1]["properties"]["amount"] == 1_499_000


@pytest.mark.parametrize("query", ["", "?checkout=maybe", "?checkout=success"])
def test_nothing_is_reported_without_a_return_from_a_recent_checkout(
    card_client, dealer, billing_catalog, stripe_sandbox, posthog, query
):
    start_checkout(card_client, billing_catalog, "trio")
    [payment] = payments_of(dealer)
    if query.endswith("success"):  # a checkout older than a provider session lives: no return can come from it
        db.session.execute(
            sa.update(Payment).where(Payment.id == payment.id).values(created_at=payment.created_at - timedelta(days=2))
        )
        db.session.commit()

    response = card_client.get(f"/subscription{query}")

    assert response.status_code == 200
    assert posthog.named(EVENT) == []


def test_a_dealer_who_never_paid_by_card_reports_nothing(card_client, dealer, posthog):
    assert card_client.get("/subscription?checkout=success").status_code == 200
    assert card_client.get("/subscription?checkout=cancelled").status_code == 200
    assert posthog.named(EVENT) == []
