"""Vehicle fixtures: a signed-in dealer whose plan covers every brand, and the decode call."""

from __future__ import annotations

import pytest

from tests.billing.conftest import billing_catalog, make_subscription  # noqa: F401 - fixtures used here
from tests.conftest import SITE


@pytest.fixture
def dealer(create_user, make_subscription, sign_in):  # noqa: F811
    """A signed-in user with an active Full plan (every brand)."""
    user = create_user()
    make_subscription(user, "active", plan_key="full")
    sign_in(user.email)
    return user


@pytest.fixture
def decode_vin(client):
    """POST /api/vehicles/decode as the signed-in client: `decode_vin(vin, **pick)`."""

    def post(vin: str, **extra):
        return client.post("/api/vehicles/decode", json={"vin": vin, **extra}, headers=SITE)

    return post
