"""One live subscription per dealer: what a dealer with a plan may buy, and what an upgrade, a renewal or a trial's
end does to the plan they had (through the checkout API, the sandbox provider and its signed webhook)."""

from datetime import timedelta

import pytest
import sqlalchemy as sa
from dateutil.relativedelta import relativedelta

from app.billing.models import PaymentRefund, Subscription
from app.core.db import utcnow
from app.extensions import db
from tests.conftest import SITE
from tests.support.payments import deliver, payments_of, subscriptions_of

CHECKOUT = "/api/payments/card/checkout"


def live_of(user) -> list[Subscription]:
    return [subscription for subscription in subscriptions_of(user) if subscription.status in ("active", "trial")]


def buy(client, plan_key: str, period: str, brand_ids: list[int]):
    body = {"planKey": plan_key, "billingPeriod": period, "brandIds": brand_ids}
    return client.post(CHECKOUT, json=body, headers=SITE)


def pay_latest(client, sandbox, user):
    """Pay the user's newest checkout at the provider and deliver its webhook; return the payment."""
    payment = payments_of(user)[-1]
    assert deliver(client, sandbox, sandbox.complete(payment.checkout_session_id)).status_code == 200
    return payments_of(user)[-1]


def test_an_active_dealer_cannot_buy_the_plan_they_have(card_client, dealer, make_subscription, billing_catalog):
    make_subscription(dealer, "active", "trio", days_left=20)

    response = buy(card_client, "trio", "monthly", billing_catalog.brand_ids(3))

    assert response.status_code == 409
    error = response.get_json()["error"]
    assert error["code"] == "already_subscribed"
    assert "zaten" in error["message"]  # Turkish by default
    assert payments_of(dealer) == [] and [s.status for s in subscriptions_of(dealer)] == ["active"]


def test_a_cheaper_plan_is_refused_as_a_purchase_and_pointed_to_the_downgrade(
    card_client, dealer, make_subscription, billing_catalog
):
    make_subscription(dealer, "active", "trio")

    response = buy(card_client, "single", "monthly", billing_catalog.brand_ids(1))

    assert response.status_code == 409
    assert response.get_json()["error"]["code"] == "use_downgrade"
    assert payments_of(dealer) == []


def test_the_refusal_speaks_english_when_asked(card_client, dealer, make_subscription, billing_catalog):
    make_subscription(dealer, "active", "trio")
    body = {"planKey": "trio", "billingPeriod": "monthly", "brandIds": billing_catalog.brand_ids(3)}

    response = card_client.post(CHECKOUT, json=body, headers={**SITE, "Accept-Language": "en"})

    assert "You already have this plan" in response.get_json()["error"]["message"]


def test_a_trial_dealer_buys_a_plan_and_the_trial_ends_when_it_activates(
    card_client, webhook_client, dealer, make_subscription, billing_catalog, stripe_sandbox
):
    trial = make_subscription(dealer, "trial", "full")
    chosen = billing_catalog.brand_ids(3)

    assert buy(card_client, "trio", "monthly", chosen).status_code == 200
    assert [s.status for s in live_of(dealer)] == ["trial"]  # the trial goes on until the money arrives
    pay_latest(webhook_client, stripe_sandbox, dealer)

    [live] = live_of(dealer)
    assert (live.plan.key, live.status, sorted(b.id for b in live.brands)) == ("trio", "active", sorted(chosen))
    db.session.refresh(trial)
    assert trial.status == "expired" and trial.end_date <= utcnow()
    # Nothing of the free trial is carried over: the paid month starts now.
    assert abs(live.end_date - (live.start_date + relativedelta(months=1))) < timedelta(minutes=1)


def test_an_upgrade_replaces_the_plan_at_once_and_carries_the_unused_paid_days(
    card_client, webhook_client, dealer, make_subscription, billing_catalog, stripe_sandbox, posthog
):
    single = make_subscription(dealer, "active", "single", days_left=20)
    kept = single.brands[0].id
    chosen = [kept, *[i for i in billing_catalog.all_brand_ids if i != kept][:2]]

    assert buy(card_client, "trio", "monthly", chosen).status_code == 200
    payment = pay_latest(webhook_client, stripe_sandbox, dealer)

    assert payment.status == "completed" and payment.amount == 79_900
    [live] = live_of(dealer)
    assert live.plan.key == "trio" and kept in {brand.id for brand in live.brands}
    db.session.refresh(single)
    assert single.status == "expired"
    # 20 days of a 399 TL month are worth 20 * 399 / 799 = 9.98 days of the 799 TL plan.
    expected = live.start_date + relativedelta(months=1) + timedelta(days=20 * 39_900 / 79_900)
    assert abs(live.end_date - expected) < timedelta(minutes=5)
    [activated] = posthog.named("subscription_activated")
    assert activated["properties"]["carried_days"] == 9
    for name in ("$revenue", "currency", "mrr", "plan", "plan_id", "brand_count", "billing_period", "method"):
        assert name in activated["properties"]
    assert activated["properties"]["referral_credit_days"] == 0


def test_the_same_plan_is_renewed_in_the_last_week_and_the_new_month_follows_the_old_one(
    card_client, webhook_client, dealer, make_subscription, billing_catalog, stripe_sandbox
):
    current = make_subscription(dealer, "active", "trio", days_left=3)
    old_end = current.end_date

    assert buy(card_client, "trio", "monthly", billing_catalog.brand_ids(3)).status_code == 200
    pay_latest(webhook_client, stripe_sandbox, dealer)

    [live] = live_of(dealer)
    assert abs(live.end_date - (live.start_date + relativedelta(months=1) + (old_end - live.start_date))) < timedelta(
        minutes=2
    )


def test_monthly_to_yearly_on_the_same_plan_is_a_purchase(
    card_client, webhook_client, dealer, make_subscription, billing_catalog, stripe_sandbox
):
    make_subscription(dealer, "active", "trio", days_left=20)

    assert buy(card_client, "trio", "yearly", billing_catalog.brand_ids(3)).status_code == 200
    pay_latest(webhook_client, stripe_sandbox, dealer)

    [live] = live_of(dealer)
    assert (live.billing_period, live.plan.key) == ("yearly", "trio")


def test_a_checkout_paid_after_it_was_replaced_is_refunded_at_once(
    card_client, webhook_client, dealer, billing_catalog, stripe_sandbox
):
    assert buy(card_client, "trio", "monthly", billing_catalog.brand_ids(3)).status_code == 200
    first = payments_of(dealer)[0]
    assert buy(card_client, "full", "monthly", []).status_code == 200  # a second tab: the first is abandoned
    pay_latest(webhook_client, stripe_sandbox, dealer)

    # The first tab is paid anyway (the provider closed it a moment too late).
    event = stripe_sandbox.complete(first.checkout_session_id)
    assert deliver(webhook_client, stripe_sandbox, event).status_code == 200

    stale = next(p for p in payments_of(dealer) if p.id == first.id)
    assert (stale.status, stale.refunded_amount) == ("refunded", stale.amount)
    [refund] = db.session.scalars(sa.select(PaymentRefund).where(PaymentRefund.payment_id == first.id)).all()
    assert refund.source == "automatic" and refund.provider_refund_id in stripe_sandbox.refunds
    [live] = live_of(dealer)
    assert live.plan.key == "full"


def test_the_database_holds_one_live_subscription_per_user(dealer, make_subscription):
    make_subscription(dealer, "active")
    plan = db.session.scalar(sa.select(Subscription.plan_id).limit(1))
    db.session.add(Subscription(user_id=dealer.id, plan_id=plan, status="trial", billing_period="monthly"))

    with pytest.raises(sa.exc.IntegrityError):
        db.session.flush()
    db.session.rollback()


def test_the_plans_api_tells_a_dealer_what_each_plan_would_mean(
    card_client, dealer, make_subscription, billing_catalog
):
    make_subscription(dealer, "active", "trio", days_left=20)

    plans = {plan["key"]: plan for plan in card_client.get("/api/subscriptions/plans").get_json()["plans"]}

    assert [key for key, plan in plans.items() if plan["isCurrent"]] == ["trio"]
    assert plans["trio"]["changes"]["monthly"] == {
        "kind": "current",
        "purchasable": False,
        "price": 79_900,
        "creditDays": 0,
        "effectiveDate": None,
    }
    assert plans["trio"]["changes"]["yearly"]["kind"] == "yearly"
    assert plans["full"]["changes"]["monthly"]["kind"] == "upgrade"
    assert plans["full"]["changes"]["monthly"]["creditDays"] == 10  # 20 days * 799 / 1499
    single = plans["single"]["changes"]["monthly"]
    assert (single["kind"], single["purchasable"]) == ("downgrade", False) and single["effectiveDate"]
    assert all(plan["vatIncluded"] for plan in plans.values())


def test_signed_out_the_plans_api_has_no_changes(client, billing_catalog):
    plans = client.get("/api/subscriptions/plans").get_json()["plans"]

    assert {plan["changes"] is None and plan["isCurrent"] is False for plan in plans} == {True}


@pytest.mark.parametrize("brand_ids", [[], [999_999], "x", None])
def test_a_second_plan_is_refused_before_its_brands_are_even_read(card_client, dealer, make_subscription, brand_ids):
    make_subscription(dealer, "active", "trio")

    response = buy(card_client, "single", "monthly", brand_ids)

    assert (response.status_code, response.get_json()["error"]["code"]) == (409, "use_downgrade")
