"""The Stripe sandbox itself: refunds as Stripe makes them (through the real stripe SDK), and hosted pages that look
like the product."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import pytest
import requests
import stripe

from app.billing.sandbox.server import StripeSandbox
from app.core.loopback import LoopbackServer

APP_CSS = Path(__file__).resolve().parents[2] / "app" / "static" / "css" / "app.css"


@pytest.fixture
def sdk(stripe_sandbox):
    return stripe.StripeClient("sk_test_x", base_addresses={"api": stripe_sandbox.url}, max_network_retries=0)


def paid_session(sandbox: StripeSandbox, name: str = "Parça Bul Üç Marka, aylık", amount: int = 149_900) -> dict:
    """A session created through the API as our gateway does, then paid; returns the session."""
    client = stripe.StripeClient("sk_test_x", base_addresses={"api": sandbox.url})
    session = client.v1.checkout.sessions.create(
        {
            "mode": "payment",
            "line_items": [
                {
                    "quantity": 1,
                    "price_data": {"currency": "try", "unit_amount": amount, "product_data": {"name": name}},
                }
            ],
            "success_url": "http://localhost/subscription?checkout=success",
            "cancel_url": "http://localhost/subscription?checkout=cancelled",
            "customer_email": "bayi@example.com",
        }
    )
    sandbox.complete(session.id)
    return sandbox.sessions[session.id]


# --- refunds --------------------------------------------------------------------------------------------------------


def test_refunds_track_what_is_left_on_the_charge(stripe_sandbox, sdk):
    session = paid_session(stripe_sandbox)
    intent = session["payment_intent"]

    first = sdk.v1.refunds.create({"payment_intent": intent, "amount": 49_900, "metadata": {"reason": "x"}})
    rest = sdk.v1.refunds.create({"payment_intent": intent})

    assert (first.amount, rest.amount, first.metadata["reason"]) == (49_900, 100_000, "x")
    charge = stripe_sandbox.charges[stripe_sandbox.payment_intents[intent]["latest_charge"]]
    assert (charge["amount_refunded"], charge["refunded"]) == (149_900, True)
    assert [item["id"] for item in charge["refunds"]["data"]] == [rest.id, first.id]
    events = stripe_sandbox.sent("charge.refunded")
    assert [event["data"]["object"]["amount_refunded"] for event in events] == [49_900, 149_900]


def test_a_refund_over_what_is_left_is_refused_like_stripe(stripe_sandbox, sdk):
    intent = paid_session(stripe_sandbox)["payment_intent"]
    sdk.v1.refunds.create({"payment_intent": intent, "amount": 100_000})

    with pytest.raises(stripe.InvalidRequestError) as refused:
        sdk.v1.refunds.create({"payment_intent": intent, "amount": 50_000})
    assert refused.value.code == "amount_too_large"
    sdk.v1.refunds.create({"payment_intent": intent})
    with pytest.raises(stripe.InvalidRequestError) as again:
        sdk.v1.refunds.create({"payment_intent": intent, "amount": 1})
    assert again.value.code == "charge_already_refunded"
    assert len(stripe_sandbox.sent("charge.refunded")) == 2


def test_the_same_idempotency_key_gets_the_same_refund_and_no_second_event(stripe_sandbox, sdk):
    intent = paid_session(stripe_sandbox)["payment_intent"]
    params = {"payment_intent": intent, "amount": 10_000, "metadata": {"founder_id": "f1"}}

    first = sdk.v1.refunds.create(params, {"idempotency_key": "key-1"})
    again = sdk.v1.refunds.create(params, {"idempotency_key": "key-1"})

    assert again.id == first.id and len(stripe_sandbox.refunds) == 1
    assert len(stripe_sandbox.sent("charge.refunded")) == 1
    with pytest.raises(stripe.IdempotencyError):
        sdk.v1.refunds.create({**params, "amount": 20_000}, {"idempotency_key": "key-1"})


def test_the_refund_notice_is_delivered_after_the_answer(stripe_sandbox, sdk):
    """The refund call returns while its webhook is still held up: a caller inside a transaction never waits on it."""
    release, received = threading.Event(), []

    def webhook(environ, start_response):
        release.wait(timeout=10)
        received.append(json.loads(environ["wsgi.input"].read(int(environ["CONTENT_LENGTH"]))))
        start_response("200 OK", [("Content-Type", "application/json")])
        return [b"{}"]

    receiver = LoopbackServer(webhook, name="test-webhook-receiver", quiet=True).start()
    try:
        intent = paid_session(stripe_sandbox)["payment_intent"]
        stripe_sandbox.webhook_url = receiver.url + "/hook"

        refund = sdk.v1.refunds.create({"payment_intent": intent, "amount": 100})

        assert received == []  # answered while the delivery is still waiting
        release.set()
        deadline = time.monotonic() + 10
        while not received and time.monotonic() < deadline:
            time.sleep(0.02)
    finally:
        release.set()
        receiver.stop()
    [event] = received
    assert event["type"] == "charge.refunded" and event["data"]["object"]["refunds"]["data"][0]["id"] == refund.id


def test_disputes_open_and_close(stripe_sandbox):
    intent = paid_session(stripe_sandbox)["payment_intent"]

    opened = stripe_sandbox.open_dispute(intent, reason="duplicate")
    closed = stripe_sandbox.close_dispute(opened["data"]["object"]["id"], "lost")

    assert (opened["type"], closed["type"]) == ("charge.dispute.created", "charge.dispute.closed")
    assert opened["data"]["object"]["payment_intent"] == intent and opened["data"]["object"]["reason"] == "duplicate"
    assert closed["data"]["object"]["status"] == "lost"
    with pytest.raises(ValueError, match="dispute closes"):
        stripe_sandbox.close_dispute(opened["data"]["object"]["id"], "maybe")


# --- pages that look like the product ---------------------------------------------------------------------------------


def test_the_checkout_page_uses_the_products_look_and_lira_sign(stripe_sandbox):
    session = paid_session(stripe_sandbox)
    session["status"] = "open"  # as before it was paid

    page = requests.get(session["url"], timeout=5)

    assert page.status_code == 200 and page.headers["Content-Type"].startswith("text/html")
    html = page.text
    assert "<link rel='stylesheet' href='/assets/app.css'>" in html
    assert "class='site-header'" in html and "Parça Bul" in html
    assert "1.499,00 ₺" in html
    assert "<button type='submit' class='button button-block'>Öde · Pay</button>" in html
    assert "class='button button-secondary button-block'>Vazgeç · Cancel</button>" in html
    assert "Test ortamı" in html and "Sandbox" in html


def test_the_product_stylesheet_is_served_by_the_sandbox(stripe_sandbox):
    response = requests.get(stripe_sandbox.url + "/assets/app.css", timeout=5)

    assert response.status_code == 200 and response.headers["Content-Type"].startswith("text/css")
    assert response.content == APP_CSS.read_bytes()
    assert requests.get(stripe_sandbox.url + "/assets/secrets.env", timeout=5).status_code == 404
    assert requests.get(stripe_sandbox.url + "/assets/..%2F..%2Fconfig.py", timeout=5).status_code == 404


def test_the_receipt_page_uses_the_products_look_and_shows_refunds(stripe_sandbox, sdk):
    session = paid_session(stripe_sandbox, amount=79_900)
    intent = stripe_sandbox.payment_intents[session["payment_intent"]]
    sdk.v1.refunds.create({"payment_intent": intent["id"], "amount": 20_000})
    charge = stripe_sandbox.charges[intent["latest_charge"]]

    html = requests.get(charge["receipt_url"], timeout=5).text

    assert "<link rel='stylesheet' href='/assets/app.css'>" in html
    assert "Makbuz · Receipt" in html and "799,00 ₺" in html and "200,00 ₺" in html


def test_the_pages_escape_what_the_session_carries(stripe_sandbox):
    session = paid_session(stripe_sandbox, name="<script>alert(1)</script>")
    session["status"] = "open"

    html = requests.get(session["url"], timeout=5).text

    assert "<script>" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
