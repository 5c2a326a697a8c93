"""Internal admin fixtures: the seeded billing catalog and subscriptions in any state (from tests/billing)."""

from __future__ import annotations

from tests.billing.conftest import billing_catalog, make_subscription  # noqa: F401 - fixtures used here
