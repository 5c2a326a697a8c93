"""The card provider's webhook: signed events move payments and subscriptions forward, once and never back."""

import pytest
import sqlalchemy as sa

from app.billing.models import ProviderEvent, Subscription
from app.extensions import db
from tests.conftest import outbox
from tests.support.payments import WEBHOOK_URL, deliver, payments_of


def state(user) -> tuple[str, str]:
    """(payment status, subscription status) of the user's only payment."""
    [payment] = payments_of(user)
    return payment.status, db.session.get(Subscription, payment.subscription_id).status


def test_a_completed_checkout_activates_the_subscription_and_tells_the_customer(
    webhook_client, checkout, stripe_sandbox, posthog
):
    user, session_id = checkout

    response = deliver(webhook_client, stripe_sandbox, stripe_sandbox.complete(session_id))

    assert response.status_code == 200
    assert response.get_json() == {"received": True}
    [payment] = payments_of(user)
    subscription = db.session.get(Subscription, payment.subscription_id)
    assert (payment.status, subscription.status) == ("completed", "active")
    assert payment.paid_at is not None
    assert payment.payment_intent_id == stripe_sandbox.sessions[session_id]["payment_intent"]
    assert subscription.end_date is not None and len(subscription.brands) == 3
    [email] = outbox("payment_success")
    assert email.to_address == user.email
    assert "799,00 ₺" in email.body_text and "Üç Marka" in email.subject
    [success] = posthog.named("payment_success")
    assert success["properties"]["amount"] == 79_900
    assert success["properties"]["currency"] == "TRY"
    assert (success["properties"]["plan"], success["properties"]["billing_period"]) == ("trio", "monthly")
    assert "$revenue" not in success["properties"]
    [activated] = posthog.named("subscription_activated")
    assert activated["properties"]["method"] == "card"


@pytest.mark.parametrize("signature", ["t=1,v1=deadbeef", None, "wrong-secret"])
def test_a_badly_signed_or_unsigned_event_is_refused_and_changes_nothing(
    webhook_client, checkout, stripe_sandbox, posthog, signature
):
    user, session_id = checkout
    event = stripe_sandbox.complete(session_id)
    if signature == "wrong-secret":
        response = deliver(webhook_client, stripe_sandbox, event, secret="whsec_someone_else")
    else:
        payload, headers = stripe_sandbox.signed(event)
        headers = {"Content-Type": "application/json"} | ({"Stripe-Signature": signature} if signature else {})
        response = webhook_client.post(WEBHOOK_URL, data=payload, headers=headers)

    assert response.status_code == 400
    assert response.get_json()["error"]["code"] == "invalid_signature"
    assert state(user) == ("pending", "pending")
    assert db.session.scalar(sa.select(sa.func.count()).select_from(ProviderEvent)) == 0
    assert outbox("payment_success") == [] and posthog.named("payment_success") == []


def test_a_tampered_body_is_refused(webhook_client, checkout, stripe_sandbox):
    user, session_id = checkout
    payload, headers = stripe_sandbox.signed(stripe_sandbox.complete(session_id))

    response = webhook_client.post(WEBHOOK_URL, data=payload.replace(b"paid", b"PAID"), headers=headers)

    assert response.status_code == 400
    assert state(user) == ("pending", "pending")


def test_the_same_event_twice_is_applied_once(webhook_client, checkout, stripe_sandbox, posthog):
    user, session_id = checkout
    event = stripe_sandbox.complete(session_id)

    first = deliver(webhook_client, stripe_sandbox, event)
    second = deliver(webhook_client, stripe_sandbox, event)

    assert (first.status_code, second.status_code) == (200, 200)
    assert second.get_json() == {"received": True}
    assert state(user) == ("completed", "active")
    assert len(outbox("payment_success")) == 1
    assert len(posthog.named("payment_success")) == 1 and len(posthog.named("subscription_activated")) == 1


def test_a_second_completed_event_for_a_paid_payment_changes_nothing(webhook_client, checkout, stripe_sandbox):
    user, session_id = checkout
    deliver(webhook_client, stripe_sandbox, stripe_sandbox.complete(session_id))
    [payment] = payments_of(user)
    paid_at = payment.paid_at

    another = stripe_sandbox.make_event("checkout.session.completed", stripe_sandbox.sessions[session_id])
    assert deliver(webhook_client, stripe_sandbox, another).status_code == 200

    assert state(user) == ("completed", "active")
    assert payments_of(user)[0].paid_at == paid_at
    assert len(outbox("payment_success")) == 1


def test_an_expired_session_expires_the_pending_subscription(webhook_client, checkout, stripe_sandbox):
    user, session_id = checkout

    response = deliver(webhook_client, stripe_sandbox, stripe_sandbox.expire(session_id))

    assert response.status_code == 200
    assert state(user) == ("expired", "expired")


def test_an_expired_event_after_completion_changes_nothing(webhook_client, checkout, stripe_sandbox):
    user, session_id = checkout
    completed = stripe_sandbox.complete(session_id)
    expired = stripe_sandbox.make_event(
        "checkout.session.expired", {**completed["data"]["object"], "status": "expired"}
    )

    deliver(webhook_client, stripe_sandbox, completed)
    response = deliver(webhook_client, stripe_sandbox, expired)

    assert response.status_code == 200
    assert state(user) == ("completed", "active")


def test_a_completion_after_expiry_gives_the_money_back_and_does_not_revive_the_subscription(
    webhook_client, checkout, stripe_sandbox, posthog
):
    user, session_id = checkout
    expired = stripe_sandbox.make_event("checkout.session.expired", {**stripe_sandbox.sessions[session_id]})
    deliver(webhook_client, stripe_sandbox, expired)

    response = deliver(webhook_client, stripe_sandbox, stripe_sandbox.complete(session_id))

    assert response.status_code == 200
    assert state(user) == ("refunded", "expired")
    [payment] = payments_of(user)
    assert payment.refunded_amount == payment.amount
    [refund] = stripe_sandbox.refunds.values()
    assert (refund["payment_intent"], refund["amount"]) == (payment.payment_intent_id, payment.amount)
    assert outbox("payment_success") == [] and posthog.named("subscription_activated") == []
    [success] = posthog.named("payment_success")
    assert success["properties"]["activated"] is False
    [refunded] = posthog.named("payment_refunded")
    assert refunded["properties"]["via"] == "automatic"


def test_a_declined_card_tells_the_customer_and_keeps_the_checkout_open(
    webhook_client, checkout, stripe_sandbox, posthog
):
    user, session_id = checkout

    response = deliver(webhook_client, stripe_sandbox, stripe_sandbox.fail_payment(session_id))

    assert response.status_code == 200
    assert state(user) == ("failed", "pending")
    [email] = outbox("payment_failed")
    assert email.to_address == user.email and "799,00 ₺" in email.body_text
    [failed] = posthog.named("payment_failed")
    assert failed["properties"]["amount"] == 79_900 and "$revenue" not in failed["properties"]


def test_a_retry_that_succeeds_after_a_decline_activates(webhook_client, checkout, stripe_sandbox):
    user, session_id = checkout
    deliver(webhook_client, stripe_sandbox, stripe_sandbox.fail_payment(session_id))

    deliver(webhook_client, stripe_sandbox, stripe_sandbox.complete(session_id))

    assert state(user) == ("completed", "active")


def test_a_decline_after_completion_changes_nothing(webhook_client, checkout, stripe_sandbox):
    user, session_id = checkout
    deliver(webhook_client, stripe_sandbox, stripe_sandbox.complete(session_id))

    deliver(webhook_client, stripe_sandbox, stripe_sandbox.fail_payment(session_id))

    assert state(user) == ("completed", "active")
    assert outbox("payment_failed") == []


def test_an_unknown_event_type_is_acknowledged_and_ignored(webhook_client, checkout, stripe_sandbox):
    user, _session_id = checkout
    event = stripe_sandbox.make_event("customer.created", {"id": "cus_123", "object": "customer"})

    response = deliver(webhook_client, stripe_sandbox, event)

    assert response.status_code == 200
    assert state(user) == ("pending", "pending")


def test_an_event_for_an_unknown_session_is_acknowledged(webhook_client, billing_catalog, stripe_sandbox):
    event = stripe_sandbox.make_event(
        "checkout.session.completed", {"id": "cs_test_unknown", "object": "checkout.session", "payment_status": "paid"}
    )

    assert deliver(webhook_client, stripe_sandbox, event).status_code == 200


def test_without_a_configured_secret_every_event_is_refused(make_app, checkout, stripe_sandbox):
    user, session_id = checkout
    app = make_app(STRIPE_WEBHOOK_SECRET="")

    response = deliver(app.test_client(), stripe_sandbox, stripe_sandbox.complete(session_id), secret="")

    assert response.status_code == 400
    assert state(user) == ("pending", "pending")
