"""Signed card-provider events with missing or mistyped fields, and brand ids out of range: a 400, nothing changed."""

from __future__ import annotations

import json
import logging

import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.billing.models import ProviderEvent, Subscription
from app.billing.sandbox.events import stripe_signature
from app.core.validation import ID_MAX
from app.extensions import db
from tests.conftest import SITE
from tests.support.payments import WEBHOOK_SECRET, WEBHOOK_URL, payments_of
from tests.support.strategies import JSON_VALUES, maybe

OUT_OF_RANGE = [2**63, 2**64, ID_MAX + 1, -1, 0, -(2**63) - 1]


def deliver_raw(client, payload: bytes):
    """POST `payload` signed with the webhook secret, as the provider would."""
    headers = {"Content-Type": "application/json", "Stripe-Signature": stripe_signature(WEBHOOK_SECRET, payload)}
    return client.post(WEBHOOK_URL, data=payload, headers=headers)


def nothing_changed(user) -> bool:
    [payment] = payments_of(user)
    subscription = db.session.get(Subscription, payment.subscription_id)
    events = db.session.scalar(sa.select(sa.func.count()).select_from(ProviderEvent))
    return (payment.status, subscription.status, events) == ("pending", "pending", 0)


def completed(session_id: str) -> dict:
    """A well-formed `checkout.session.completed` event for the session."""
    data = {"id": session_id, "object": "checkout.session", "payment_status": "paid", "payment_intent": "pi_1"}
    return {"id": "evt_1", "object": "event", "type": "checkout.session.completed", "data": {"object": data}}


def _without(event: dict, *path: str) -> dict:
    target = event
    for key in path[:-1]:
        target = target[key]
    del target[path[-1]]
    return event


def _with(event: dict, value: object, *path: str) -> dict:
    target = event
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return event


MALFORMED = {
    "no id": lambda e: _without(e, "id"),
    "numeric id": lambda e: _with(e, 42, "id"),
    "id too long": lambda e: _with(e, "evt_" + "x" * 300, "id"),
    "no type": lambda e: _without(e, "type"),
    "type a list": lambda e: _with(e, ["checkout.session.completed"], "type"),
    "no data": lambda e: _without(e, "data"),
    "data a string": lambda e: _with(e, "x", "data"),
    "no object": lambda e: _without(e, "data", "object"),
    "object a list": lambda e: _with(e, [], "data", "object"),
    "no object id": lambda e: _without(e, "data", "object", "id"),
    "object id a number": lambda e: _with(e, 7, "data", "object", "id"),
    "payment_intent an object": lambda e: _with(e, {"id": "pi_1"}, "data", "object", "payment_intent"),
    "payment_status a number": lambda e: _with(e, 1, "data", "object", "payment_status"),
    "metadata a list": lambda e: _with(e, ["payment_id"], "data", "object", "metadata"),
}


@pytest.mark.parametrize("change", MALFORMED.values(), ids=MALFORMED.keys())
def test_a_signed_event_with_a_missing_or_mistyped_field_is_a_400_that_changes_nothing(
    webhook_client, checkout, caplog, change
):
    user, session_id = checkout
    caplog.set_level(logging.WARNING, logger="app.billing.payments")

    response = deliver_raw(webhook_client, json.dumps(change(completed(session_id))).encode())

    assert response.status_code == 400
    assert response.get_json()["error"] == {
        "code": "invalid_event",
        "message": "Bildirimde bir alan eksik ya da bir alanın türü yanlış.",
    }
    assert nothing_changed(user)
    assert any("refused, nothing changed" in record.getMessage() for record in caplog.records)


@pytest.mark.parametrize(
    "payload",
    [b"[]", b'"evt"', b"null", b"[" * 5000 + b"]" * 5000, b'{"id": "evt_\\ud800", "type": "x"}', b'{"id": "\\u0000"}'],
    ids=["a list", "a string", "null", "nested 5000 deep", "a lone surrogate", "a NUL"],
)
def test_a_signed_body_that_is_no_usable_event_is_a_400_that_changes_nothing(webhook_client, checkout, payload):
    user, _session_id = checkout

    response = deliver_raw(webhook_client, payload)

    assert response.status_code == 400 and response.get_json()["error"]["message"]
    assert nothing_changed(user)


def test_the_well_formed_event_still_completes_the_payment(webhook_client, checkout):
    user, session_id = checkout

    response = deliver_raw(webhook_client, json.dumps(completed(session_id)).encode())

    assert response.status_code == 200
    [payment] = payments_of(user)
    assert payment.status == "completed"


def test_text_the_event_carries_but_nothing_stores_may_hold_anything(webhook_client, checkout):
    user, session_id = checkout
    event = completed(session_id)
    event["data"]["object"]["customer_details"] = {"name": "Bayi\x00 \ud800"}

    response = deliver_raw(webhook_client, json.dumps(event).encode())

    assert response.status_code == 200
    [payment] = payments_of(user)
    assert payment.status == "completed"


def test_an_old_signature_is_still_refused(webhook_client, checkout):
    user, session_id = checkout
    payload = json.dumps(completed(session_id)).encode()
    headers = {"Content-Type": "application/json", "Stripe-Signature": stripe_signature(WEBHOOK_SECRET, payload, 1)}

    response = webhook_client.post(WEBHOOK_URL, data=payload, headers=headers)

    assert response.get_json()["error"]["code"] == "invalid_signature"
    assert nothing_changed(user)


EVENT_TYPES = [
    "checkout.session.completed",
    "checkout.session.async_payment_succeeded",
    "checkout.session.expired",
    "checkout.session.async_payment_failed",
    "payment_intent.payment_failed",
    "customer.created",
]
events = st.fixed_dictionaries(
    {},
    optional={
        "id": maybe(st.sampled_from(["evt_a", "evt_b", "evt_c"])),
        "type": maybe(st.sampled_from(EVENT_TYPES)),
        "data": maybe(
            st.fixed_dictionaries(
                {},
                optional={
                    "object": maybe(
                        st.fixed_dictionaries(
                            {},
                            optional={
                                "id": maybe(st.just("SESSION")),
                                "payment_status": maybe(st.sampled_from(["paid", "unpaid", "no_payment_required"])),
                                "payment_intent": maybe(st.just("pi_x")),
                                "metadata": maybe(st.fixed_dictionaries({"payment_id": JSON_VALUES})),
                            },
                        )
                    )
                },
            )
        ),
    },
)


def test_no_signed_event_makes_the_webhook_fail(webhook_client, checkout):
    _user, session_id = checkout

    @settings(
        max_examples=60,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(event=events)
    def answers_200_or_400(event: dict) -> None:
        payload = json.dumps(event).replace('"SESSION"', json.dumps(session_id)).encode()
        response = deliver_raw(webhook_client, payload)
        assert response.status_code in (200, 400), (event, response.get_data(as_text=True)[:300])
        if response.status_code == 400:
            assert response.get_json()["error"]["code"] == "invalid_event"

    answers_200_or_400()


# --- brand ids ------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("bad_id", OUT_OF_RANGE)
@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("POST", "/api/subscriptions"),
        ("PATCH", "/api/subscriptions/downgrade"),
        ("POST", "/api/payments/card/checkout"),
    ],
)
def test_a_brand_id_out_of_range_is_a_400(
    client, create_user, sign_in, billing_catalog, make_subscription, method, path, bad_id
):
    user = create_user()
    # Where the brands are read: a downgrade from a paid Full plan, a purchase during the trial.
    make_subscription(user, "active" if "downgrade" in path else "trial", plan_key="full")
    sign_in(user.email)
    body = {"planKey": "trio", "billingPeriod": "monthly", "brandIds": [*billing_catalog.brand_ids(2), bad_id]}

    response = client.open(path, method=method, json=body, headers=SITE)

    assert response.status_code == 400, response.get_json()
    assert response.get_json()["error"] == {
        "code": "invalid_brand_set",
        "message": "Seçilen markaları marka kimliklerinin listesi olarak gönderin.",
    }


@pytest.mark.parametrize("bad_id", ["9" * 5000, str(2**63), "-1"])
def test_a_brand_id_out_of_range_on_the_checkout_form_is_refused(client, create_user, sign_in, billing_catalog, bad_id):
    from tests.conftest import csrf_token_from

    sign_in(create_user().email)
    token = csrf_token_from(client.get("/plans").get_data(as_text=True))
    form = {"csrf_token": token, "plan_key": "trio", "billing_period": "monthly", "brand_ids": ["1", "2", bad_id]}

    response = client.post("/checkout", data=form)

    assert response.status_code < 500
    assert payments_of_nobody()


def payments_of_nobody() -> bool:
    from app.billing.models import Payment

    return db.session.scalar(sa.select(sa.func.count()).select_from(Payment)) == 0
