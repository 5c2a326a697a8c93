"""Analytics events reach PostHog through the real SDK, only after the transaction commits."""

import threading

import pytest

from app.analytics.services import capture
from app.extensions import db


@pytest.fixture
def analytics_app(make_app, posthog):
    return make_app(POSTHOG_API_KEY="phc_test", POSTHOG_HOST=posthog.url, ANALYTICS_SYNC=True)


def test_an_event_is_sent_when_the_transaction_commits(analytics_app, posthog):
    with analytics_app.app_context():
        capture("user-1", "payment_success", {"amount": 39_900, "currency": "TRY"})
        assert posthog.events == []
        db.session.commit()

    [event] = posthog.named("payment_success")
    assert event["distinct_id"] == "user-1"
    assert event["properties"]["amount"] == 39_900


def test_an_event_of_a_rolled_back_action_is_never_sent(analytics_app, posthog):
    with analytics_app.app_context():
        capture("user-1", "payment_success", {"amount": 1})
        db.session.rollback()
        db.session.commit()

    assert posthog.events == []


def test_without_a_key_nothing_is_sent(make_app, posthog):
    app = make_app(POSTHOG_API_KEY="", POSTHOG_HOST=posthog.url, ANALYTICS_SYNC=True)
    with app.app_context():
        capture("user-1", "payment_success", {})
        db.session.commit()

    assert posthog.events == []


def test_without_a_key_no_posthog_client_runs(make_app):
    def posthog_threads() -> set:
        return {thread for thread in threading.enumerate() if type(thread).__module__.startswith("posthog")}

    before = posthog_threads()
    make_app(POSTHOG_API_KEY="")

    assert posthog_threads() - before == set()
