"""Refunds from the founder panel (POST /api/internal/admin/payments/<id>/refund) and automatic ones: each made once
at the provider (the sandbox, through the real stripe SDK), noted on the payment, audited and reported."""

from __future__ import annotations

import re
import threading
import uuid

import pytest
import requests
import sqlalchemy as sa
import stripe

from app.billing import refunds
from app.billing.models import Payment, PaymentRefund, ProviderEvent, Subscription
from app.core.db import utcnow
from app.core.errors import ApiError
from app.core.loopback import LoopbackServer
from app.extensions import db
from app.internal_admin.guard import AUTH_HEADER
from app.internal_admin.models import AuditEntry
from tests.conftest import SITE
from tests.support.committed_dealer import committed_dealer
from tests.support.payments import WEBHOOK_SECRET, WEBHOOK_URL, deliver, payments_of

TOKEN = "internal-refund-token-3b1d"
BODY = {"reason": "Müşteri yanlış paketi aldı", "founderId": "f1"}
TRIO = 79_900
NOTE_LINE = re.compile(r"^\d{4}-\d{2}-\d{2} İade (?P<amount>[\d.]+,\d{2}) TRY \((?P<who>[^)]*)\): (?P<reason>.*)$")


@pytest.fixture(autouse=True)
def _internal_token(card_app, monkeypatch):
    monkeypatch.setitem(card_app.config, "INTERNAL_API_TOKEN", TOKEN)


@pytest.fixture
def internal(card_app):
    """The founder panel's server: no session cookie, only the token."""
    return card_app.test_client()


def refund(client, payment_id, body=None, token=TOKEN, key=None, **extra):
    headers = {}
    if token is not None:
        headers[AUTH_HEADER] = token
    if key is not None:
        headers["Idempotency-Key"] = key
    payload = {**BODY, **extra} if body is None else body
    return client.post(f"/api/internal/admin/payments/{payment_id}/refund", json=payload, headers=headers)


def reload(payment: Payment) -> Payment:
    db.session.expire_all()
    return db.session.get(Payment, payment.id)


def provider_refunds(sandbox, payment: Payment) -> list[dict]:
    return [item for item in sandbox.refunds.values() if item["payment_intent"] == payment.payment_intent_id]


def charge_of(sandbox, payment: Payment) -> dict:
    return sandbox.charges[sandbox.payment_intents[payment.payment_intent_id]["latest_charge"]]


def refund_rows(payment: Payment) -> list[PaymentRefund]:
    db.session.expire_all()
    query = sa.select(PaymentRefund).where(PaymentRefund.payment_id == payment.id).order_by(PaymentRefund.created_at)
    return list(db.session.scalars(query))


def audit_rows() -> list[AuditEntry]:
    db.session.expire_all()
    return list(db.session.scalars(sa.select(AuditEntry).where(AuditEntry.action == "payment.refund")))


def make_payment(user, subscription_id=None, **fields) -> Payment:
    """A payment written directly, completed by card with an intent unless `fields` say otherwise."""
    values = {"amount": TRIO, "currency": "TRY", "status": "completed", "method": "card", "payment_intent_id": "pi_x"}
    payment = Payment(user_id=user.id, subscription_id=subscription_id, **{**values, **fields})
    db.session.add(payment)
    db.session.commit()
    return payment


# --- refunds that are made ----------------------------------------------------------------------------------------


def test_a_full_refund_gives_everything_back_and_keeps_the_subscription(internal, paid, stripe_sandbox, posthog):
    user, payment = paid

    response = refund(internal, payment.id)

    assert response.status_code == 200
    answer = response.get_json()
    [row] = refund_rows(payment)
    assert answer == {
        "paymentId": str(payment.id),
        "refundId": str(row.id),
        "amount": TRIO,
        "refundedAmount": TRIO,
        "status": "refunded",
        "currency": "TRY",
    }
    payment = reload(payment)
    assert (payment.status, payment.refunded_amount) == ("refunded", TRIO)
    assert (row.source, row.founder_id, row.reason, row.amount) == ("super_panel", "f1", BODY["reason"], TRIO)
    [at_provider] = provider_refunds(stripe_sandbox, payment)
    assert at_provider["id"] == row.provider_refund_id and at_provider["amount"] == TRIO
    assert at_provider["metadata"] == {"founder_id": "f1", "reason": BODY["reason"], "payment_id": str(payment.id)}
    assert charge_of(stripe_sandbox, payment)["refunded"] is True
    assert db.session.get(Subscription, payment.subscription_id).status == "active"
    [line] = payment.admin_note.splitlines()
    assert NOTE_LINE.match(line).group("amount", "who", "reason") == ("799,00", "founder f1", BODY["reason"])
    [event] = posthog.named("payment_refunded")
    assert event["distinct_id"] == str(user.id)
    assert {key: event["properties"][key] for key in ("via", "amount", "refunded_total", "currency", "full")} == {
        "via": "super_panel",
        "amount": TRIO,
        "refunded_total": TRIO,
        "currency": "TRY",
        "full": True,
    }
    assert (event["properties"]["payment_id"], event["properties"]["plan"]) == (str(payment.id), "trio")


def test_partial_refunds_add_up_and_one_past_what_is_left_changes_nothing(internal, paid, stripe_sandbox, posthog):
    _user, payment = paid

    first = refund(internal, payment.id, amount=20_000)
    second = refund(internal, payment.id, amount=30_000, reason="İkinci kısmi iade")
    too_much = refund(internal, payment.id, amount=30_000)

    assert (first.status_code, second.status_code) == (200, 200)
    assert (first.get_json()["status"], first.get_json()["refundedAmount"]) == ("partially_refunded", 20_000)
    assert (second.get_json()["status"], second.get_json()["refundedAmount"]) == ("partially_refunded", 50_000)
    assert too_much.status_code == 400
    assert too_much.get_json()["error"] == {
        "code": "refund_out_of_range",
        "message": "İade tutarı 1 ile 29900 kuruş arasında bir tam sayı olmalıdır (en fazla 299,00 ₺).",
    }
    payment = reload(payment)
    assert (payment.status, payment.refunded_amount) == ("partially_refunded", 50_000)
    assert [row.amount for row in refund_rows(payment)] == [20_000, 30_000]
    assert sorted(item["amount"] for item in provider_refunds(stripe_sandbox, payment)) == [20_000, 30_000]
    assert charge_of(stripe_sandbox, payment)["amount_refunded"] == 50_000
    lines = [NOTE_LINE.match(line).group("amount", "reason") for line in payment.admin_note.splitlines()]
    assert lines == [("200,00", BODY["reason"]), ("300,00", "İkinci kısmi iade")]
    assert [event["properties"]["full"] for event in posthog.named("payment_refunded")] == [False, False]


def test_a_partial_refund_then_the_rest(internal, paid, stripe_sandbox):
    _user, payment = paid
    refund(internal, payment.id, amount=20_000)

    rest = refund(internal, payment.id)

    assert rest.status_code == 200
    assert rest.get_json() | {"refundId": None} == {
        "paymentId": str(payment.id),
        "refundId": None,
        "amount": 59_900,
        "refundedAmount": TRIO,
        "status": "refunded",
        "currency": "TRY",
    }
    assert charge_of(stripe_sandbox, payment)["amount_refunded"] == TRIO
    assert reload(payment).status == "refunded"
    # Nothing is left: one more is refused by the status.
    assert refund(internal, payment.id, amount=1).get_json()["error"]["code"] == "refund_not_allowed"


def test_an_earlier_admin_note_is_kept(internal, paid):
    _user, payment = paid
    payment.admin_note = "Bayi telefonla aradı."
    db.session.commit()

    refund(internal, payment.id, amount=100, reason="Çok\nsatırlı   sebep")

    first, second = reload(payment).admin_note.splitlines()
    assert first == "Bayi telefonla aradı."
    assert NOTE_LINE.match(second).group("amount", "reason") == ("1,00", "Çok satırlı sebep")


# --- refusals -------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"payment_intent_id": None}, "no_payment_intent"),
        ({"method": "eft", "payment_intent_id": None}, "refund_not_allowed"),
        ({"status": "pending"}, "refund_not_allowed"),
        ({"status": "failed"}, "refund_not_allowed"),
        ({"status": "expired"}, "refund_not_allowed"),
        ({"status": "refunded", "refunded_amount": TRIO}, "refund_not_allowed"),
        ({"status": "disputed"}, "refund_not_allowed"),
    ],
    ids=["no intent", "eft", "pending", "failed", "expired", "refunded", "disputed"],
)
def test_a_payment_that_cannot_be_refunded_is_a_409(internal, create_user, stripe_sandbox, fields, code):
    payment = make_payment(create_user(), **fields)

    response = refund(internal, payment.id)

    assert response.status_code == 409
    assert response.get_json()["error"]["code"] == code
    assert response.get_json()["error"]["message"]
    assert reload(payment).refunded_amount == fields.get("refunded_amount", 0)
    assert stripe_sandbox.refunds == {}
    [entry] = audit_rows()
    assert (entry.outcome, entry.founder_id, entry.target_id) == (code, "f1", str(payment.id))


def test_a_pending_card_checkout_is_not_refunded(internal, checkout, stripe_sandbox):
    user, _session_id = checkout
    [payment] = payments_of(user)

    response = refund(internal, payment.id)

    assert (response.status_code, response.get_json()["error"]["code"]) == (409, "refund_not_allowed")
    assert "tamamlanmış" in response.get_json()["error"]["message"]
    assert stripe_sandbox.refunds == {}


@pytest.mark.parametrize("amount", [0, -1, 1.5, "10", True, False, 10**30, TRIO + 1, [], {}], ids=repr)
def test_an_amount_that_is_no_refundable_number_of_kurus_is_a_400(internal, paid, stripe_sandbox, posthog, amount):
    _user, payment = paid

    response = refund(internal, payment.id, amount=amount)

    assert response.status_code == 400
    assert response.get_json()["error"] == {
        "code": "refund_out_of_range",
        "message": "İade tutarı 1 ile 79900 kuruş arasında bir tam sayı olmalıdır (en fazla 799,00 ₺).",
    }
    payment = reload(payment)
    assert (payment.status, payment.refunded_amount, payment.admin_note) == ("completed", 0, None)
    assert stripe_sandbox.refunds == {} and refund_rows(payment) == []
    assert posthog.named("payment_refunded") == []


def test_an_amount_refusal_is_audited_with_its_code(internal, paid):
    _user, payment = paid

    refund(internal, payment.id, amount=0)

    [entry] = audit_rows()
    assert (entry.outcome, entry.founder_id, entry.reason) == ("refund_out_of_range", "f1", BODY["reason"])


def test_the_message_follows_the_language_asked_for(internal, paid):
    _user, payment = paid

    response = internal.post(
        f"/api/internal/admin/payments/{payment.id}/refund",
        json={**BODY, "amount": 0},
        headers={AUTH_HEADER: TOKEN, "Accept-Language": "en"},
    )

    message = response.get_json()["error"]["message"]
    assert "79900" in message and "₺" in message


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"founderId": "f1"}, "reason"),
        ({"reason": "x"}, "founderId"),
        ({"reason": "   ", "founderId": "f1"}, "reason"),
        ({"reason": 5, "founderId": "f1"}, "reason"),
        ({}, "founderId"),
    ],
)
def test_a_missing_reason_or_founder_is_a_400(internal, paid, stripe_sandbox, body, field):
    _user, payment = paid

    response = refund(internal, payment.id, body=body)

    assert response.status_code == 400
    assert response.get_json()["error"]["code"] in ("missing_field", "invalid_field")
    assert reload(payment).refunded_amount == 0 and stripe_sandbox.refunds == {}


@pytest.mark.parametrize("token", [None, "", "wrong", TOKEN + "x", TOKEN.upper()])
def test_a_missing_or_wrong_token_is_a_401(internal, paid, stripe_sandbox, token):
    _user, payment = paid

    response = refund(internal, payment.id, token=token)

    assert response.status_code == 401
    assert response.get_json()["error"]["code"] == "invalid_internal_token"
    assert reload(payment).refunded_amount == 0 and stripe_sandbox.refunds == {} and audit_rows() == []


@pytest.mark.parametrize("payment_id", [uuid.uuid4(), "not-a-uuid", "123"])
def test_an_unknown_payment_is_a_json_404(internal, billing_catalog, payment_id):
    response = refund(internal, payment_id)

    assert response.status_code == 404
    assert response.get_json()["error"]["code"] == "not_found"


def test_a_refund_is_only_for_the_internal_token_not_a_session(card_client, paid):
    _user, payment = paid  # card_client is the dealer's signed-in browser

    response = card_client.post(f"/api/internal/admin/payments/{payment.id}/refund", json=BODY, headers=SITE)

    assert response.status_code == 401
    assert reload(payment).refunded_amount == 0


# --- once and only once ----------------------------------------------------------------------------------------------


def test_a_retry_with_the_same_idempotency_key_returns_the_same_refund(internal, paid, stripe_sandbox, posthog):
    _user, payment = paid

    first = refund(internal, payment.id, key="panel-7f3a", amount=10_000)
    again = refund(internal, payment.id, key="panel-7f3a", amount=10_000)

    assert (first.status_code, again.status_code) == (200, 200)
    assert again.get_json() == first.get_json()
    assert len(provider_refunds(stripe_sandbox, payment)) == 1
    assert reload(payment).refunded_amount == 10_000 and len(refund_rows(payment)) == 1
    assert refund_rows(payment)[0].idempotency_key == "panel-7f3a"
    assert len(posthog.named("payment_refunded")) == 1


def test_a_retry_after_a_full_refund_still_answers_the_refund(internal, paid, stripe_sandbox):
    _user, payment = paid
    first = refund(internal, payment.id, key="full-1")

    again = refund(internal, payment.id, key="full-1")

    assert again.status_code == 200 and again.get_json() == first.get_json()
    assert len(provider_refunds(stripe_sandbox, payment)) == 1


def test_a_key_used_for_another_payment_is_a_409(internal, paid, create_user, stripe_sandbox):
    _user, payment = paid
    refund(internal, payment.id, key="shared-key", amount=100)
    other = make_payment(create_user())

    response = refund(internal, other.id, key="shared-key", amount=100)

    assert (response.status_code, response.get_json()["error"]["code"]) == (409, "idempotency_key_reused")
    assert len(stripe_sandbox.refunds) == 1


@pytest.mark.parametrize("key", ["x" * 256, "anahtar-ğ", "tab\there"])
def test_an_idempotency_key_that_is_not_short_printable_text_is_a_400(internal, paid, stripe_sandbox, key):
    _user, payment = paid

    response = internal.post(
        f"/api/internal/admin/payments/{payment.id}/refund",
        json=BODY,
        headers={AUTH_HEADER: TOKEN, "Idempotency-Key": key.encode().decode("latin-1")},
    )

    assert (response.status_code, response.get_json()["error"]["code"]) == (400, "invalid_idempotency_key")
    assert stripe_sandbox.refunds == {}


def test_without_a_key_two_calls_are_two_refunds(internal, paid, stripe_sandbox):
    _user, payment = paid

    refund(internal, payment.id, amount=100)
    refund(internal, payment.id, amount=100)

    assert len(provider_refunds(stripe_sandbox, payment)) == 2
    assert reload(payment).refunded_amount == 200


def _fail_once_after_the_provider(monkeypatch) -> None:
    """The first refund fails after the provider answered (before our commit), as a crash there would."""
    calls = []
    add_note = refunds.add_note

    def failing(payment, line):
        calls.append(line)
        if len(calls) == 1:
            raise ApiError("internal_error", "simulated failure after the provider's answer", 500)
        add_note(payment, line)

    monkeypatch.setattr(refunds, "add_note", failing)


def test_a_retry_after_a_failure_past_the_provider_replays_the_same_provider_refund(
    internal, paid, stripe_sandbox, monkeypatch
):
    _user, payment = paid
    _fail_once_after_the_provider(monkeypatch)

    failed = refund(internal, payment.id, amount=25_000)
    retried = refund(internal, payment.id, amount=25_000)

    assert (failed.status_code, retried.status_code) == (500, 200)
    assert len(provider_refunds(stripe_sandbox, payment)) == 1
    assert charge_of(stripe_sandbox, payment)["amount_refunded"] == 25_000
    payment = reload(payment)
    assert payment.refunded_amount == 25_000 and len(refund_rows(payment)) == 1
    assert [entry.outcome for entry in audit_rows()] == ["internal_error", "ok"]


def test_a_retry_after_the_provider_told_us_of_the_lost_refund_takes_it_over(
    internal, webhook_client, paid, stripe_sandbox, monkeypatch
):
    _user, payment = paid
    _fail_once_after_the_provider(monkeypatch)
    refund(internal, payment.id, amount=25_000)
    # The provider's notice of the refund we lost arrives first: counted as one made at the provider.
    assert deliver(webhook_client, stripe_sandbox, stripe_sandbox.sent("charge.refunded")[-1]).status_code == 200
    assert [row.source for row in refund_rows(payment)] == ["provider"]

    retried = refund(internal, payment.id, amount=25_000)

    assert retried.status_code == 200 and retried.get_json()["refundedAmount"] == 25_000
    assert len(provider_refunds(stripe_sandbox, payment)) == 1
    [row] = refund_rows(payment)
    assert (row.source, row.founder_id, row.amount) == ("super_panel", "f1", 25_000)
    assert reload(payment).refunded_amount == 25_000


def test_a_retry_without_a_key_but_with_another_reason_is_a_409_and_the_first_refund_stands(
    internal, paid, stripe_sandbox, monkeypatch
):
    _user, payment = paid
    _fail_once_after_the_provider(monkeypatch)
    refund(internal, payment.id, amount=25_000)

    response = refund(internal, payment.id, amount=25_000, reason="Başka bir sebep")

    assert (response.status_code, response.get_json()["error"]["code"]) == (409, "refund_conflict")
    assert len(provider_refunds(stripe_sandbox, payment)) == 1


def test_a_refund_made_in_the_dashboard_but_not_yet_reported_is_a_409(internal, paid, stripe_sandbox):
    _user, payment = paid
    stripe_sandbox.refund_in_dashboard(payment.payment_intent_id, 70_000)  # its event not delivered yet

    response = refund(internal, payment.id, amount=20_000)

    assert (response.status_code, response.get_json()["error"]["code"]) == (409, "refund_exceeds_provider")
    assert reload(payment).refunded_amount == 0


def test_a_provider_failure_is_a_502_that_changes_nothing(internal, paid, stripe_sandbox):
    _user, payment = paid
    stripe_sandbox.stop()

    response = refund(internal, payment.id)

    assert (response.status_code, response.get_json()["error"]["code"]) == (502, "payment_provider_error")
    assert reload(payment).refunded_amount == 0 and refund_rows(payment) == []


# --- the audit trail -------------------------------------------------------------------------------------------------


def test_a_refund_is_audited_with_the_payment_before_and_after(internal, paid):
    _user, payment = paid

    refund(internal, payment.id, amount=20_000)

    [entry] = audit_rows()
    assert (entry.founder_id, entry.reason, entry.outcome, entry.target_type) == ("f1", BODY["reason"], "ok", "payment")
    assert entry.target_id == str(payment.id)
    assert entry.before == {"status": "completed", "amount": TRIO, "refundedAmount": 0}
    assert entry.after == {"status": "partially_refunded", "amount": TRIO, "refundedAmount": 20_000}


def test_an_unknown_payment_is_audited_as_not_found(internal, billing_catalog):
    refund(internal, uuid.uuid4())

    [entry] = audit_rows()
    assert entry.outcome == "not_found"


# --- automatic refunds ---------------------------------------------------------------------------------------------


def test_an_automatic_refund_gives_back_what_is_left_once(card_app, paid, stripe_sandbox, posthog):
    _user, payment = paid
    payment_id = payment.id
    with card_app.app_context():
        payment = db.session.get(Payment, payment_id)
        first = refunds.refund_automatically(payment, "the checkout was no longer open when it was paid")
        again = refunds.refund_automatically(payment, "the checkout was no longer open when it was paid")
        db.session.commit()
        assert again is not None and first.id == again.id

    db.session.expire_all()
    payment = db.session.get(Payment, payment_id)
    assert (payment.status, payment.refunded_amount) == ("refunded", TRIO)
    [row] = refund_rows(payment)
    assert (row.source, row.idempotency_key, row.founder_id) == ("automatic", f"auto-refund-{payment.id}", None)
    [at_provider] = provider_refunds(stripe_sandbox, payment)
    assert at_provider["metadata"]["founder_id"] == "automatic"
    assert NOTE_LINE.match(payment.admin_note).group("who") == "otomatik"
    [event] = posthog.named("payment_refunded")
    assert (event["properties"]["via"], event["properties"]["full"]) == ("automatic", True)


def test_an_automatic_refund_of_an_unpaid_payment_does_nothing(card_app, create_user, billing_catalog, stripe_sandbox):
    payment = make_payment(create_user(), status="pending", paid_at=None)
    with card_app.app_context():
        assert refunds.refund_automatically(db.session.get(Payment, payment.id), "x") is None
    assert stripe_sandbox.refunds == {}


def test_a_payment_for_a_lapsed_checkout_is_refunded_automatically(webhook_client, checkout, stripe_sandbox):
    user, session_id = checkout
    expired = stripe_sandbox.make_event("checkout.session.expired", {**stripe_sandbox.sessions[session_id]})
    deliver(webhook_client, stripe_sandbox, expired)

    response = deliver(webhook_client, stripe_sandbox, stripe_sandbox.complete(session_id))

    assert response.status_code == 200
    [payment] = payments_of(user)
    assert (payment.status, payment.refunded_amount) == ("refunded", TRIO)
    assert db.session.get(Subscription, payment.subscription_id).status == "expired"
    assert [row.source for row in refund_rows(payment)] == ["automatic"]
    assert payment.paid_at <= utcnow()


# --- for real: concurrent calls and the provider's notice arriving while the refund commits --------------------------


@pytest.mark.no_isolation
@pytest.mark.parametrize("key", [None, "same-key"], ids=["no key", "one key"])
def test_concurrent_refunds_with_the_live_notice_refund_once(app, make_app, stripe_sandbox, key):
    """Four founders' calls at once, each the whole payment, and the provider's charge.refunded delivered to the live
    server while the refund's transaction is still open: one refund at the provider, counted once."""
    live_app = make_app(
        STRIPE_SECRET_KEY="sk_test_x",
        STRIPE_WEBHOOK_SECRET=WEBHOOK_SECRET,
        STRIPE_API_BASE=stripe_sandbox.url,
        INTERNAL_API_TOKEN=TOKEN,
        RATELIMIT_ENABLED=False,
    )
    intent_id = _paid_intent(stripe_sandbox, TRIO)
    with committed_dealer(app) as dealer:
        payment_id = _commit_payment(app, dealer.id, intent_id)
        server = LoopbackServer(live_app, name="refund-live-server", quiet=True).start()
        stripe_sandbox.webhook_url = server.url + WEBHOOK_URL
        try:
            statuses = _refund_at_once(server.url, payment_id, key, calls=4)
            for thread in threading.enumerate():
                if thread.name == "stripe-sandbox-webhook":
                    thread.join(timeout=30)
        finally:
            server.stop()
        with app.app_context():
            payment = db.session.get(Payment, payment_id)
            state = (payment.status, payment.refunded_amount)
            sources = [
                row.source
                for row in db.session.scalars(sa.select(PaymentRefund).where(PaymentRefund.payment_id == payment_id))
            ]
            echoes = _refund_notices(stripe_sandbox)
            _delete_payment(payment_id, stripe_sandbox)
            db.session.remove()
    assert len(stripe_sandbox.refunds) == 1
    assert state == ("refunded", TRIO) and sources == ["super_panel"]
    assert echoes >= 1  # the notice was applied, and changed nothing
    # Without a key the later calls find nothing left; with one they get the same refund back.
    assert sorted(statuses) == ([200, 409, 409, 409] if key is None else [200, 200, 200, 200])


def _paid_intent(sandbox, amount: int) -> str:
    client = stripe.StripeClient("sk_test_x", base_addresses={"api": sandbox.url})
    item = {"quantity": 1, "price_data": {"currency": "try", "unit_amount": amount, "product_data": {"name": "Üç"}}}
    session = client.v1.checkout.sessions.create(
        {"mode": "payment", "line_items": [item], "success_url": "http://x/s", "cancel_url": "http://x/c"}
    )
    sandbox.complete(session.id)
    return sandbox.sessions[session.id]["payment_intent"]


def _commit_payment(app, user_id, intent_id: str) -> uuid.UUID:
    with app.app_context():
        payment = Payment(
            user_id=user_id, amount=TRIO, currency="TRY", status="completed", method="card", payment_intent_id=intent_id
        )
        db.session.add(payment)
        db.session.commit()
        payment_id = payment.id
        db.session.remove()
    return payment_id


def _refund_at_once(base_url: str, payment_id: uuid.UUID, key: str | None, calls: int) -> list[int]:
    barrier, statuses = threading.Barrier(calls), []
    headers = {AUTH_HEADER: TOKEN} | ({"Idempotency-Key": key} if key else {})

    def call() -> None:
        barrier.wait()
        url = f"{base_url}/api/internal/admin/payments/{payment_id}/refund"
        statuses.append(requests.post(url, json=BODY, headers=headers, timeout=60).status_code)

    threads = [threading.Thread(target=call) for _ in range(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=90)
    return statuses


def _refund_notices(sandbox) -> int:
    """How many of the sandbox's charge.refunded events the live server handled."""
    ids = [event["id"] for event in sandbox.sent("charge.refunded")]
    return db.session.scalar(sa.select(sa.func.count()).select_from(ProviderEvent).where(ProviderEvent.id.in_(ids)))


def _delete_payment(payment_id: uuid.UUID, sandbox) -> None:
    db.session.execute(sa.delete(PaymentRefund).where(PaymentRefund.payment_id == payment_id))
    db.session.execute(sa.delete(AuditEntry).where(AuditEntry.target_id == str(payment_id)))
    db.session.execute(sa.delete(ProviderEvent).where(ProviderEvent.id.in_([event["id"] for event in sandbox.events])))
    db.session.execute(sa.delete(Payment).where(Payment.id == payment_id))
    db.session.commit()
