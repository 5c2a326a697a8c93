"""Catalog fixtures: the vehicle fixtures (a dealer with a Full plan, decode) and a decoded portal vehicle."""

from __future__ import annotations

import pytest

from app.sources.sandbox.catalog import VIN_BMW
from tests.billing.conftest import billing_catalog, make_subscription  # noqa: F401 - fixtures used here
from tests.vehicles.conftest import dealer, decode_vin  # noqa: F401 - fixtures used here


@pytest.fixture
def bmw(dealer, decode_vin, upstreams):  # noqa: F811
    """The portal's BMW, decoded by the dealer: its vehicle id."""
    response = decode_vin(VIN_BMW)
    assert response.status_code == 200, response.get_json()
    return response.get_json()["vehicle"]["id"]
