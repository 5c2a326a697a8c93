"""The admin dashboard through HTTP on seeded data: users, subscriptions and MRR (yearly at a twelfth), trial-to-paid
conversion, decodes per day by result kind, each source's success rate and p50/p95, the unrecognised WMIs and
vehicle requests; the date range, its refusals, the page, the founder panel's twin and who may see it."""

from __future__ import annotations

from datetime import timedelta

import pytest

from app.billing.models import Payment
from app.core.db import utcnow
from app.extensions import db
from app.internal_admin.guard import AUTH_HEADER
from app.vehicles.models import QueryLog, VinRequest

TOKEN = "internal-test-token-dashboard"


def decode_log(vin: str, kind: str, source: str | None, success: bool, days_ago: int = 0, **timings: int) -> None:
    db.session.add(
        QueryLog(
            vin=vin,
            source=source,
            success=success,
            error_message=None if success else "vin_not_recognised",
            response_time_ms=sum(timings.values()) or 5,
            timings={"result_kind": kind, **timings},
            created_at=utcnow() - timedelta(days=days_ago),
        )
    )


@pytest.fixture
def seeded(create_user, make_subscription):
    paying, yearly, trialing = create_user(), create_user(), create_user(email_verified=False)
    active = make_subscription(paying, "active", plan_key="single")  # paid after a trial
    make_subscription(yearly, "active", plan_key="full", billing_period="yearly")
    make_subscription(trialing, "trial", plan_key="full")
    db.session.add(Payment(user_id=paying.id, subscription_id=active.id, amount=active.plan.monthly_price,
                           status="completed", billing_period="monthly"))  # fmt: skip
    for index in range(10):
        vin = f"WVWZZZ1KZ0000{index:04d}"
        decode_log(vin, "vehicle", "catapi", True, days_ago=index % 2, catapi_ms=100 + index * 10)
    decode_log("XXX00000000000001", "unknown", None, False, catapi_ms=50)
    decode_log("XXX00000000000002", "unknown", None, False)
    decode_log("YYY00000000000003", "unknown", None, False)
    decode_log("VF1RFB00000000004", "scrape_candidates", "scrape", True, scrape_ms=400)
    db.session.add(VinRequest(user_id=paying.id, vin="JHMGD18503S000001", kind="no_catalog"))
    db.session.commit()
    return active


def test_the_figures_are_counted_from_the_seeded_data(client, create_user, sign_in, seeded):
    sign_in(create_user(role="admin").email)

    figures = client.get("/api/admin/dashboard").get_json()

    assert figures["users"]["total"] == 4 and figures["users"]["verified"] == 3
    assert figures["subscriptions"]["active"] == 2 and figures["subscriptions"]["trial"] == 1
    monthly = seeded.plan.monthly_price
    assert figures["subscriptions"]["activeByPlan"] == {"single/monthly": 1, "full/yearly": 1}
    assert figures["subscriptions"]["mrrKurus"] > monthly  # a twelfth of the yearly Full plan on top
    kinds = {(row["day"], row["resultKind"]): row["count"] for row in figures["decodes"]["perDay"]}
    today = utcnow().date().isoformat()
    assert kinds[(today, "vehicle")] == 5 and kinds[(today, "unknown")] == 3
    catapi = next(row for row in figures["sources"] if row["source"] == "catapi")
    assert (catapi["calls"], catapi["wins"]) == (11, 10) and catapi["p50Ms"] == 140 and catapi["p95Ms"] == 190
    assert figures["demand"]["unrecognisedWmis"] == [{"wmi": "XXX", "count": 2}, {"wmi": "YYY", "count": 1}]
    assert figures["demand"]["vehicleRequests"] == [{"wmi": "JHM", "kind": "no_catalog", "count": 1}]


def test_trial_to_paid_counts_the_trials_started_in_the_range(client, create_user, sign_in, make_subscription):
    converted, still_trying = create_user(), create_user()
    trial = make_subscription(converted, "expired", plan_key="full", days_left=-1)
    paid = make_subscription(converted, "active", plan_key="single")
    make_subscription(still_trying, "trial", plan_key="full")
    db.session.add(Payment(user_id=converted.id, subscription_id=paid.id, amount=100, status="completed"))
    db.session.commit()
    sign_in(create_user(role="admin").email)

    conversion = client.get("/api/admin/dashboard").get_json()["conversion"]

    assert trial.start_date is not None
    assert conversion == {"trials": 2, "paid": 1, "rate": 0.5}


@pytest.mark.parametrize("query", ["from=2026-13-01", "from=dün", "from=2026-11-20&to=2026-11-01", "from=2020-01-01"])
def test_a_bad_range_is_refused_in_turkish(client, create_user, sign_in, query):
    sign_in(create_user(role="admin").email)

    answer = client.get(f"/api/admin/dashboard?{query}")

    assert answer.status_code == 400 and answer.get_json()["error"]["message"]


def test_the_page_carries_the_figures_for_its_charts(client, create_user, sign_in, seeded):
    sign_in(create_user(role="admin").email)

    page = client.get("/admin").get_data(as_text=True)

    assert 'id="chart-decodes"' in page and 'id="dashboard-data"' in page and "chart.umd.min.js" in page
    assert "Gösterge paneli" in page and "XXX" in page


def test_only_admins_and_the_founder_panel_see_it(app, client, create_user, sign_in, monkeypatch):
    monkeypatch.setitem(app.config, "INTERNAL_API_TOKEN", TOKEN)
    assert client.get("/api/admin/dashboard").status_code == 401
    assert app.test_client().get("/api/internal/admin/dashboard", headers={AUTH_HEADER: TOKEN}).status_code == 200
    assert app.test_client().get("/api/internal/admin/dashboard").status_code == 401
    sign_in(create_user().email)
    assert client.get("/api/admin/dashboard").status_code == 403 and client.get("/admin").status_code == 403
