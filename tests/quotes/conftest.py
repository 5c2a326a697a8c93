"""Quotes fixtures: the dealer's decoded BMW with a leaf of parts, a quote made from it, a second dealer's client."""

from __future__ import annotations

import pytest

from tests.billing.conftest import billing_catalog, make_subscription  # noqa: F401 - fixtures used here
from tests.catalog.conftest import bmw  # noqa: F401 - fixtures used here
from tests.catalog.test_categories import first_leaf
from tests.conftest import PASSWORD, SITE
from tests.vehicles.conftest import dealer, decode_vin  # noqa: F401 - fixtures used here

# A person's browser as the shared page's beacon arrives from it.
BROWSER = {
    "User-Agent": "Mozilla/5.0 (Linux; Android 14; SM-A546B) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/131.0.0.0 Mobile Safari/537.36",
    "Sec-Fetch-Site": "same-origin",
}


@pytest.fixture
def leaf(client, bmw):  # noqa: F811
    """The BMW's first leaf's detail (its parts with codes first)."""
    return first_leaf(client, bmw)


def coded_parts(leaf: dict) -> list[dict]:
    return [part for part in leaf["parts"] if part["reference"] is None]


@pytest.fixture
def other_client(app, create_user, make_subscription):  # noqa: F811
    """A second dealer, Full plan, signed in on a client of his own."""
    user = create_user(email="ikinci@example.com", name="İkinci Bayi")
    make_subscription(user, "active", plan_key="full")
    other = app.test_client()
    response = other.post(
        "/api/auth/sign-in/email", json={"email": user.email, "password": PASSWORD, "rememberMe": False}, headers=SITE
    )
    assert response.status_code == 200, response.get_json()
    return other
