from tests.billing.conftest import billing_catalog  # noqa: F401 - brands and plans, for the trial the banked days lengthen
