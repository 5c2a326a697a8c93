"""Every row of the subscription state table, allowed and refused, driven through the services."""

from datetime import timedelta

import pytest
import sqlalchemy as sa
from dateutil.relativedelta import relativedelta

from app.billing.models import SUBSCRIPTION_STATUSES, Payment, Plan, Subscription
from app.billing.subscriptions import queries, transitions
from app.core.db import utcnow
from app.core.errors import ApiError
from app.extensions import db


def other_states(*allowed: str) -> list[str]:
    return [status for status in SUBSCRIPTION_STATUSES if status not in allowed]


def refused(call, code: str = "invalid_transition", status: int = 409) -> ApiError:
    with pytest.raises(ApiError) as caught:
        call()
    assert (caught.value.code, caught.value.status) == (code, status)
    return caught.value


@pytest.fixture(autouse=True)
def _request(app):
    """Refusal messages are translated for the request's language, so services run inside one, as in production."""
    with app.test_request_context():
        yield


@pytest.fixture
def user(create_user):
    return create_user()


# none -> pending


def test_create_pending_leaves_one_pending_and_expires_the_older(user, billing_catalog):
    first = transitions.create_pending(user, "single", "monthly", billing_catalog.brand_ids(1))
    second = transitions.create_pending(user, "full", "yearly", [])

    assert (first.status, second.status) == ("expired", "pending")
    assert queries.pending_subscription(user) is second


def test_create_pending_refuses_an_inactive_plan(user, billing_catalog):
    billing_catalog.plans["single"].active = False

    refused(
        lambda: transitions.create_pending(user, "single", "monthly", billing_catalog.brand_ids(1)),
        "invalid_plan",
        400,
    )


def test_a_refused_create_keeps_the_older_pending(user, make_subscription):
    older = make_subscription(user, "pending")

    refused(lambda: transitions.create_pending(user, "trio", "monthly", [1]), "invalid_brand_set", 400)

    assert older.status == "pending"


# none -> trial


def test_trial_gives_the_full_plan_for_the_trial_days_plus_banked_credit(app, create_user, billing_catalog):
    user = create_user(referral_credit_days=4)

    trial = transitions.start_trial(user)

    assert (trial.status, trial.plan.key) == ("trial", "full")
    assert trial.end_date - trial.start_date == timedelta(days=app.config["TRIAL_DAYS"] + 4)
    assert user.referral_credit_days == 0
    assert len(trial.brands) == len(billing_catalog.brands)
    assert queries.brand_ids_for(user) == {brand.id for brand in billing_catalog.brands}


def test_an_abandoned_checkout_does_not_use_up_the_trial(user, make_subscription):
    make_subscription(user, "pending")
    transitions.cancel_pending(user)

    assert transitions.start_trial(user).status == "trial"


@pytest.mark.parametrize("earlier", ["trial", "active", "cancelled", "expired"])
def test_no_trial_after_an_earlier_trial_or_paid_period(user, make_subscription, earlier):
    make_subscription(user, earlier, "full", days_left=-1 if earlier == "expired" else 20)

    refused(lambda: transitions.start_trial(user), "trial_not_eligible")


# pending/trial -> active (the single activation routine)


@pytest.mark.parametrize(
    ("period", "length"), [("monthly", relativedelta(months=1)), ("yearly", relativedelta(years=1))]
)
def test_activation_dates_follow_the_billing_period_plus_credit_days(create_user, billing_catalog, period, length):
    user = create_user(referral_credit_days=3)
    pending = transitions.create_pending(user, "single", period, billing_catalog.brand_ids(1))

    active = transitions.activate(pending)

    assert active.status == "active"
    assert abs(active.start_date - utcnow()) < timedelta(seconds=5)
    assert active.end_date == active.start_date + length + timedelta(days=3)
    assert user.referral_credit_days == 0
    assert [brand.id for brand in active.brands] == billing_catalog.brand_ids(1)


def test_activating_the_full_plan_grants_every_active_brand(user, billing_catalog):
    billing_catalog.brands[0].active = False
    pending = transitions.create_pending(user, "full", "monthly", [])

    transitions.activate(pending)

    assert {brand.id for brand in pending.brands} == {brand.id for brand in billing_catalog.brands[1:]}


def test_a_trial_can_be_activated(user, make_subscription):
    trial = make_subscription(user, "trial", "full")

    assert transitions.activate(trial).status == "active"


@pytest.mark.parametrize("status", other_states("pending", "trial"))
def test_activation_is_refused_for(user, make_subscription, status):
    subscription = make_subscription(user, status)

    refused(lambda: transitions.activate(subscription))
    assert subscription.status == status


@pytest.fixture
def analytics_app(make_app, posthog):
    return make_app(POSTHOG_API_KEY="phc_test", POSTHOG_HOST=posthog.url, ANALYTICS_SYNC=True)


def activate_by_id(analytics_app, subscription_id) -> None:
    with analytics_app.app_context():
        transitions.activate(db.session.get(Subscription, subscription_id))
        db.session.commit()


def test_activation_sends_subscription_activated(analytics_app, posthog, create_user, billing_catalog):
    user = create_user(referral_credit_days=5)
    pending = transitions.create_pending(user, "trio", "monthly", billing_catalog.brand_ids(3))
    db.session.commit()

    activate_by_id(analytics_app, pending.id)

    [event] = posthog.named("subscription_activated")
    assert event["distinct_id"] == str(user.id)
    properties = event["properties"]
    assert {key: properties[key] for key in EVENT_KEYS} == {
        "$revenue": 799.0,
        "currency": "TRY",
        "mrr": 799.0,
        "plan": "trio",
        "plan_id": billing_catalog.plans["trio"].id,
        "brand_count": 3,
        "billing_period": "monthly",
        "method": "manual",
        "referral_credit_days": 5,
    }


EVENT_KEYS = (
    "$revenue",
    "currency",
    "mrr",
    "plan",
    "plan_id",
    "brand_count",
    "billing_period",
    "method",
    "referral_credit_days",
)


def test_a_yearly_card_activation_reports_monthly_revenue_and_the_payment_method(
    analytics_app, posthog, user, billing_catalog
):
    pending = transitions.create_pending(user, "full", "yearly", [])
    db.session.add(Payment(user_id=user.id, subscription_id=pending.id, amount=1_499_000, method="card"))
    db.session.commit()

    activate_by_id(analytics_app, pending.id)

    [event] = posthog.named("subscription_activated")
    properties = event["properties"]
    assert properties["$revenue"] == 14_990.0
    assert properties["mrr"] == round(14_990 / 12, 2)
    assert properties["method"] == "card"
    assert properties["brand_count"] == len(billing_catalog.brands)
    assert properties["referral_credit_days"] == 0


def test_a_refused_activation_sends_nothing(analytics_app, posthog, user, make_subscription):
    active = make_subscription(user, "active")

    with analytics_app.app_context(), pytest.raises(ApiError):
        transitions.activate(db.session.get(Subscription, active.id))

    assert posthog.named("subscription_activated") == []


# pending -> expired (checkout cancelled/expired notification, cancel-pending)


def test_expire_pending_expires_a_pending_subscription(user, make_subscription):
    pending = make_subscription(user, "pending")

    assert transitions.expire_pending(pending) is True
    assert pending.status == "expired"


@pytest.mark.parametrize("status", other_states("pending"))
def test_expire_pending_leaves_other_states_alone(user, make_subscription, status):
    subscription = make_subscription(user, status)

    assert transitions.expire_pending(subscription) is False
    assert subscription.status == status


def test_cancel_pending_without_a_pending_subscription_is_not_found(user, make_subscription):
    make_subscription(user, "active")

    refused(lambda: transitions.cancel_pending(user), "no_pending_subscription", 404)


# trial/active -> same (extend)


@pytest.mark.parametrize("status", ["trial", "active"])
def test_extend_adds_days_to_a_future_end(user, make_subscription, status):
    subscription = make_subscription(user, status, days_left=10)
    old_end = subscription.end_date

    previous, new = transitions.extend(subscription, 5)

    assert (previous, new) == (old_end, old_end + timedelta(days=5))
    assert subscription.status == status


def test_extend_counts_from_now_when_the_end_has_passed(user, make_subscription):
    subscription = make_subscription(user, "active", days_left=-3)

    _, new = transitions.extend(subscription, 7)

    assert abs(new - (utcnow() + timedelta(days=7))) < timedelta(seconds=5)


@pytest.mark.parametrize("days", [1, 90])
def test_extend_accepts_the_bounds(user, make_subscription, days):
    subscription = make_subscription(user, "trial")

    previous, new = transitions.extend(subscription, days)

    assert new - previous == timedelta(days=days)


@pytest.mark.parametrize("days", [0, 91, -1, True, "5", 2.5, None])
def test_extend_refuses_days_out_of_range(user, make_subscription, days):
    subscription = make_subscription(user, "active")
    end = subscription.end_date

    refused(lambda: transitions.extend(subscription, days), "invalid_days", 400)
    assert subscription.end_date == end


@pytest.mark.parametrize("status", other_states("trial", "active"))
def test_extend_is_refused_for(user, make_subscription, status):
    subscription = make_subscription(user, status)

    refused(lambda: transitions.extend(subscription, 5))


# active/trial -> cancelled, cancelled -> active


@pytest.mark.parametrize("status", ["active", "trial"])
def test_cancel_sets_cancelled_at(user, make_subscription, status):
    subscription = make_subscription(user, status)

    transitions.cancel(subscription)

    assert subscription.status == "cancelled"
    assert abs(subscription.cancelled_at - utcnow()) < timedelta(seconds=5)


@pytest.mark.parametrize("status", other_states("active", "trial"))
def test_cancel_is_refused_for(user, make_subscription, status):
    subscription = make_subscription(user, status)

    refused(lambda: transitions.cancel(subscription))
    assert subscription.status == status


def test_resume_reactivates_and_clears_cancelled_at(user, make_subscription):
    subscription = make_subscription(user, "cancelled")

    transitions.resume(subscription)

    assert (subscription.status, subscription.cancelled_at) == ("active", None)


@pytest.mark.parametrize("status", other_states("cancelled"))
def test_resume_is_refused_for(user, make_subscription, status):
    subscription = make_subscription(user, status)

    refused(lambda: transitions.resume(subscription))


# active/trial -> same (change plan, reassign brands)


@pytest.fixture
def single_pro(billing_catalog) -> Plan:
    plan = Plan(key="single-pro", name="Tek Marka Pro", brand_count=1, monthly_price=49_900, yearly_price=499_000)
    db.session.add(plan)
    db.session.flush()
    return plan


@pytest.mark.parametrize(
    ("current", "target", "needed"),
    [("single", "trio", True), ("trio", "single", True), ("single", "single-pro", False), ("trio", "full", False)],
)
def test_change_plan_keeps_the_brands_and_says_whether_they_must_be_rechosen(
    user, make_subscription, billing_catalog, single_pro, current, target, needed
):
    subscription = make_subscription(user, "active", current)
    brands_before = list(subscription.brands)
    target_id = single_pro.id if target == "single-pro" else billing_catalog.plans[target].id

    assert transitions.change_plan(subscription, target_id) is needed
    assert subscription.plan_id == target_id
    assert subscription.brands == brands_before


def test_change_plan_works_on_a_trial(user, make_subscription, billing_catalog):
    trial = make_subscription(user, "trial", "full")

    transitions.change_plan(trial, billing_catalog.plans["trio"].id)

    assert (trial.status, trial.plan.key) == ("trial", "trio")


def test_change_plan_to_the_same_plan_is_refused(user, make_subscription, billing_catalog):
    subscription = make_subscription(user, "active", "trio")

    refused(lambda: transitions.change_plan(subscription, billing_catalog.plans["trio"].id), "same_plan")


@pytest.mark.parametrize("plan_id", [99_999, "1", None])
def test_change_plan_to_an_unknown_plan_is_refused(user, make_subscription, plan_id):
    subscription = make_subscription(user, "active")

    refused(lambda: transitions.change_plan(subscription, plan_id), "invalid_plan", 400)


def test_change_plan_to_an_inactive_plan_is_refused(user, make_subscription, billing_catalog):
    subscription = make_subscription(user, "active")
    billing_catalog.plans["trio"].active = False

    refused(lambda: transitions.change_plan(subscription, billing_catalog.plans["trio"].id), "invalid_plan", 400)
    assert subscription.plan.key == "single"


@pytest.mark.parametrize("status", other_states("active", "trial"))
def test_change_plan_is_refused_for(user, make_subscription, billing_catalog, status):
    subscription = make_subscription(user, status)

    refused(lambda: transitions.change_plan(subscription, billing_catalog.plans["trio"].id))


@pytest.mark.parametrize("status", ["active", "trial"])
def test_reassign_replaces_the_brand_set(user, make_subscription, billing_catalog, status):
    subscription = make_subscription(user, status, "trio")
    new_ids = [brand.id for brand in billing_catalog.brands[5:8]]

    transitions.reassign_brands(subscription, new_ids)

    db.session.commit()
    db.session.expire_all()
    assert sorted(brand.id for brand in db.session.get(Subscription, subscription.id).brands) == sorted(new_ids)


@pytest.mark.parametrize(
    "pick",
    [
        lambda ids: ids[:2],
        lambda ids: ids[:4],
        lambda ids: [ids[0], ids[0], ids[1]],
        lambda ids: [ids[0], ids[1], 99_999],
        lambda ids: [ids[0], ids[1], "3"],
        lambda ids: None,
    ],
    ids=["too few", "too many", "duplicate", "unknown", "not an id", "missing"],
)
def test_reassign_validates_the_brand_set_and_keeps_the_old_one(user, make_subscription, billing_catalog, pick):
    subscription = make_subscription(user, "active", "trio")
    before = list(subscription.brands)

    refused(
        lambda: transitions.reassign_brands(subscription, pick(billing_catalog.brand_ids(6))),
        "invalid_brand_set",
        400,
    )
    assert subscription.brands == before


def test_reassign_refuses_an_inactive_brand(user, make_subscription, billing_catalog):
    subscription = make_subscription(user, "active", "single")
    billing_catalog.brands[9].active = False

    refused(lambda: transitions.reassign_brands(subscription, [billing_catalog.brands[9].id]), "invalid_brand_set", 400)


def test_reassign_is_refused_for_the_full_plan(user, make_subscription, billing_catalog):
    subscription = make_subscription(user, "active", "full")

    refused(lambda: transitions.reassign_brands(subscription, billing_catalog.brand_ids(1)), "full_plan_brands")


@pytest.mark.parametrize("status", other_states("active", "trial"))
def test_reassign_is_refused_for(user, make_subscription, billing_catalog, status):
    subscription = make_subscription(user, status)

    refused(lambda: transitions.reassign_brands(subscription, billing_catalog.brand_ids(1)))


# Reads


def test_live_subscription_ignores_ended_and_other_states(user, make_subscription):
    ended = make_subscription(user, "active", days_left=-1)
    make_subscription(user, "cancelled")
    assert queries.live_subscription(user) is None
    assert queries.brand_ids_for(user) == set()

    ended.status = "expired"  # what the period-end job does; the database holds one live row per user
    db.session.commit()
    trial = make_subscription(user, "trial", "full")
    assert queries.live_subscription(user) is trial


def test_full_plan_access_follows_the_active_brands(user, make_subscription, billing_catalog):
    make_subscription(user, "active", "full")
    billing_catalog.brands[0].active = False
    db.session.flush()

    assert queries.brand_ids_for(user) == {brand.id for brand in billing_catalog.brands[1:]}


def test_the_database_allows_one_pending_subscription_per_user(user, make_subscription):
    make_subscription(user, "pending")
    plan_id = db.session.scalar(sa.select(Plan.id).limit(1))
    db.session.add(Subscription(user_id=user.id, plan_id=plan_id, status="pending", billing_period="monthly"))

    with pytest.raises(sa.exc.IntegrityError):
        db.session.flush()
    db.session.rollback()
