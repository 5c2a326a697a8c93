"""What the card provider reports about a paid charge: refunds (made in its dashboard, or ours echoed back) and
disputes, each applied once, never counting a refund twice; malformed reports are a 400 that changes nothing."""

from __future__ import annotations

import copy
import json

import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.billing.models import Payment, PaymentRefund, ProviderEvent, Subscription
from app.extensions import db
from app.internal_admin.guard import AUTH_HEADER
from tests.billing.test_bad_input import deliver_raw
from tests.support.payments import deliver
from tests.support.strategies import JSON_VALUES, maybe

TOKEN = "internal-provider-events-token"
TRIO = 79_900


@pytest.fixture(autouse=True)
def _internal_token(card_app, monkeypatch):
    monkeypatch.setitem(card_app.config, "INTERNAL_API_TOKEN", TOKEN)


def reload(payment: Payment) -> Payment:
    db.session.expire_all()
    return db.session.get(Payment, payment.id)


def rows(payment: Payment) -> list[tuple[str, int]]:
    db.session.expire_all()
    query = sa.select(PaymentRefund).where(PaymentRefund.payment_id == payment.id).order_by(PaymentRefund.created_at)
    return [(row.source, row.amount) for row in db.session.scalars(query)]


def handled_events() -> int:
    return db.session.scalar(sa.select(sa.func.count()).select_from(ProviderEvent))


def founder_refund(client, payment: Payment, amount: int | None = None):
    body = {"reason": "Bayi istedi", "founderId": "f1"} | ({"amount": amount} if amount is not None else {})
    response = client.post(f"/api/internal/admin/payments/{payment.id}/refund", json=body, headers={AUTH_HEADER: TOKEN})
    assert response.status_code == 200, response.get_json()
    return response


# --- refunds made in the provider's dashboard --------------------------------------------------------------------


def test_a_partial_refund_in_the_dashboard_is_recorded(webhook_client, paid, stripe_sandbox):
    _user, payment = paid
    event = stripe_sandbox.refund_in_dashboard(payment.payment_intent_id, 30_000)

    response = deliver(webhook_client, stripe_sandbox, event)

    assert response.status_code == 200
    payment = reload(payment)
    assert (payment.status, payment.refunded_amount) == ("partially_refunded", 30_000)
    assert rows(payment) == [("provider", 30_000)]
    [refund] = [item for item in stripe_sandbox.refunds.values()]
    row = db.session.scalar(sa.select(PaymentRefund).where(PaymentRefund.payment_id == payment.id))
    assert row.provider_refund_id == refund["id"]
    assert payment.admin_note.endswith("İade 300,00 TRY (kart sağlayıcısının panelinden)")
    assert db.session.get(Subscription, payment.subscription_id).status == "active"


def test_a_full_refund_in_the_dashboard_refunds_the_payment(webhook_client, paid, stripe_sandbox):
    _user, payment = paid

    deliver(webhook_client, stripe_sandbox, stripe_sandbox.refund_in_dashboard(payment.payment_intent_id))

    payment = reload(payment)
    assert (payment.status, payment.refunded_amount) == ("refunded", TRIO)
    assert rows(payment) == [("provider", TRIO)]
    assert db.session.get(Subscription, payment.subscription_id).status == "active"


def test_a_charge_refunded_event_without_a_refund_list_is_recorded_by_its_total(webhook_client, paid, stripe_sandbox):
    _user, payment = paid
    event = stripe_sandbox.refund_in_dashboard(payment.payment_intent_id, 10_000)
    del event["data"]["object"]["refunds"]  # current API versions leave the list out

    deliver(webhook_client, stripe_sandbox, event)

    payment = reload(payment)
    assert payment.refunded_amount == 10_000 and rows(payment) == [("provider", 10_000)]


def test_the_same_dashboard_refund_delivered_twice_counts_once(webhook_client, paid, stripe_sandbox):
    _user, payment = paid
    event = stripe_sandbox.refund_in_dashboard(payment.payment_intent_id, 30_000)

    first = deliver(webhook_client, stripe_sandbox, event)
    second = deliver(webhook_client, stripe_sandbox, event)
    # The same notice again under another event id (Stripe resends as a new event only in tests, but counts hold).
    resent = deliver(
        webhook_client, stripe_sandbox, stripe_sandbox.make_event("charge.refunded", event["data"]["object"])
    )

    assert (first.status_code, second.status_code, resent.status_code) == (200, 200, 200)
    assert reload(payment).refunded_amount == 30_000 and rows(payment) == [("provider", 30_000)]


# --- our own refunds coming back ------------------------------------------------------------------------------------


def test_our_own_refund_coming_back_is_not_counted_twice(webhook_client, paid, stripe_sandbox):
    _user, payment = paid
    founder_refund(webhook_client, payment, 20_000)
    [echo] = stripe_sandbox.sent("charge.refunded")

    response = deliver(webhook_client, stripe_sandbox, echo)

    assert response.status_code == 200
    payment = reload(payment)
    assert (payment.status, payment.refunded_amount) == ("partially_refunded", 20_000)
    assert rows(payment) == [("super_panel", 20_000)]
    assert len(payment.admin_note.splitlines()) == 1


def test_refunds_from_both_sides_add_up_whatever_order_the_notices_come_in(webhook_client, paid, stripe_sandbox):
    _user, payment = paid
    founder_refund(webhook_client, payment, 20_000)
    dashboard = stripe_sandbox.refund_in_dashboard(payment.payment_intent_id, 10_000)
    founder_refund(webhook_client, payment, 5_000)
    ours_first, ours_second = stripe_sandbox.sent("charge.refunded")[0], stripe_sandbox.sent("charge.refunded")[2]

    for event in (ours_second, dashboard, ours_first):  # newest first
        assert deliver(webhook_client, stripe_sandbox, event).status_code == 200

    payment = reload(payment)
    assert payment.refunded_amount == 35_000
    assert sorted(rows(payment)) == [("provider", 10_000), ("super_panel", 5_000), ("super_panel", 20_000)]


def test_a_dashboard_refund_not_yet_reported_is_counted_when_our_later_echo_shows_it(
    webhook_client, paid, stripe_sandbox
):
    _user, payment = paid
    stripe_sandbox.refund_in_dashboard(payment.payment_intent_id, 10_000)  # its own notice is lost
    founder_refund(webhook_client, payment, 20_000)

    deliver(webhook_client, stripe_sandbox, stripe_sandbox.sent("charge.refunded")[-1])

    payment = reload(payment)
    assert payment.refunded_amount == 30_000
    assert rows(payment) == [("super_panel", 20_000), ("provider", 10_000)]


# --- disputes ------------------------------------------------------------------------------------------------------


def test_a_dispute_marks_the_payment_disputed_and_blocks_refunds(webhook_client, paid, stripe_sandbox):
    _user, payment = paid
    event = stripe_sandbox.open_dispute(payment.payment_intent_id, reason="fraudulent")

    assert deliver(webhook_client, stripe_sandbox, event).status_code == 200

    payment = reload(payment)
    assert payment.status == "disputed"
    dispute_id = event["data"]["object"]["id"]
    assert payment.admin_note.endswith(f"İtiraz açıldı {dispute_id}: 799,00 TRY, neden: fraudulent")
    response = webhook_client.post(
        f"/api/internal/admin/payments/{payment.id}/refund",
        json={"reason": "x", "founderId": "f1"},
        headers={AUTH_HEADER: TOKEN},
    )
    assert (response.status_code, response.get_json()["error"]["code"]) == (409, "refund_not_allowed")
    assert stripe_sandbox.refunds == {}


@pytest.mark.parametrize(("refunded", "status_after"), [(0, "completed"), (20_000, "partially_refunded")])
def test_a_dispute_won_puts_the_payment_back(webhook_client, paid, stripe_sandbox, refunded, status_after):
    _user, payment = paid
    if refunded:
        founder_refund(webhook_client, payment, refunded)
    opened = stripe_sandbox.open_dispute(payment.payment_intent_id)
    deliver(webhook_client, stripe_sandbox, opened)

    closed = stripe_sandbox.close_dispute(opened["data"]["object"]["id"], "won")
    assert deliver(webhook_client, stripe_sandbox, closed).status_code == 200

    payment = reload(payment)
    assert (payment.status, payment.refunded_amount) == (status_after, refunded)
    assert payment.admin_note.splitlines()[-1].endswith("kazanıldı (won)")


def test_a_dispute_lost_leaves_the_payment_disputed(webhook_client, paid, stripe_sandbox):
    _user, payment = paid
    opened = stripe_sandbox.open_dispute(payment.payment_intent_id, reason="product_not_received")
    deliver(webhook_client, stripe_sandbox, opened)

    closed = stripe_sandbox.close_dispute(opened["data"]["object"]["id"], "lost")
    deliver(webhook_client, stripe_sandbox, closed)
    deliver(webhook_client, stripe_sandbox, closed)  # again: no second note

    payment = reload(payment)
    assert payment.status == "disputed"
    notes = payment.admin_note.splitlines()
    assert len(notes) == 2 and "kaybedildi (lost)" in notes[1] and "neden: product_not_received" in notes[0]
    assert db.session.get(Subscription, payment.subscription_id).status == "active"


def test_a_dispute_for_an_unpaid_or_unknown_payment_changes_nothing(webhook_client, checkout, stripe_sandbox):
    user, session_id = checkout
    event = stripe_sandbox.make_event(
        "charge.dispute.created",
        {"id": "dp_1", "charge": "ch_1", "payment_intent": "pi_unknown", "amount": 100, "status": "needs_response"},
    )

    assert deliver(webhook_client, stripe_sandbox, event).status_code == 200
    payment = db.session.scalar(sa.select(Payment).where(Payment.user_id == user.id))
    assert payment.status == "pending" and payment.admin_note is None


# --- what is not ours to read, and what cannot be read ---------------------------------------------------------------


@pytest.mark.parametrize("event_type", ["charge.dispute.funds_withdrawn", "refund.created", "charge.updated"])
def test_an_unhandled_event_type_is_acknowledged_and_ignored(webhook_client, paid, stripe_sandbox, event_type):
    _user, payment = paid
    event = stripe_sandbox.make_event(event_type, {"id": "x_1", "payment_intent": payment.payment_intent_id})

    response = deliver(webhook_client, stripe_sandbox, event)

    assert response.status_code == 200 and response.get_json() == {"received": True}
    assert reload(payment).status == "completed"


def test_a_charge_refunded_for_an_unknown_payment_intent_is_acknowledged(webhook_client, paid, stripe_sandbox):
    _user, payment = paid
    event = stripe_sandbox.make_event(
        "charge.refunded", {"id": "ch_x", "payment_intent": "pi_other", "amount": 500, "amount_refunded": 500}
    )

    assert deliver(webhook_client, stripe_sandbox, event).status_code == 200
    assert reload(payment).refunded_amount == 0


def _set(path: tuple[str, ...], value: object):
    def change(subject: dict) -> None:
        for key in path[:-1]:
            subject = subject[key]
        subject[path[-1]] = value

    return change


def _drop(name: str):
    return lambda subject: subject.pop(name)


MALFORMED_CHARGES = {
    "amount_refunded text": _set(("amount_refunded",), "x"),
    "amount_refunded negative": _set(("amount_refunded",), -1),
    "amount_refunded a bool": _set(("amount_refunded",), True),
    "amount_refunded a float": _set(("amount_refunded",), 100.5),
    "amount_refunded too big": _set(("amount_refunded",), 2**63),
    "amount_refunded missing": _drop("amount_refunded"),
    "amount missing": _drop("amount"),
    "amount negative": _set(("amount",), -5),
    "payment_intent missing": _drop("payment_intent"),
    "payment_intent a number": _set(("payment_intent",), 7),
    "payment_intent an object": _set(("payment_intent",), {"id": "pi"}),
    "id missing": _drop("id"),
    "refunds a list": _set(("refunds",), []),
    "refunds.data an object": _set(("refunds", "data"), {}),
    "refund item not an object": _set(("refunds", "data"), ["re_1"]),
    "refund item amount text": _set(("refunds", "data"), [{"id": "re_1", "amount": "10"}]),
    "refund item id missing": _set(("refunds", "data"), [{"amount": 10}]),
}


@pytest.mark.parametrize("change", MALFORMED_CHARGES.values(), ids=MALFORMED_CHARGES.keys())
def test_a_malformed_charge_refunded_is_a_400_that_changes_nothing(webhook_client, paid, stripe_sandbox, change):
    _user, payment = paid
    events_before = handled_events()
    event = stripe_sandbox.refund_in_dashboard(payment.payment_intent_id, 30_000)
    change(event["data"]["object"])

    response = deliver(webhook_client, stripe_sandbox, event)

    assert response.status_code == 400
    assert response.get_json()["error"]["code"] == "invalid_event"
    payment = reload(payment)
    assert (payment.status, payment.refunded_amount) == ("completed", 0)
    assert rows(payment) == [] and handled_events() == events_before


MALFORMED_DISPUTES = {
    "amount text": _set(("amount",), "799"),
    "amount a bool": _set(("amount",), False),
    "status missing": _drop("status"),
    "status a number": _set(("status",), 1),
    "payment_intent missing": _drop("payment_intent"),
    "reason a list": _set(("reason",), ["fraudulent"]),
}


@pytest.mark.parametrize("change", MALFORMED_DISPUTES.values(), ids=MALFORMED_DISPUTES.keys())
@pytest.mark.parametrize("closing", [False, True], ids=["created", "closed"])
def test_a_malformed_dispute_event_is_a_400_that_changes_nothing(webhook_client, paid, stripe_sandbox, change, closing):
    _user, payment = paid
    event = stripe_sandbox.open_dispute(payment.payment_intent_id)
    if closing:
        deliver(webhook_client, stripe_sandbox, event)
        event = stripe_sandbox.close_dispute(event["data"]["object"]["id"], "won")
    status_before = reload(payment).status
    change(event["data"]["object"])

    response = deliver(webhook_client, stripe_sandbox, event)

    assert (response.status_code, response.get_json()["error"]["code"]) == (400, "invalid_event")
    assert reload(payment).status == status_before


def test_no_signed_charge_or_dispute_event_makes_the_webhook_fail(webhook_client, paid, stripe_sandbox):
    _user, payment = paid
    subject = st.fixed_dictionaries(
        {},
        optional={
            "id": maybe(st.just("ch_1")),
            "charge": maybe(st.just("ch_1")),
            "payment_intent": maybe(st.just(payment.payment_intent_id)),
            "amount": maybe(st.integers(min_value=0, max_value=TRIO)),
            "amount_refunded": maybe(st.integers(min_value=0, max_value=2 * TRIO)),
            "status": maybe(st.sampled_from(["won", "lost", "needs_response"])),
            "reason": maybe(st.just("fraudulent")),
            "refunds": maybe(st.fixed_dictionaries({"data": st.lists(JSON_VALUES, max_size=2)})),
        },
    )
    types = st.sampled_from(["charge.refunded", "charge.dispute.created", "charge.dispute.closed"])
    counter = iter(range(10**6))

    @settings(
        max_examples=60,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(event_type=types, data_object=subject)
    def answers_200_or_400(event_type: str, data_object: dict) -> None:
        event = {"id": f"evt_h{next(counter)}", "type": event_type, "data": {"object": copy.deepcopy(data_object)}}
        response = deliver_raw(webhook_client, json.dumps(event).encode())
        assert response.status_code in (200, 400), (event, response.get_data(as_text=True)[:300])
        if response.status_code == 400:
            assert response.get_json()["error"]["code"] == "invalid_event"

    answers_200_or_400()
    payment = reload(payment)
    assert 0 <= payment.refunded_amount <= payment.amount
