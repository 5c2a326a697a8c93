"""Billing belongs to the shop: every member works under the shop's plan, only its owners buy, change seats and see
payments; seats are bought at checkout, added (prorated) through the card checkout and never cut below the members."""

from __future__ import annotations

from datetime import timedelta

import pytest

from app.billing import tasks
from app.core.db import utcnow
from app.extensions import db
from app.sources.sandbox.catalog import VIN_GOLF
from tests.billing.test_brand_access import probe as brand_probe
from tests.conftest import SITE, outbox
from tests.support.payments import deliver, payments_of, sign_in_client, start_checkout, subscriptions_of

TR = {"Accept-Language": "tr"}
SEATS_URL = "/api/subscriptions/me/seats"


def member_of(create_user, owner, role: str = "clerk", **overrides):
    """A member of `owner`'s shop (the fixture's user joins it after getting a shop of their own)."""
    return create_user(shop_id=owner.shop_id, shop_role=role, **overrides)


@pytest.fixture
def client_of(card_app):
    """A new client of the card app signed in as `user`."""

    def make(user):
        client = card_app.test_client()
        sign_in_client(client, user.email)
        return client

    return make


@pytest.fixture
def three_seats(dealer, card_client, billing_catalog, stripe_sandbox, webhook_client):
    """The dealer (the shop's owner) bought the single-brand plan with 3 seats, paid: (owner, subscription)."""
    body = {"planKey": "single", "billingPeriod": "monthly", "brandIds": billing_catalog.brand_ids(1), "seats": 3}
    assert card_client.post("/api/payments/card/checkout", json=body, headers=SITE).status_code == 200
    [payment] = payments_of(dealer)
    paid = stripe_sandbox.complete(payment.checkout_session_id)
    assert deliver(webhook_client, stripe_sandbox, paid).status_code == 200
    [subscription] = subscriptions_of(dealer)
    assert (subscription.status, subscription.seats) == ("active", 3)
    return dealer, subscription


# --- access is the shop's ------------------------------------------------------------------------------------------


def test_a_clerk_decodes_a_brand_of_the_shops_plan_and_reads_its_subscription(
    create_user, make_subscription, client, sign_in, upstreams, billing_catalog
):
    owner = create_user()
    clerk = member_of(create_user, owner)
    sign_in(clerk.email)
    assert client.post("/api/vehicles/decode", json={"vin": VIN_GOLF}, headers=SITE).status_code == 403

    subscription = make_subscription(owner, "active", plan_key="full")  # bought by the owner, for the shop

    response = client.post("/api/vehicles/decode", json={"vin": VIN_GOLF}, headers=SITE)
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["vehicle"]["brandName"] == "Volkswagen"
    me = client.get("/api/subscriptions/me").get_json()
    assert (me["id"], me["status"], me["plan"]["key"]) == (str(subscription.id), "active", "full")
    assert set(me) == {
        "id", "status", "plan", "billingPeriod", "startDate", "endDate", "cancelledAt", "brands", "scheduledChange"
    }  # fmt: skip


def test_another_shops_plan_opens_nothing(create_user, make_subscription, client, sign_in, upstreams, billing_catalog):
    make_subscription(create_user(), "active", plan_key="full")
    stranger = create_user()
    sign_in(stranger.email)

    response = client.post("/api/vehicles/decode", json={"vin": VIN_GOLF}, headers=SITE)

    assert response.status_code == 403
    assert client.get("/api/subscriptions/me").get_json() is None


def test_a_change_of_the_shops_subscription_reaches_every_members_kept_access_at_once(
    make_app, create_user, make_subscription, billing_catalog
):
    """The brands a plan opens are kept beside each member's session: the owner's change must drop them all."""
    app = make_app()
    app.register_blueprint(brand_probe)
    owner = create_user()
    subscription = make_subscription(owner, "active", plan_key="trio")
    clients = [app.test_client() for _ in range(2)]
    for client, member in zip(clients, (member_of(create_user, owner), member_of(create_user, owner)), strict=True):
        sign_in_client(client, member.email)
    brand = subscription.brands[2]
    assert [client.get(f"/api/test-brands/{brand.id}").status_code for client in clients * 2] == [200] * 4

    subscription.brands = subscription.brands[:2]  # the owner chose other brands
    db.session.commit()
    assert [client.get(f"/api/test-brands/{brand.id}").status_code for client in clients] == [403, 403]

    subscription.status = "cancelled"
    db.session.commit()
    answers = [client.get(f"/api/test-brands/{subscription.brands[0].id}") for client in clients]
    assert [answer.get_json()["error"]["code"] for answer in answers] == ["subscription_required"] * 2


# --- roles ---------------------------------------------------------------------------------------------------------


def test_a_clerk_cannot_buy_change_seats_or_see_payments(create_user, three_seats, client_of, billing_catalog):
    owner, _subscription = three_seats
    [payment] = payments_of(owner)
    clerk = client_of(member_of(create_user, owner))

    assert start_checkout(clerk, billing_catalog, "trio").status_code == 403
    assert clerk.get("/api/payments/me").status_code == 403
    assert clerk.get(f"/api/payments/{payment.id}/receipt").status_code == 403
    assert clerk.put(SEATS_URL, json={"seats": 4}, headers=SITE).status_code == 403
    assert clerk.post("/api/subscriptions/trial", headers=SITE).status_code == 403
    assert clerk.get("/payments").status_code == 403
    assert clerk.get("/api/subscriptions/me").status_code == 200
    assert clerk.get(SEATS_URL).get_json()["seats"] == 3


def test_a_second_owner_sees_the_shops_payments(create_user, three_seats, client_of):
    owner, _subscription = three_seats
    [payment] = payments_of(owner)
    partner = client_of(member_of(create_user, owner, role="owner"))

    history = partner.get("/api/payments/me").get_json()

    assert [item["id"] for item in history] == [str(payment.id)]
    assert partner.get(f"/api/payments/{payment.id}/receipt").status_code == 200


# --- seats ---------------------------------------------------------------------------------------------------------


def test_the_owner_buys_three_seats_and_the_provider_sees_them(three_seats, stripe_sandbox, card_client):
    owner, subscription = three_seats
    [payment] = payments_of(owner)
    session = stripe_sandbox.sessions[payment.checkout_session_id]

    assert session["metadata"]["seats"] == "3"
    lines = [(line["description"], line["quantity"], line["amount_total"]) for line in session["line_items"]["data"]]
    # The single-brand plan includes one seat: two more at 149,00 ₺ each.
    assert lines == [("Parça Bul Tek Marka, aylık", 1, 39_900), ("Parça Bul ek koltuk", 2, 29_800)]
    assert session["amount_total"] == payment.amount == 69_700
    assert payment.seats == 3 and payment.shop_id == owner.shop_id
    seats = card_client.get(SEATS_URL).get_json()
    assert (seats["seats"], seats["inUse"], seats["included"]) == (3, 1, 1)


def test_adding_a_seat_is_prorated_and_its_notice_applied_once(
    three_seats, card_client, stripe_sandbox, webhook_client
):
    owner, subscription = three_seats
    subscription.end_date = utcnow() + timedelta(days=15)  # half of the month left
    db.session.commit()

    response = card_client.put(SEATS_URL, json={"seats": 4}, headers=SITE)

    assert response.status_code == 200, response.get_json()
    assert response.get_json()["seats"] == 3  # added once paid
    seat_payment = payments_of(owner)[-1]
    session = stripe_sandbox.sessions[seat_payment.checkout_session_id]
    assert response.get_json()["checkoutUrl"] == session["url"]
    [line] = session["line_items"]["data"]
    assert line["quantity"] == 1
    # 149,00 ₺ a month for about half a month (a month from now is 28 to 31 days).
    assert 14_900 * 15 // 31 <= seat_payment.amount <= 14_900 * 15 // 28 + 1
    assert (seat_payment.purpose, seat_payment.seats, session["metadata"]["seats"]) == ("seats", 4, "4")

    event = stripe_sandbox.complete(session["id"])
    assert deliver(webhook_client, stripe_sandbox, event).status_code == 200
    assert deliver(webhook_client, stripe_sandbox, event).status_code == 200  # delivered twice
    again = stripe_sandbox.send_event("checkout.session.async_payment_succeeded", dict(event["data"]["object"]))
    assert deliver(webhook_client, stripe_sandbox, again).status_code == 200  # another notice of the same payment

    [subscription] = subscriptions_of(owner)
    assert subscription.seats == 4
    statuses = [(payment.purpose, payment.status, payment.refunded_amount) for payment in payments_of(owner)]
    assert statuses == [("plan", "completed", 0), ("seats", "completed", 0)]
    assert card_client.get(SEATS_URL).get_json()["seats"] == 4


def test_seats_cannot_go_below_the_members(create_user, three_seats, card_client):
    owner, _subscription = three_seats
    member_of(create_user, owner)
    member_of(create_user, owner, role="manager")

    response = card_client.put(SEATS_URL, json={"seats": 2}, headers={**SITE, **TR})

    assert response.status_code == 409
    assert response.get_json()["error"] == {
        "code": "seats_in_use",
        "message": "Dükkânınızda 3 üye var; koltuk sayısı bundan az olamaz. Önce bir üyeyi çıkarın.",
    }
    [subscription] = subscriptions_of(owner)
    assert subscription.seats == 3


def test_removing_unused_seats_takes_effect_at_once_without_a_payment(three_seats, card_client):
    owner, _subscription = three_seats

    response = card_client.put(SEATS_URL, json={"seats": 2}, headers=SITE)

    assert response.status_code == 200
    assert (response.get_json()["seats"], response.get_json()["checkoutUrl"]) == (2, None)
    assert len(payments_of(owner)) == 1


def test_a_checkout_with_fewer_seats_than_members_is_refused(create_user, dealer, card_client, billing_catalog):
    member_of(create_user, dealer)
    body = {"planKey": "single", "billingPeriod": "monthly", "brandIds": billing_catalog.brand_ids(1), "seats": 1}

    response = card_client.post("/api/payments/card/checkout", json=body, headers=SITE)

    assert response.status_code == 409
    assert response.get_json()["error"]["code"] == "seats_in_use"
    assert payments_of(dealer) == [] and subscriptions_of(dealer) == []


def test_a_trial_includes_the_plans_seats(dealer, card_client, billing_catalog):
    assert card_client.post("/api/subscriptions/trial", headers=SITE).status_code == 201

    seats = card_client.get(SEATS_URL).get_json()

    assert (seats["seats"], seats["included"], seats["inUse"]) == (3, 3, 1)  # the Full plan's three


# --- mails ---------------------------------------------------------------------------------------------------------


def test_the_trial_ending_mail_goes_to_the_shops_owners(create_user, make_subscription):
    owner = create_user(email="sahip@example.com")
    member_of(create_user, owner, role="owner", email="ortak@example.com")
    member_of(create_user, owner, email="tezgah@example.com")
    make_subscription(owner, "trial", plan_key="full", days_left=2.5)

    assert tasks.lifecycle_mail() == {"trialEnding": 2, "winBack": 0}
    assert sorted(mail.to_address for mail in outbox("trial_ending")) == ["ortak@example.com", "sahip@example.com"]
    assert tasks.lifecycle_mail() == {"trialEnding": 0, "winBack": 0}
