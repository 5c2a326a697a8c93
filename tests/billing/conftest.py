"""Billing fixtures: the seeded brands and plans, and subscriptions made directly in any state."""

from __future__ import annotations

from datetime import timedelta

import pytest
import sqlalchemy as sa

from app.billing import reference_data
from app.billing.models import Brand, Plan, Subscription
from app.core.db import utcnow
from app.extensions import db
from tests.support.payments import WEBHOOK_SECRET, deliver, payments_of, sign_in_client, start_checkout


class Catalog:
    """The seeded plans by key and the active brands by name order."""

    def __init__(self) -> None:
        self.plans = {plan.key: plan for plan in db.session.scalars(sa.select(Plan))}
        self.brands = list(db.session.scalars(sa.select(Brand).where(Brand.active).order_by(Brand.name)))

    def brand_ids(self, count: int) -> list[int]:
        return [brand.id for brand in self.brands[:count]]

    @property
    def all_brand_ids(self) -> list[int]:
        return [brand.id for brand in self.brands]


@pytest.fixture
def billing_catalog(app) -> Catalog:
    """Brands and plans as `flask seed` writes them, inside the test transaction."""
    reference_data.brands()
    reference_data.plans()
    db.session.commit()
    return Catalog()


@pytest.fixture
def make_subscription(billing_catalog):
    """Factory: `make_subscription(user, status, plan_key="single", billing_period="monthly", days_left=20,
    seats=None)`.

    Live and ended states get dates; the brand set matches the plan (every brand for the Full plan); without `seats`
    the subscription has the plan's included seats.
    """

    def make(
        user,
        status: str,
        plan_key: str = "single",
        billing_period: str = "monthly",
        days_left: int = 20,
        seats: int | None = None,
    ):
        plan = billing_catalog.plans[plan_key]
        brands = billing_catalog.brands if plan.is_full else billing_catalog.brands[: plan.brand_count]
        subscription = Subscription(
            user_id=user.id, plan=plan, status=status, billing_period=billing_period, brands=list(brands), seats=seats
        )
        if status != "pending":
            now = utcnow()
            subscription.start_date = now - timedelta(days=10)
            subscription.end_date = now + timedelta(days=days_left)
        if status == "cancelled":
            subscription.cancelled_at = utcnow()
        db.session.add(subscription)
        db.session.commit()
        return subscription

    return make


# --- card payments -----------------------------------------------------------------------------------------


@pytest.fixture
def card_app(make_app, stripe_sandbox, posthog):
    """An app whose real stripe SDK talks to the sandbox and whose analytics reach the fake PostHog."""
    return make_app(
        STRIPE_SECRET_KEY="sk_test_x",
        STRIPE_WEBHOOK_SECRET=WEBHOOK_SECRET,
        STRIPE_API_BASE=stripe_sandbox.url,
        CHECKOUT_ORIGIN=stripe_sandbox.url,
        BASE_URL="http://localhost",
        POSTHOG_API_KEY="phc_test",
        POSTHOG_HOST=posthog.url,
        ANALYTICS_SYNC=True,
    )


@pytest.fixture
def card_client(card_app):
    return card_app.test_client()


@pytest.fixture
def checkout(create_user, card_client, billing_catalog, stripe_sandbox):
    """A dealer who started a trio checkout; returns (user, the provider's session id)."""
    user = create_user()
    sign_in_client(card_client, user.email)
    assert start_checkout(card_client, billing_catalog, "trio").status_code == 200
    [payment] = payments_of(user)
    return user, payment.checkout_session_id


@pytest.fixture
def dealer(create_user, card_client):
    """A signed-in user of `card_client`, with no subscription yet."""
    user = create_user()
    sign_in_client(card_client, user.email)
    return user


@pytest.fixture
def webhook_client(card_app):
    """The provider sends no session cookie."""
    return card_app.test_client()


@pytest.fixture
def paid(checkout, webhook_client, stripe_sandbox):
    """The dealer's trio checkout paid (799,00 ₺): (user, the completed payment)."""
    user, session_id = checkout
    assert deliver(webhook_client, stripe_sandbox, stripe_sandbox.complete(session_id)).status_code == 200
    [payment] = payments_of(user)
    assert payment.status == "completed"
    return user, payment
