"""Browse fixtures: a dealer with a Full plan, and the billing seed for other plans."""

from __future__ import annotations

from tests.billing.conftest import billing_catalog, make_subscription  # noqa: F401 - fixtures used here
from tests.vehicles.conftest import dealer  # noqa: F401 - fixtures used here
