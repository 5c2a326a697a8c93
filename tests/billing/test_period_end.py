"""The period-end job: trials and paid periods past their end expire, a scheduled downgrade becomes the next
(pending) period with its brands, and running it again, or twice at once, changes nothing more."""

import threading
from datetime import timedelta

import pytest
import sqlalchemy as sa

from app.billing import periods
from app.billing.models import Plan
from app.core.db import utcnow
from app.extensions import db
from tests.conftest import SITE, csrf_token_from
from tests.support.committed_dealer import committed_dealer
from tests.support.payments import deliver, payments_of, sign_in_client, subscriptions_of


def test_an_ended_trial_and_an_ended_paid_period_expire_and_a_second_run_changes_nothing(
    create_user, make_subscription
):
    trial = make_subscription(create_user(), "trial", "full", days_left=-1)
    paid = make_subscription(create_user(), "active", "trio", days_left=-2)
    running = make_subscription(create_user(), "active", "trio", days_left=5)

    first = periods.end_periods()
    second = periods.end_periods()

    assert first.as_dict() == {"expired": 2, "downgrades": 0}
    assert second.as_dict() == {"expired": 0, "downgrades": 0}
    for subscription in (trial, paid, running):
        db.session.refresh(subscription)
    assert (trial.status, paid.status, running.status) == ("expired", "expired", "active")


def test_a_scheduled_downgrade_becomes_the_next_period_with_its_brands(
    create_user, card_client, make_subscription, billing_catalog
):
    user = create_user()
    make_subscription(user, "active", "trio", days_left=10)
    sign_in_client(card_client, user.email)
    keep = billing_catalog.brand_ids(3)[1]
    response = card_client.patch(
        "/api/subscriptions/downgrade", json={"planKey": "single", "brandIds": [keep]}, headers=SITE
    )
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["scheduledChange"]["plan"]["key"] == "single"

    assert periods.end_periods(utcnow() + timedelta(days=11)).as_dict() == {"expired": 1, "downgrades": 1}
    assert periods.end_periods(utcnow() + timedelta(days=11)).as_dict() == {"expired": 0, "downgrades": 0}

    old, new = subscriptions_of(user.id)
    assert (old.status, old.scheduled_plan_id) == ("expired", None)
    assert (new.status, new.plan.key, [b.id for b in new.brands]) == ("pending", "single", [keep])
    me = card_client.get("/api/subscriptions/me").get_json()
    assert (me["status"], me["plan"]["key"]) == ("pending", "single")


def test_a_downgrade_end_to_end_through_the_subscription_page_and_the_checkout(
    create_user, card_client, webhook_client, make_subscription, billing_catalog, stripe_sandbox
):
    user = create_user()
    make_subscription(user, "active", "trio", days_left=10)
    sign_in_client(card_client, user.email)
    keep = billing_catalog.brand_ids(3)[0]
    card_client.patch("/api/subscriptions/downgrade", json={"planKey": "single", "brandIds": [keep]}, headers=SITE)
    periods.end_periods(utcnow() + timedelta(days=11))

    page = card_client.get("/subscription").get_data(as_text=True)
    assert "399,00" in page  # the pay button names the single plan's price
    response = card_client.post(
        "/checkout",
        data={
            "plan_key": "single",
            "billing_period": "monthly",
            "brand_ids": [str(keep)],
            "csrf_token": csrf_token_from(page),
        },
        headers=SITE,
    )
    assert response.status_code == 303 and response.headers["Location"].startswith(stripe_sandbox.url)
    payment = payments_of(user)[-1]
    paid = stripe_sandbox.complete(payment.checkout_session_id)
    assert deliver(webhook_client, stripe_sandbox, paid).status_code == 200

    live = [s for s in subscriptions_of(user.id) if s.status == "active"]
    assert [(s.plan.key, [b.id for b in s.brands]) for s in live] == [("single", [keep])]


def test_a_downgrade_can_be_taken_back(create_user, card_client, make_subscription, billing_catalog):
    user = create_user()
    make_subscription(user, "active", "trio")
    sign_in_client(card_client, user.email)
    body = {"planKey": "single", "brandIds": billing_catalog.brand_ids(1)}
    card_client.patch("/api/subscriptions/downgrade", json=body, headers=SITE)

    response = card_client.delete("/api/subscriptions/downgrade", json={}, headers=SITE)
    again = card_client.delete("/api/subscriptions/downgrade", json={}, headers=SITE)

    assert response.status_code == 200 and response.get_json()["scheduledChange"] is None
    assert again.status_code == 404 and again.get_json()["error"]["code"] == "no_scheduled_change"
    assert periods.end_periods(utcnow() + timedelta(days=40)).downgrades == 0


@pytest.mark.parametrize(
    ("plan_key", "period_case"),
    [("trio", "same plan"), ("full", "a dearer plan")],
)
def test_only_a_cheaper_plan_can_be_scheduled(
    create_user, card_client, make_subscription, billing_catalog, plan_key, period_case
):
    user = create_user()
    make_subscription(user, "active", "trio")
    sign_in_client(card_client, user.email)
    count = billing_catalog.plans[plan_key].brand_count
    body = {"planKey": plan_key, "brandIds": billing_catalog.brand_ids(count)}

    response = card_client.patch("/api/subscriptions/downgrade", json=body, headers=SITE)

    assert response.status_code == 400, period_case
    assert response.get_json()["error"]["code"] == "not_a_downgrade"


def test_the_job_runs_from_the_command_line(runner, create_user, make_subscription):
    subscription = make_subscription(create_user(), "trial", "full", days_left=-1)

    result = runner.invoke(args=["billing", "end-periods"])

    assert result.exit_code == 0 and "1 expired" in result.output
    db.session.refresh(subscription)
    assert subscription.status == "expired"


@pytest.mark.no_isolation
def test_four_period_end_runs_at_once_start_the_downgrade_once(app):
    with committed_dealer(app) as dealer:
        with app.app_context():
            [subscription] = subscriptions_of(dealer.id)
            trio = db.session.scalar(sa.select(Plan).where(Plan.key == "trio"))
            subscription.end_date = utcnow() - timedelta(minutes=1)
            subscription.scheduled_plan_id = trio.id
            subscription.scheduled_brand_ids = [brand.id for brand in subscription.brands[:3]]
            db.session.commit()
            db.session.remove()
        barrier = threading.Barrier(4)
        reports = []

        def run() -> None:
            with app.app_context():
                barrier.wait()
                reports.append(periods.end_periods().as_dict())
                db.session.remove()

        threads = [threading.Thread(target=run) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)

        with app.app_context():
            states = sorted((s.status, s.plan.key) for s in subscriptions_of(dealer.id))
            db.session.remove()
    assert sum(report["expired"] for report in reports) == 1
    assert sum(report["downgrades"] for report in reports) == 1
    assert states == [("expired", "full"), ("pending", "trio")]
