"""The payment history and receipts: only the curated fields, only the owner's payments."""

import uuid

import pytest

from app.billing.models import BankAccount, Payment
from app.core.db import utcnow
from app.extensions import db
from tests.support.payments import deliver, payments_of, start_checkout

CURATED_KEYS = {
    "id",
    "planName",
    "status",
    "method",
    "amount",
    "refundedAmount",
    "currency",
    "billingPeriod",
    "createdAt",
    "paidAt",
    "hasCardReceipt",
}
LEGACY_RECEIPT = "http://localhost/static/receipts/dekont-1.pdf"


@pytest.fixture
def paid_card_payment(dealer, card_app, card_client, billing_catalog, stripe_sandbox) -> Payment:
    start_checkout(card_client, billing_catalog, "trio")
    [payment] = payments_of(dealer)
    deliver(card_app.test_client(), stripe_sandbox, stripe_sandbox.complete(payment.checkout_session_id))
    [payment] = payments_of(dealer)
    assert payment.status == "completed"
    return payment


@pytest.fixture
def legacy_eft_payment(dealer) -> Payment:
    account = BankAccount(
        bank_name="Ziraat Bankası", account_holder="Parça Bul Ltd.", iban="TR000000000000000000000000"
    )
    payment = Payment(
        user_id=dealer.id,
        amount=39_900,
        currency="TRY",
        status="completed",
        method="eft",
        billing_period="monthly",
        receipt_url=LEGACY_RECEIPT,
        admin_note="2026-01-02: dekont kontrol edildi",
        paid_at=utcnow(),
    )
    db.session.add(account)
    db.session.flush()
    payment.bank_account_id = account.id
    db.session.add(payment)
    db.session.commit()
    return payment


def test_the_history_returns_only_the_curated_fields(card_client, paid_card_payment, legacy_eft_payment):
    response = card_client.get("/api/payments/me")

    assert response.status_code == 200
    items = response.get_json()
    assert [set(item) for item in items] == [CURATED_KEYS, CURATED_KEYS]
    text = response.get_data(as_text=True)
    for internal in ("cs_test_", "pi_", "dekont kontrol", "Ziraat", "bank", "receipt_url", LEGACY_RECEIPT):
        assert internal not in text
    card = next(item for item in items if item["method"] == "card")
    assert card["planName"] == "Üç Marka"
    assert (card["status"], card["amount"], card["currency"], card["billingPeriod"]) == (
        "completed",
        79_900,
        "TRY",
        "monthly",
    )
    assert card["hasCardReceipt"] is True and card["paidAt"] is not None
    eft = next(item for item in items if item["method"] == "eft")
    assert (eft["planName"], eft["hasCardReceipt"]) == (None, False)


def test_the_history_lists_only_the_callers_payments(card_client, dealer, create_user):
    other = create_user()
    db.session.add(Payment(user_id=other.id, amount=100, status="completed", method="eft"))
    db.session.commit()

    assert card_client.get("/api/payments/me").get_json() == []


def test_a_card_receipt_is_the_providers_receipt_of_the_latest_charge(card_client, paid_card_payment, stripe_sandbox):
    response = card_client.get(f"/api/payments/{paid_card_payment.id}/receipt")

    intent = stripe_sandbox.payment_intents[paid_card_payment.payment_intent_id]
    expected = stripe_sandbox.charges[intent["latest_charge"]]["receipt_url"]
    assert response.status_code == 200
    assert response.get_json() == {"receiptUrl": expected}
    assert expected.startswith(f"{stripe_sandbox.url}/receipts/ch_")


def test_a_legacy_bank_transfer_shows_its_stored_receipt(card_client, legacy_eft_payment):
    response = card_client.get(f"/api/payments/{legacy_eft_payment.id}/receipt")

    assert response.get_json() == {"receiptUrl": LEGACY_RECEIPT}


def test_an_unpaid_payment_has_no_receipt(card_client, dealer, billing_catalog):
    start_checkout(card_client, billing_catalog, "trio")
    [payment] = payments_of(dealer)

    response = card_client.get(f"/api/payments/{payment.id}/receipt")

    assert response.status_code == 200
    assert response.get_json() == {"receiptUrl": None}


@pytest.mark.parametrize("whose", ["another user's", "unknown"])
def test_someone_elses_or_an_unknown_payment_is_not_found(card_client, dealer, create_user, whose):
    other = create_user()
    payment = Payment(user_id=other.id, amount=100, status="completed", method="eft", receipt_url=LEGACY_RECEIPT)
    db.session.add(payment)
    db.session.commit()
    payment_id = payment.id if whose == "another user's" else uuid.uuid4()

    api = card_client.get(f"/api/payments/{payment_id}/receipt")
    page = card_client.get(f"/payments/{payment_id}/receipt")

    assert api.status_code == 404 and api.get_json()["error"]["code"] == "not_found"
    assert page.status_code == 404


def test_the_history_needs_a_session(card_app):
    assert card_app.test_client().get("/api/payments/me").status_code == 401


# The payments page


def test_the_payments_page_shows_turkish_amounts_statuses_and_receipt_links(
    card_client, paid_card_payment, legacy_eft_payment
):
    html = card_client.get("/payments").get_data(as_text=True)

    assert "799,00 ₺" in html and "399,00 ₺" in html
    assert "Ödendi" in html and "Üç Marka" in html
    assert f"/payments/{paid_card_payment.id}/receipt" in html
    assert f"/payments/{legacy_eft_payment.id}/receipt" in html
    assert "dekont kontrol" not in html and "cs_test_" not in html


def test_the_receipt_link_of_the_page_leads_to_the_receipt(card_client, legacy_eft_payment):
    response = card_client.get(f"/payments/{legacy_eft_payment.id}/receipt")

    assert response.status_code == 303
    assert response.headers["Location"] == LEGACY_RECEIPT


def test_an_empty_history_points_to_the_plans(card_client, dealer):
    html = card_client.get("/payments").get_data(as_text=True)

    assert 'href="/plans"' in html


def test_the_payments_page_needs_a_session(card_app):
    response = card_app.test_client().get("/payments")

    assert response.status_code == 302
    assert "/login" in response.headers["Location"]
