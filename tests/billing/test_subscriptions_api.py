"""The /api/subscriptions routes: plan and brand lists, the caller's subscription, create, trial, cancel, downgrade."""

from datetime import timedelta

import pytest
import sqlalchemy as sa

from app.billing.models import Subscription
from app.core.db import utcnow
from app.extensions import db
from tests.conftest import SITE


@pytest.fixture
def user(create_user, sign_in):
    account = create_user()
    sign_in(account.email)
    return account


def subscription_rows(user) -> list[Subscription]:
    db.session.expire_all()
    return list(db.session.scalars(sa.select(Subscription).where(Subscription.user_id == user.id)))


def test_plans_are_public_ordered_and_priced_in_kurus(client, billing_catalog):
    response = client.get("/api/subscriptions/plans")

    assert response.status_code == 200
    plans = response.get_json()["plans"]
    assert [plan["key"] for plan in plans] == ["single", "trio", "full"]
    assert plans[0] == {
        "id": billing_catalog.plans["single"].id,
        "key": "single",
        "name": "Tek Marka",
        "brandCount": 1,
        "isFull": False,
        "prices": {"monthly": 39_900, "yearly": 399_000},
        "seats": {"included": 1, "prices": {"monthly": 14_900, "yearly": 149_000}},
        "monthlyEquivalentOfYearly": 33_250,
        "vatIncluded": True,
        "isCurrent": False,
        "changes": None,
    }
    assert plans[2]["isFull"] is True


def test_inactive_plans_and_brands_are_not_listed(client, billing_catalog):
    billing_catalog.plans["trio"].active = False
    billing_catalog.brands[0].active = False
    db.session.commit()

    plan_keys = [plan["key"] for plan in client.get("/api/subscriptions/plans").get_json()["plans"]]
    brands = client.get("/api/subscriptions/brands").get_json()["brands"]

    assert plan_keys == ["single", "full"]
    assert billing_catalog.brands[0].id not in [brand["id"] for brand in brands]
    assert {"id", "name", "slug"} == set(brands[0])


def test_me_needs_a_session(client):
    response = client.get("/api/subscriptions/me")

    assert response.status_code == 401
    assert response.get_json()["error"]["code"] == "unauthorized"


def test_me_is_null_without_a_subscription(client, user, billing_catalog):
    response = client.get("/api/subscriptions/me")

    assert response.status_code == 200
    assert response.get_json() is None


def test_me_prefers_the_live_subscription_over_a_pending_one(client, user, make_subscription):
    live = make_subscription(user, "active", "trio")
    make_subscription(user, "pending", "single")

    body = client.get("/api/subscriptions/me").get_json()

    assert body["id"] == str(live.id)
    assert body["status"] == "active"
    assert body["plan"] == {"id": live.plan.id, "key": "trio", "name": "Üç Marka", "brandCount": 3}
    assert len(body["brands"]) == 3
    assert body["scheduledChange"] is None
    assert body["cancelledAt"] is None


def test_me_shows_the_pending_one_else_the_latest(client, user, make_subscription):
    expired = make_subscription(user, "expired", days_left=-5)
    assert client.get("/api/subscriptions/me").get_json()["id"] == str(expired.id)

    pending = make_subscription(user, "pending")
    assert client.get("/api/subscriptions/me").get_json()["id"] == str(pending.id)


def test_create_makes_a_pending_subscription_with_the_chosen_brands(client, user, billing_catalog):
    brand_ids = billing_catalog.brand_ids(3)

    response = client.post(
        "/api/subscriptions",
        json={"planKey": "trio", "billingPeriod": "yearly", "brandIds": brand_ids},
        headers=SITE,
    )

    assert response.status_code == 201
    body = response.get_json()
    assert body["status"] == "pending"
    assert body["billingPeriod"] == "yearly"
    assert body["startDate"] is None
    assert sorted(brand["id"] for brand in body["brands"]) == sorted(brand_ids)


def test_create_for_the_full_plan_ignores_any_brand_choice(client, user, billing_catalog):
    response = client.post(
        "/api/subscriptions",
        json={"planKey": "full", "billingPeriod": "monthly", "brandIds": [999, "x"]},
        headers=SITE,
    )

    assert response.status_code == 201
    assert response.get_json()["brands"] == []


def test_a_new_create_expires_the_older_pending_one(client, user, billing_catalog):
    body = {"planKey": "single", "billingPeriod": "monthly", "brandIds": billing_catalog.brand_ids(1)}
    first = client.post("/api/subscriptions", json=body, headers=SITE).get_json()
    second = client.post("/api/subscriptions", json=body, headers=SITE).get_json()

    statuses = {str(row.id): row.status for row in subscription_rows(user)}
    assert statuses == {first["id"]: "expired", second["id"]: "pending"}


@pytest.mark.parametrize(
    ("plan_key", "period", "pick", "code"),
    [
        (None, "monthly", lambda ids: ids[:1], "missing_field"),
        ("gold", "monthly", lambda ids: ids[:1], "invalid_plan"),
        ("single", "weekly", lambda ids: ids[:1], "invalid_billing_period"),
        ("single", "monthly", lambda ids: [], "invalid_brand_set"),
        ("single", "monthly", lambda ids: str(ids[0]), "invalid_brand_set"),
        ("single", "monthly", lambda ids: [True], "invalid_brand_set"),
        ("trio", "monthly", lambda ids: [ids[0], ids[0], ids[1]], "invalid_brand_set"),
        ("trio", "monthly", lambda ids: [ids[0], ids[1], 99_999], "invalid_brand_set"),
        ("trio", "monthly", lambda ids: ids[:4], "invalid_brand_set"),
    ],
    ids=["no plan", "unknown plan", "bad period", "no brand", "not a list", "boolean", "duplicate", "unknown", "four"],
)
def test_invalid_input_is_refused_and_nothing_is_written(client, user, billing_catalog, plan_key, period, pick, code):
    body = {"planKey": plan_key, "billingPeriod": period, "brandIds": pick(billing_catalog.brand_ids(4))}

    response = client.post("/api/subscriptions", json=body, headers=SITE)

    assert response.status_code == 400
    assert response.get_json()["error"]["code"] == code
    assert subscription_rows(user) == []


def test_a_refusal_is_in_turkish_by_default(client, user, billing_catalog):
    body = {"planKey": "trio", "billingPeriod": "monthly", "brandIds": billing_catalog.brand_ids(2)}

    error = client.post("/api/subscriptions", json=body, headers=SITE).get_json()["error"]

    assert error["message"] == "Bu plan için tam olarak 3 marka seçin."


def test_an_inactive_brand_cannot_be_chosen(client, user, billing_catalog):
    billing_catalog.brands[0].active = False
    db.session.commit()
    body = {"planKey": "single", "billingPeriod": "monthly", "brandIds": billing_catalog.brand_ids(1)}

    response = client.post("/api/subscriptions", json=body, headers=SITE)

    assert response.get_json()["error"]["code"] == "invalid_brand_set"


def test_create_needs_a_json_object(client, user, billing_catalog):
    response = client.post("/api/subscriptions", data="[1, 2", headers={**SITE, "Content-Type": "application/json"})

    assert response.status_code == 400
    assert response.get_json()["error"]["code"] == "invalid_json"
    assert subscription_rows(user) == []


def test_create_from_another_site_is_refused(client, user, billing_catalog):
    body = {"planKey": "full", "billingPeriod": "monthly"}

    response = client.post("/api/subscriptions", json=body, headers={"Origin": "https://evil.example"})

    assert response.status_code == 403
    assert subscription_rows(user) == []


def test_trial_starts_once(client, app, user, billing_catalog):
    response = client.post("/api/subscriptions/trial", json={}, headers=SITE)

    assert response.status_code == 201
    body = response.get_json()
    assert body["status"] == "trial"
    assert body["plan"]["key"] == "full"
    [trial] = subscription_rows(user)
    assert trial.end_date - trial.start_date == timedelta(days=app.config["TRIAL_DAYS"])

    again = client.post("/api/subscriptions/trial", json={}, headers=SITE)
    assert again.status_code == 409
    assert again.get_json()["error"]["code"] == "trial_not_eligible"


def test_cancel_pending_expires_the_pending_subscription(client, user, make_subscription):
    pending = make_subscription(user, "pending")

    response = client.patch("/api/subscriptions/cancel-pending", json={}, headers=SITE)

    assert response.status_code == 200
    assert response.get_json()["status"] == "expired"
    db.session.refresh(pending)
    assert pending.status == "expired"


def test_cancel_pending_without_one_is_not_found(client, user, make_subscription):
    make_subscription(user, "active")

    response = client.patch("/api/subscriptions/cancel-pending", json={}, headers=SITE)

    assert response.status_code == 404
    assert response.get_json()["error"]["code"] == "no_pending_subscription"


def test_downgrade_schedules_the_cheaper_plan_for_the_end_of_the_period(client, user, make_subscription):
    current = make_subscription(user, "active", "trio", "yearly")
    brand_id = current.brands[1].id

    response = client.patch(
        "/api/subscriptions/downgrade", json={"planKey": "single", "brandIds": [brand_id]}, headers=SITE
    )

    assert response.status_code == 200
    change = response.get_json()["scheduledChange"]
    assert change["plan"]["key"] == "single"
    assert change["brandIds"] == [brand_id]
    assert change["effectiveDate"] == response.get_json()["endDate"]
    db.session.refresh(current)
    assert current.plan.key == "trio"
    assert len(current.brands) == 3


def test_a_second_downgrade_replaces_the_schedule(client, user, make_subscription, billing_catalog):
    current = make_subscription(user, "active", "full")
    client.patch(
        "/api/subscriptions/downgrade", json={"planKey": "single", "brandIds": [current.brands[0].id]}, headers=SITE
    )

    response = client.patch(
        "/api/subscriptions/downgrade", json={"planKey": "trio", "brandIds": billing_catalog.brand_ids(3)}, headers=SITE
    )

    assert response.get_json()["scheduledChange"]["plan"]["key"] == "trio"
    db.session.refresh(current)
    assert current.scheduled_brand_ids == sorted(billing_catalog.brand_ids(3))


@pytest.mark.parametrize("plan_key", ["trio", "full"])
def test_downgrade_to_the_same_or_a_dearer_plan_is_refused(client, user, make_subscription, billing_catalog, plan_key):
    make_subscription(user, "active", "trio")

    response = client.patch(
        "/api/subscriptions/downgrade",
        json={"planKey": plan_key, "brandIds": billing_catalog.brand_ids(3)},
        headers=SITE,
    )

    assert response.status_code == 400
    assert response.get_json()["error"]["code"] == "not_a_downgrade"


@pytest.mark.parametrize("status", ["trial", "pending", "cancelled", "expired"])
def test_downgrade_needs_an_active_subscription(client, user, make_subscription, billing_catalog, status):
    make_subscription(user, status, "full")

    response = client.patch(
        "/api/subscriptions/downgrade",
        json={"planKey": "single", "brandIds": billing_catalog.brand_ids(1)},
        headers=SITE,
    )

    assert response.status_code == 409
    assert response.get_json()["error"]["code"] == "no_active_subscription"


def test_downgrade_validates_the_brands_and_writes_nothing(client, user, make_subscription, billing_catalog):
    current = make_subscription(user, "active", "full")

    response = client.patch(
        "/api/subscriptions/downgrade", json={"planKey": "trio", "brandIds": billing_catalog.brand_ids(2)}, headers=SITE
    )

    assert response.status_code == 400
    db.session.refresh(current)
    assert current.scheduled_plan_id is None


def test_an_active_subscription_past_its_end_is_shown_but_not_live(client, user, make_subscription):
    ended = make_subscription(user, "active", days_left=-1)
    pending = make_subscription(user, "pending")

    assert client.get("/api/subscriptions/me").get_json()["id"] == str(pending.id)
    assert ended.end_date < utcnow()
