from tests.billing.conftest import billing_catalog, make_subscription  # noqa: F401 - subscriptions for the dashboard
