"""The public VIN preview, the teaser counts and the landing page's VIN box, through HTTP."""

from __future__ import annotations

import pytest

from app.extensions import redis_store
from app.sources.base import Car
from app.vehicles.preview import summarize

GOLF = "WVWZZZAUZHW100001"  # catapi and portal
CLIO = "VF1RFB00X56100002"  # scrape only
COROLLA = "NMTKZ3BE70R100003"  # two catapi candidates
BMW = "WBA8E9G50GNU00004"  # portal only
HONDA = "1HGCM82633A004352"  # public decoder only; WMI known
UNKNOWN = "ZZZ99999999999999"  # nobody

SOURCE_NAMES = ("portal", "scrape", "catapi", "vpic", "vin_api")
TR = {"Accept-Language": "tr"}
HTMX = {"HX-Request": "true"}


def assert_names_no_source(response) -> None:
    body = response.get_data(as_text=True).lower()
    for name in SOURCE_NAMES:
        assert name not in body, name


# --- the preview API ---------------------------------------------------------------------------------------------


def test_the_portal_answers_first_and_scrape_is_not_asked(client, upstreams):
    response = client.get(f"/api/vehicles/preview/{BMW}")

    assert response.status_code == 200
    body = response.get_json()
    assert (body["vin"], body["brand"], body["model"], body["year"], body["engine"]) == (
        BMW,
        "BMW",
        "3 Series",
        2016,
        "B48",
    )
    assert body["known"] == ["brand", "model", "year", "engine"]
    calls = upstreams.vin_calls()
    assert calls["portal"] >= 1  # more than one when the portal made the adapter sign in again
    assert (calls["scrape"], calls["catapi"], calls["vpic"]) == (0, 0, 0)
    assert_names_no_source(response)


def test_scrape_answers_when_the_portal_has_no_car(client, upstreams):
    response = client.get(f"/api/vehicles/preview/{CLIO}")

    assert response.status_code == 200
    body = response.get_json()
    assert (body["brand"], body["model"], body["year"], body["engine"]) == ("Renault", "Clio", 2015, "1.5 dCi")
    calls = upstreams.vin_calls()
    assert calls["portal"] >= 1
    assert (calls["scrape"], calls["catapi"], calls["vpic"]) == (1, 0, 0)
    assert_names_no_source(response)


def test_a_repeated_preview_makes_no_upstream_call(client, upstreams):
    first = client.get(f"/api/vehicles/preview/{GOLF}")
    calls = upstreams.vin_calls()
    second = client.get(f"/api/vehicles/preview/{GOLF.lower()}")

    assert first.status_code == second.status_code == 200
    assert second.get_json() == first.get_json()
    assert first.get_json()["model"] == "Golf"
    assert upstreams.vin_calls() == calls
    assert calls["portal"] >= 1 and calls["scrape"] == 0


def test_only_the_brand_is_known_when_no_source_has_the_car(client, upstreams):
    response = client.get(f"/api/vehicles/preview/{HONDA}")

    assert response.status_code == 200
    body = response.get_json()
    assert body["brand"] == "Honda"
    assert body["known"] == ["brand"]
    assert (body["model"], body["year"], body["engine"]) == (None, None, None)
    assert upstreams.vin_calls()["vpic"] == 0
    assert_names_no_source(response)


def test_an_unknown_vin_is_not_found_in_turkish(client, upstreams):
    response = client.get(f"/api/vehicles/preview/{UNKNOWN}", headers=TR)

    assert response.status_code == 404
    error = response.get_json()["error"]
    assert error["code"] == "vin_not_recognised"
    assert "tanınmadı" in error["message"]
    assert_names_no_source(response)

    client.get(f"/api/vehicles/preview/{UNKNOWN}")
    assert sum(upstreams.vin_calls().values()) == 1  # the scrape lookup, once: the answer is cached too


@pytest.mark.parametrize(
    ("vin", "text"),
    [
        ("WVWZZZAUZHW10000", "17 karakterdir"),
        ("WVWZZZAUZHW1000O1", "yalnızca rakam"),
        ("WVWZZZAUZHWI00001", "yalnızca"),
    ],
)
def test_an_invalid_vin_is_refused_in_turkish(client, upstreams, vin, text):
    response = client.get(f"/api/vehicles/preview/{vin}", headers=TR)

    assert response.status_code == 400
    error = response.get_json()["error"]
    assert error["code"] == "invalid_vin"
    assert text in error["message"]
    assert sum(upstreams.vin_calls().values()) == 0


def test_a_failing_portal_is_left_out_once_its_breaker_opens(client, upstreams):
    upstreams.portal.faults.error_rate = 1.0

    for number in range(3):  # the breaker's threshold, each on a VIN of its own (answers are cached)
        assert client.get(f"/api/vehicles/preview/WBA8E9G50GNU0001{number}").get_json()["known"] == ["brand"]
    portal_calls = upstreams.vin_calls()["portal"]
    response = client.get(f"/api/vehicles/preview/{BMW}")

    assert response.status_code == 200
    assert response.get_json()["brand"] == "BMW"
    assert upstreams.vin_calls()["portal"] == portal_calls  # the open breaker kept the portal out
    assert_names_no_source(response)


def test_an_answer_cut_short_by_a_failing_source_is_kept_briefly(client, upstreams):
    upstreams.scrape.faults.error_rate = 1.0

    response = client.get(f"/api/vehicles/preview/{CLIO}")

    assert response.status_code == 200
    assert (response.get_json()["brand"], response.get_json()["known"]) == ("Renault", ["brand"])
    assert 0 < redis_store.client.ttl(f"vin:preview:{CLIO}") <= 300


def test_nothing_known_because_a_source_failed_is_a_retryable_error(client, upstreams):
    upstreams.scrape.faults.error_rate = 1.0

    response = client.get(f"/api/vehicles/preview/{UNKNOWN}", headers=TR)

    assert response.status_code == 503
    assert response.get_json()["error"]["code"] == "preview_unavailable"
    assert "tekrar deneyin" in response.get_json()["error"]["message"]
    assert not redis_store.client.exists(f"vin:preview:{UNKNOWN}")
    assert_names_no_source(response)


def test_a_full_answer_is_kept_for_a_day(client, upstreams):
    client.get(f"/api/vehicles/preview/{CLIO}")

    assert 23 * 3600 < redis_store.client.ttl(f"vin:preview:{CLIO}") <= 24 * 3600


def test_candidates_show_only_what_they_share():
    cars = [
        Car("scrape", "TOYOTA", "Corolla", year=2019, engine="1.8 Hybrid"),
        Car("scrape", "Toyota", "Corolla", year=2019, engine="1.6 Valvematic"),
    ]

    preview = summarize(COROLLA, cars)

    assert (preview.brand, preview.model, preview.year, preview.engine) == ("Toyota", "Corolla", 2019, None)
    assert preview.known == ["brand", "model", "year"]
    assert preview.variants == 2


# --- teaser counts -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("vin", [GOLF, CLIO, COROLLA, BMW, HONDA, UNKNOWN])
def test_teaser_counts_are_stable_placeholders_in_range(client, vin):
    first = client.get(f"/api/vehicles/{vin}/teaser-stats")
    second = client.get(f"/api/vehicles/{vin.lower()}/teaser-stats")

    assert first.status_code == second.status_code == 200
    stats = first.get_json()
    assert stats == second.get_json()
    assert set(stats) == {"categories", "parts", "schemaPictures"}
    assert 15 <= stats["categories"] <= 30
    assert 9000 <= stats["parts"] <= 11000
    assert 80 <= stats["schemaPictures"] <= 200
    assert_names_no_source(first)


def test_teaser_counts_differ_between_vins(client):
    counts = {tuple(client.get(f"/api/vehicles/{vin}/teaser-stats").get_json().values()) for vin in (GOLF, CLIO, BMW)}

    assert len(counts) == 3


def test_teaser_counts_need_a_valid_vin(client):
    response = client.get("/api/vehicles/NOT-A-VIN/teaser-stats", headers=TR)

    assert response.status_code == 400
    assert response.get_json()["error"]["code"] == "invalid_vin"


def test_the_vehicle_routes_by_id_still_answer_beside_the_preview(client):
    assert client.get("/api/vehicles/1").status_code == 401
    assert client.get("/api/vehicles/history").status_code == 401


# --- rate limit --------------------------------------------------------------------------------------------------


def test_previews_are_rate_limited_per_address(make_app, upstreams):
    client = make_app(VIN_PREVIEW_RATE_LIMIT="2 per minute", RATELIMIT_ENABLED=True, **upstreams.settings).test_client()

    assert client.get(f"/api/vehicles/preview/{GOLF}").status_code == 200
    assert client.get(f"/vin/preview?vin={GOLF}", headers=HTMX).status_code == 200  # the page shares the budget
    throttled = client.get(f"/api/vehicles/preview/{GOLF}", headers=TR)
    page = client.get(f"/vin/preview?vin={GOLF}", headers=TR)
    other_address = client.get(f"/api/vehicles/preview/{GOLF}", environ_base={"REMOTE_ADDR": "127.0.0.2"})

    assert throttled.status_code == 429
    assert throttled.get_json()["error"]["code"] == "rate_limited"
    assert page.status_code == 429
    assert "Bir dakika bekleyip" in page.get_data(as_text=True)
    assert 'id="vin-input"' in page.get_data(as_text=True)  # still on the VIN box
    assert other_address.status_code == 200


def test_teaser_counts_are_rate_limited(make_app):
    client = make_app(VIN_PREVIEW_RATE_LIMIT="2 per minute", RATELIMIT_ENABLED=True).test_client()

    statuses = [client.get(f"/api/vehicles/{GOLF}/teaser-stats").status_code for _ in range(3)]

    assert statuses == [200, 200, 429]


# --- the landing page's VIN box ---------------------------------------------------------------------------------


def test_the_landing_page_has_the_vin_box(client):
    html = client.get("/").get_data(as_text=True)

    assert 'action="/vin/preview"' in html and 'method="get"' in html
    assert 'hx-get="/vin/preview"' in html and 'hx-target="#vin-preview"' in html
    assert 'name="vin"' in html
    assert 'id="vin-preview"' in html
    assert "style=" not in html and "onclick" not in html and "hx-on" not in html


def test_the_fragment_shows_the_vehicle_counts_and_calls_to_action(client, upstreams):
    response = client.get(f"/vin/preview?vin={BMW}", headers=HTMX)

    assert response.status_code == 200
    assert "HX-Request" in response.headers["Vary"]
    html = response.get_data(as_text=True)
    assert html.lstrip().startswith('<div id="vin-preview"')
    assert "<html" not in html
    assert "BMW 3 Series" in html and "2016" in html and "B48" in html
    stats = client.get(f"/api/vehicles/{BMW}/teaser-stats").get_json()
    for count in stats.values():
        assert f"{count:,}".replace(",", ".") in html  # Turkish digit grouping
    assert "/register?next=/vin?vin%3D" + BMW in html
    assert "/login?next=/vin?vin%3D" + BMW in html
    assert_names_no_source(response)


def test_without_htmx_the_preview_is_a_whole_page(client, upstreams):
    response = client.get(f"/vin/preview?vin={CLIO}")

    assert response.status_code == 200
    assert "HX-Request" in response.headers["Vary"]
    html = response.get_data(as_text=True)
    assert "<html" in html and 'id="vin-input"' in html
    assert f'value="{CLIO}"' in html
    assert "Renault Clio" in html


def test_a_signed_in_visitor_is_sent_to_the_vin_search(client, upstreams, create_user, sign_in):
    sign_in(create_user().email)

    html = client.get(f"/vin/preview?vin={GOLF}", headers=HTMX).get_data(as_text=True)

    assert f'href="/vin?vin={GOLF}"' in html
    assert "/register" not in html


@pytest.mark.parametrize(
    ("vin", "status", "text"),
    [("ABC", 400, "17 karakter"), (UNKNOWN, 404, "tanınmadı"), ("", 400, "17 karakterli")],
)
def test_errors_show_inside_the_box_in_turkish(client, upstreams, vin, status, text):
    fragment = client.get(f"/vin/preview?vin={vin}", headers=HTMX)
    page = client.get(f"/vin/preview?vin={vin}")

    assert fragment.status_code == 200  # htmx swaps 2xx answers only
    assert page.status_code == status
    for response in (fragment, page):
        html = response.get_data(as_text=True)
        assert 'role="alert"' in html and text in html


def test_the_preview_page_without_a_vin_shows_the_empty_box(client, upstreams):
    response = client.get("/vin/preview")

    assert response.status_code == 200
    assert 'id="vin-input"' in response.get_data(as_text=True)
    assert sum(upstreams.vin_calls().values()) == 0


# --- sources left out --------------------------------------------------------------------------------------------


def test_a_make_not_routed_to_the_portal_goes_straight_to_scrape(client, upstreams):
    response = client.get("/api/vehicles/preview/WDD2050421R123456")  # Mercedes-Benz: portal VIN search suspended

    assert response.get_json()["brand"] == "Mercedes-Benz"
    calls = upstreams.vin_calls()
    assert (calls["portal"], calls["scrape"]) == (0, 1)


def test_a_vehicle_a_dealer_decoded_is_previewed_without_upstream_calls(client, upstreams, dealer, decode_vin):
    assert decode_vin(GOLF).status_code == 200
    redis_store.client.delete(f"vin:preview:{GOLF}")
    calls = upstreams.vin_calls()

    response = client.get(f"/api/vehicles/preview/{GOLF}")

    assert response.get_json()["model"] == "Golf"
    assert response.get_json()["known"] == ["brand", "model", "year", "engine"]
    assert upstreams.vin_calls() == calls
    assert_names_no_source(response)
