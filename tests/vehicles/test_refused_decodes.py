"""Refused decodes through HTTP (issue 27, 6b): an invalid VIN, no subscription, a brand outside the plan, a bad pick
and the decode throttle each write a query-log row (result_kind refused, the refusal's code as error_message) on the
JSON API and on the search page; a throttled flood writes one row per client and window; a log write that fails never
changes the refusal; the founder's dashboard counts them."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from app.billing.models import Brand
from app.extensions import db, redis_store
from app.internal_admin.guard import AUTH_HEADER
from app.sources.sandbox.catalog import VIN_GOLF
from app.vehicles.models import QueryLog
from app.vehicles.refusals import THROTTLE_MARKER
from tests.conftest import SITE, csrf_token_from
from tests.support.processes import wait_until

TOKEN = "internal-test-token-refusals"


def refused_rows() -> list[QueryLog]:
    db.session.expire_all()
    rows = db.session.scalars(sa.select(QueryLog).order_by(QueryLog.id)).all()
    return [row for row in rows if row.timings.get("result_kind") == "refused"]


def api_decode(client, vin: str, **extra):
    return client.post("/api/vehicles/decode", json={"vin": vin, **extra}, headers={**SITE, "Accept-Language": "tr"})


def page_decode(client, vin: str, **fields):
    """The search page's form without JavaScript: the decode runs in the request."""
    token = csrf_token_from(client.get("/vin").get_data(as_text=True))
    return client.post(
        "/vin/decode", data={"csrf_token": token, "vin": vin, **fields}, headers={"Accept-Language": "tr"}
    )


ROUTES = {"api": api_decode, "page": page_decode}


def volkswagen_id() -> int:
    return db.session.scalar(sa.select(Brand.id).where(Brand.slug == "volkswagen"))


@pytest.fixture
def single_plan_dealer(create_user, make_subscription, sign_in, billing_catalog):
    """A signed-in dealer whose one-brand plan does not include Volkswagen."""
    user = create_user()
    subscription = make_subscription(user, "active", plan_key="single")
    assert "volkswagen" not in [brand.slug for brand in subscription.brands]
    sign_in(user.email)
    return user


# --- each refusal is logged ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("route", ROUTES)
def test_an_invalid_vin_is_logged_as_a_refused_decode(dealer, client, upstreams, route):
    response = ROUTES[route](client, " wvwzzz-auzhw1000 ")

    assert response.status_code == 400
    [row] = refused_rows()
    assert (row.user_id, row.vin, row.success, row.error_message) == (
        dealer.id,
        "WVWZZZAUZHW1000",
        False,
        "invalid_vin",
    )
    assert row.timings == {"wmi": "WVW", "result_kind": "refused"} and row.source is None
    assert upstreams.vin_calls() == {"catapi": 0, "scrape": 0, "portal": 0, "vpic": 0}


def test_an_empty_or_overlong_vin_is_logged_cut_to_the_column(dealer, client, upstreams):
    assert api_decode(client, "").status_code == 400
    assert api_decode(client, "WVWZZZAUZHW1000011234").status_code == 400

    assert [(row.vin, row.error_message) for row in refused_rows()] == [
        ("", "invalid_vin"),
        ("WVWZZZAUZHW100001", "invalid_vin"),
    ]


@pytest.mark.parametrize("route", ROUTES)
def test_a_brand_outside_the_plan_is_logged_with_the_brand_asked_for(single_plan_dealer, client, upstreams, route):
    response = ROUTES[route](client, VIN_GOLF)

    assert response.status_code == 403
    [row] = refused_rows()
    assert (row.user_id, row.vin, row.brand_id) == (single_plan_dealer.id, VIN_GOLF, volkswagen_id())
    assert (row.success, row.error_message, row.source) == (False, "brand_not_in_plan", None)
    assert upstreams.vin_calls()["catapi"] == 0


def test_a_cached_vehicle_of_a_brand_outside_the_plan_is_logged_too(
    client, create_user, make_subscription, sign_in, single_plan_dealer, upstreams
):
    full = create_user()
    make_subscription(full, "active", plan_key="full")
    sign_in(full.email)
    assert api_decode(client, VIN_GOLF).status_code == 200
    sign_in(single_plan_dealer.email)

    response = api_decode(client, VIN_GOLF)

    assert response.status_code == 403
    [row] = refused_rows()
    assert (row.user_id, row.brand_id, row.error_message) == (
        single_plan_dealer.id,
        volkswagen_id(),
        "brand_not_in_plan",
    )
    assert row.timings["cache_source"] == "redis_positive"


@pytest.mark.parametrize("route", ROUTES)
def test_no_subscription_is_logged(client, create_user, sign_in, upstreams, billing_catalog, route):
    user = create_user()
    sign_in(user.email)

    response = ROUTES[route](client, VIN_GOLF)

    assert response.status_code == 403
    [row] = refused_rows()
    assert (row.user_id, row.brand_id, row.error_message) == (user.id, volkswagen_id(), "subscription_required")


@pytest.mark.parametrize("route", ROUTES)
def test_a_bad_pick_is_logged(dealer, client, upstreams, route):
    response = ROUTES[route](client, VIN_GOLF, catapiCarId="1", scrapeCarIndex="0")

    assert response.status_code == 400
    [row] = refused_rows()
    assert (row.vin, row.error_message) == (VIN_GOLF, "invalid_candidate")


def test_a_decode_that_answers_is_not_counted_as_refused(dealer, client, upstreams):
    assert api_decode(client, VIN_GOLF).status_code == 200

    assert refused_rows() == []


# --- the throttle --------------------------------------------------------------------------------------------------


def test_a_throttled_flood_writes_one_row_per_client_and_window(app, client, dealer, upstreams, monkeypatch):
    monkeypatch.setitem(app.config, "DECODE_RATE_LIMIT", "2 per 5 seconds")
    assert [api_decode(client, "WVW").status_code for _ in range(2)] == [400, 400]

    flood = [api_decode(client, VIN_GOLF) for _ in range(15)]
    flood.append(page_decode(client, VIN_GOLF))  # the page shares the API's budget and its marker

    assert {response.status_code for response in flood} == {429}
    throttled = [row for row in refused_rows() if row.error_message == "rate_limited"]
    assert [(row.user_id, row.vin, row.timings["wmi"]) for row in throttled] == [(dealer.id, VIN_GOLF, "WVW")]
    assert throttled[0].timings["throttle"] == "2 per 5 second"

    wait_for_the_next_window()
    assert [api_decode(client, "WVW").status_code for _ in range(2)] == [400, 400]
    assert {api_decode(client, VIN_GOLF).status_code for _ in range(5)} == {429}
    assert len([row for row in refused_rows() if row.error_message == "rate_limited"]) == 2


def wait_for_the_next_window() -> None:
    """The throttle's window and the one-row marker both live in Redis: check the marker ends with the window, then
    wait (bounded) until Redis has expired both."""
    client = redis_store.client
    [marker] = client.keys(THROTTLE_MARKER + "*")
    window = "LIMITS:" + marker.decode().removeprefix(THROTTLE_MARKER)  # the limiter's counter for the client
    assert 0 < client.pttl(window) <= 5000
    assert abs(client.pttl(marker) - client.pttl(window)) <= 1000  # it ends with the window (to the second)
    wait_until(lambda: not client.exists(marker, window), 10, "the throttle's window to end", 0.05)


def test_each_throttled_client_has_its_own_row(app, client, create_user, make_subscription, sign_in, monkeypatch):
    monkeypatch.setitem(app.config, "DECODE_RATE_LIMIT", "1 per minute")
    dealers = []
    for _ in range(2):
        user = create_user()
        make_subscription(user, "active", plan_key="full")
        sign_in(user.email)
        dealers.append(user.id)
        for _attempt in range(4):
            api_decode(client, "WVW")

    throttled = [row.user_id for row in refused_rows() if row.error_message == "rate_limited"]
    assert throttled == dealers


# --- a failing log write ---------------------------------------------------------------------------------------------


@pytest.fixture
def query_log_down():
    """Every insert into the query log fails in the database (a trigger), until the test's rollback."""
    if db.engine.dialect.name == "postgresql":
        db.session.execute(
            sa.text(
                "CREATE FUNCTION query_log_down() RETURNS trigger LANGUAGE plpgsql AS "
                "$$ BEGIN RAISE EXCEPTION 'query log down'; END $$"
            )
        )
        db.session.execute(
            sa.text(
                "CREATE TRIGGER query_log_down BEFORE INSERT ON query_log "
                "FOR EACH ROW EXECUTE FUNCTION query_log_down()"
            )
        )
    else:
        db.session.execute(
            sa.text("CREATE TRIGGER query_log_down BEFORE INSERT ON query_log BEGIN SELECT RAISE(ABORT, 'down'); END")
        )
    db.session.commit()


def test_a_failing_log_write_leaves_every_refusal_as_it_was(
    app, client, single_plan_dealer, upstreams, query_log_down, monkeypatch
):
    invalid = api_decode(client, "WVW")
    not_in_plan = api_decode(client, VIN_GOLF)
    page = page_decode(client, "WVW")
    monkeypatch.setitem(app.config, "DECODE_RATE_LIMIT", "1 per minute")
    api_decode(client, "WVW")
    throttled = api_decode(client, VIN_GOLF)

    assert (invalid.status_code, invalid.get_json()["error"]["code"]) == (400, "invalid_vin")
    assert invalid.get_json()["error"]["message"] == "VIN 17 karakterdir; bu 3 karakter."
    assert (not_in_plan.status_code, not_in_plan.get_json()["error"]["code"]) == (403, "brand_not_in_plan")
    assert page.status_code == 400 and "VIN 17 karakterdir; bu 3 karakter." in page.get_data(as_text=True)
    assert (throttled.status_code, throttled.get_json()["error"]["code"]) == (429, "rate_limited")
    assert refused_rows() == []
    assert api_decode(client, VIN_GOLF).status_code == 429  # the session still serves the next request


# --- the founder's insights ----------------------------------------------------------------------------------------


def test_the_dashboard_counts_refused_decodes_by_reason_and_brand(
    app, client, create_user, sign_in, single_plan_dealer, upstreams, monkeypatch
):
    api_decode(client, VIN_GOLF)
    api_decode(client, VIN_GOLF)
    api_decode(client, "WVW")
    sign_in(create_user(role="admin").email)
    monkeypatch.setitem(app.config, "INTERNAL_API_TOKEN", TOKEN)

    admin = client.get("/api/admin/dashboard").get_json()
    founder = app.test_client().get("/api/internal/admin/dashboard", headers={AUTH_HEADER: TOKEN}).get_json()
    page = client.get("/admin").get_data(as_text=True)

    for figures in (admin, founder):
        assert figures["decodes"]["refused"] == [
            {"reason": "brand_not_in_plan", "count": 2},
            {"reason": "invalid_vin", "count": 1},
        ]
        assert figures["demand"]["refusedBrands"] == [
            {"brand": "Volkswagen", "reason": "brand_not_in_plan", "count": 2}
        ]
        assert [row["count"] for row in figures["decodes"]["perDay"] if row["resultKind"] == "refused"] == [3]
        assert all(source["wins"] == 0 for source in figures["sources"])
    assert "Reddedilen sorgular" in page and "Volkswagen (<code" in page and "brand_not_in_plan" in page
