"""Card-payment test helpers; the fixtures (sandbox, card_app, card_client, posthog) are in billing/conftest."""

from __future__ import annotations

import sqlalchemy as sa

from app.billing.models import Payment, Subscription
from app.billing.sandbox.server import StripeSandbox
from app.extensions import db
from tests.conftest import PASSWORD, SITE

WEBHOOK_SECRET = "whsec_test"
WEBHOOK_URL = "/api/payments/card/webhook"


def sign_in_client(client, email: str) -> None:
    response = client.post("/api/auth/sign-in/email", json={"email": email, "password": PASSWORD}, headers=SITE)
    assert response.status_code == 200, response.get_json()


def start_checkout(client, catalog, plan_key: str = "trio", period: str = "monthly"):
    """POST the card checkout for the first brands the plan needs; return the response."""
    count = catalog.plans[plan_key].brand_count
    body = {"planKey": plan_key, "billingPeriod": period, "brandIds": catalog.all_brand_ids[:count]}
    return client.post("/api/payments/card/checkout", json=body, headers=SITE)


def deliver(client, sandbox: StripeSandbox, event: dict, secret: str | None = None):
    """POST `event` to the webhook signed as Stripe would; return the response."""
    payload, headers = sandbox.signed(event, secret)
    return client.post(WEBHOOK_URL, data=payload, headers=headers)


def payments_of(user) -> list[Payment]:
    db.session.expire_all()
    return list(db.session.scalars(sa.select(Payment).where(Payment.user_id == user.id).order_by(Payment.created_at)))


def subscriptions_of(user) -> list[Subscription]:
    """The user's subscriptions (a user or a user id), oldest first, read afresh."""
    user_id = getattr(user, "id", user)
    db.session.expire_all()
    query = sa.select(Subscription).where(Subscription.user_id == user_id).order_by(Subscription.created_at)
    return list(db.session.scalars(query))
