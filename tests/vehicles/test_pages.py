"""The VIN search page through HTTP: the page, HTMX decodes with polled progress, the picker, errors, history, the
vehicle page.

Decodes started with HTMX run in a background thread with its own database session. Under the suite's usual
isolation every session shares one connection through savepoints, and a thread's savepoint spans its whole decode,
so a poll's sign-in check (every request reads the session row) would interleave savepoints on that connection.
Those tests therefore run without isolation on a committed dealer and delete what they wrote
(tests/support/committed_dealer.py). Everything else runs in the rolled-back transaction.
"""

from __future__ import annotations

import re
import threading
import time

import pytest
import sqlalchemy as sa

from app.extensions import db, redis_store
from app.sources.sandbox.catalog import VIN_COROLLA, VIN_GOLF, VIN_HONDA, VIN_UNKNOWN
from app.vehicles import views
from app.vehicles.background import THREAD_PREFIX
from app.vehicles.models import UserVehicle, Vehicle, VinRequest
from app.vehicles.progress import ProgressRecord
from tests.conftest import PASSWORD, SITE, csrf_token_from
from tests.support.committed_dealer import committed_dealer

HX = {"HX-Request": "true"}
POLL_URL = re.compile(r'hx-get="(/vin/decode/[A-Za-z0-9_-]+)"')
POLLING = 'hx-trigger="every 300ms"'
POLL_TIMEOUT_SECONDS = 20
STAGE_NAMES = ("Önbellek", "Katalog API", "Web kataloğu", "Bayi portalı", "Genel VIN çözücü")


@pytest.fixture
def events(monkeypatch):
    """The analytics events the page routes capture, as (distinct_id, event, properties)."""
    captured: list[tuple[str, str, dict]] = []
    monkeypatch.setattr(views, "capture", lambda *args: captured.append(args))
    return captured


def event_names(events: list) -> list[str]:
    return [name for _user, name, _properties in events]


def csrf(client) -> str:
    return csrf_token_from(client.get("/vin").get_data(as_text=True))


def post_decode(client, token: str, vin: str, headers: dict | None = None, **fields):
    return client.post(
        "/vin/decode", data={"csrf_token": token, "vin": vin, **fields}, headers=HX if headers is None else headers
    )


def poll_until_done(client, fragment: str):
    """Follow a progress fragment's polls until the answer stops polling; return that response."""
    deadline = time.monotonic() + POLL_TIMEOUT_SECONDS
    seen_progress = False
    while time.monotonic() < deadline:
        match = POLL_URL.search(fragment)
        assert match, fragment
        time.sleep(0.05)
        response = client.get(match.group(1), headers=HX)
        assert response.status_code == 200
        fragment = response.get_data(as_text=True)
        if "HX-Redirect" in response.headers or POLLING not in fragment:
            return response, seen_progress
        seen_progress = True
    pytest.fail("the decode did not finish in time")


def add_to_history(user, vin: str = VIN_GOLF, model: str = "Golf") -> Vehicle:
    vehicle = Vehicle(vin=vin, brand_name="Volkswagen", model=model, year=2017, engine="1.4 TSI", source="catapi")
    db.session.add(vehicle)
    db.session.flush()
    db.session.add(UserVehicle(shop_id=user.shop_id, user_id=user.id, vehicle_id=vehicle.id))
    db.session.commit()
    return vehicle


def page_decode_threads() -> list[threading.Thread]:
    return [thread for thread in threading.enumerate() if thread.name.startswith(THREAD_PREFIX)]


# --- the page -----------------------------------------------------------------------------------------------------


def test_the_search_page_shows_the_form_prefilled_and_the_history(client, dealer):
    golf = add_to_history(dealer)

    response = client.get(f"/vin?vin={VIN_COROLLA}")

    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert f'value="{VIN_COROLLA}"' in html
    assert 'hx-post="/vin/decode"' in html and 'action="/vin/decode"' in html
    assert 'id="decode-result"' in html
    assert f'href="/vehicles/{golf.id}"' in html and "Volkswagen Golf" in html and VIN_GOLF in html
    assert f'action="/vin/history/{golf.id}/delete"' in html
    assert 'href="/vin"' in html  # the header link


def test_the_search_page_needs_a_session(client):
    assert client.get("/vin").status_code == 302
    token = csrf_token_from(client.get("/login").get_data(as_text=True))  # a valid form: only the session is missing

    response = client.post("/vin/decode", data={"vin": VIN_GOLF, "csrf_token": token}, headers=HX)

    assert response.status_code == 204
    assert response.headers["HX-Redirect"] == "/login?next=/vin/decode"
    assert client.post("/vin/decode", data={"vin": VIN_GOLF}, headers=HX).status_code == 403  # no form token


def test_an_empty_history_says_where_vehicles_will_appear(client, dealer):
    assert "Sorguladığınız araçlar burada görünür." in client.get("/vin").get_data(as_text=True)


def test_a_bad_vin_shows_the_turkish_reason_at_once_and_starts_nothing(client, dealer, events):
    token = csrf(client)

    response = post_decode(client, token, "WVW-ZZZ")

    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "VIN 17 karakterdir; bu 6 karakter." in html
    assert POLLING not in html and 'id="decode-result"' in html
    assert page_decode_threads() == []
    assert event_names(events) == ["search_input_validation_failed"]
    assert events[0][2] == {"code": "invalid_vin", "length": 7}


def test_a_bad_vin_without_javascript_answers_the_page_with_the_reason(client, dealer):
    response = post_decode(client, csrf(client), "WVWZZZAUZHW10000I", headers={})

    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "VIN yalnızca rakam ve I, O, Q dışındaki harflerden oluşur." in html
    assert "<html" in html and 'value="WVWZZZAUZHW10000I"' in html


def test_a_decode_needs_the_csrf_token(client, dealer):
    assert client.post("/vin/decode", data={"vin": VIN_GOLF}, headers=HX).status_code == 403


def test_a_tampered_pick_is_refused_in_the_fragment(client, dealer):
    response = post_decode(client, csrf(client), VIN_COROLLA, catapiCarId="1", scrapeCarIndex="0")

    assert "ya bir katalog aracı ya da bir web kataloğu adayı seçin" in response.get_data(as_text=True).lower()
    assert page_decode_threads() == []


def test_too_many_searches_are_refused_in_the_result_area(client, dealer):
    token = csrf(client)
    for _attempt in range(30):
        post_decode(client, token, "WVW")

    response = post_decode(client, token, "WVW")

    assert response.status_code == 200  # htmx swaps only successful answers
    assert "Kısa sürede çok fazla sorgu yapıldı." in response.get_data(as_text=True)
    assert post_decode(client, token, "WVW", headers={}).status_code == 429


def test_page_events_reach_analytics_after_the_request_commits(make_app, posthog, create_user):
    app = make_app(POSTHOG_API_KEY="phc_test", POSTHOG_HOST=posthog.url, ANALYTICS_SYNC=True)
    client = app.test_client()
    user = create_user()
    client.post("/api/auth/sign-in/email", json={"email": user.email, "password": PASSWORD}, headers=SITE)
    token = csrf(client)

    post_decode(client, token, "WVW")
    with app.app_context():
        record = ProgressRecord.create(redis_store.client, str(user.id), VIN_UNKNOWN)
    record.finish({"kind": "error", "code": "vin_not_recognised", "message": "-", "status": 422})
    client.get(f"/vin/decode/{record.token}", headers=HX)

    failed, error = posthog.named("search_input_validation_failed"), posthog.named("vin_decode_error")
    assert len(failed) == 1 and failed[0]["distinct_id"] == str(user.id)
    assert len(error) == 1 and error[0]["properties"]["code"] == "vin_not_recognised"
    assert error[0]["properties"]["wmi"] == "ZZZ"


# --- polls -----------------------------------------------------------------------------------------------------


def test_a_poll_for_an_unknown_or_foreign_token_says_the_search_is_gone(client, dealer, create_user):
    other = create_user()
    foreign = ProgressRecord.create(redis_store.client, str(other.id), VIN_GOLF)

    for url in (f"/vin/decode/{foreign.token}", "/vin/decode/not-a-token", "/vin/decode/" + "x" * 24):
        response = client.get(url, headers=HX)
        html = response.get_data(as_text=True)
        assert response.status_code == 200
        assert "Bu sorgu artık geçerli değil." in html and POLLING not in html


def test_a_poll_renders_the_stored_progress_and_then_the_outcome(client, dealer, events):
    record = ProgressRecord.create(redis_store.client, str(dealer.id), VIN_UNKNOWN)
    record.listener()("cache", "miss")
    record.listener()("catapi", "running")
    url = f"/vin/decode/{record.token}"

    running = client.get(url, headers=HX).get_data(as_text=True)
    assert POLLING in running and f'hx-get="{url}"' in running and 'hx-swap="outerHTML"' in running
    assert all(name in running for name in STAGE_NAMES)
    assert "Önbellekte yok" in running and "Sorgulanıyor…" in running and "Sırada" in running
    assert events == []  # nothing is reported while the decode runs

    message = "Bu VIN tanınmadı ya da markası desteklenmiyor."
    record.finish({"kind": "error", "code": "vin_not_recognised", "message": message, "status": 422})
    done = client.get(url, headers=HX).get_data(as_text=True)
    again = client.get(url, headers=HX).get_data(as_text=True)

    assert POLLING not in done and message in done and 'action="/vin/report"' in done
    assert message in again
    assert event_names(events) == ["vin_decode_error"]  # once, however many polls see the outcome


def test_a_poll_without_htmx_answers_the_whole_page_or_redirects(client, dealer):
    record = ProgressRecord.create(redis_store.client, str(dealer.id), VIN_GOLF)
    url = f"/vin/decode/{record.token}"

    page = client.get(url)
    assert page.status_code == 200 and "<html" in page.get_data(as_text=True)
    assert "HX-Request" in page.headers["Vary"]

    record.finish({"kind": "vehicle", "vehicleId": 42, "source": "catapi", "brand": "Volkswagen"})
    assert client.get(url).headers["Location"] == "/vehicles/42"
    assert client.get(url, headers=HX).headers["HX-Redirect"] == "/vehicles/42"


def test_a_decode_that_outlives_its_budget_offers_a_retry(client, dealer, app, monkeypatch):
    monkeypatch.setitem(app.config, "DECODE_BUDGET_SECONDS", -60)
    record = ProgressRecord.create(redis_store.client, str(dealer.id), VIN_GOLF)

    html = client.get(f"/vin/decode/{record.token}", headers=HX).get_data(as_text=True)

    assert "zamanında yanıt vermedi" in html and POLLING not in html
    assert 'name="retry" value="1"' in html and f'value="{VIN_GOLF}"' in html


# --- without JavaScript --------------------------------------------------------------------------------------------


def test_without_javascript_a_decode_runs_in_the_request_and_opens_the_vehicle(client, dealer, upstreams, events):
    response = post_decode(client, csrf(client), VIN_GOLF, headers={})

    assert response.status_code == 303
    vehicle = db.session.scalar(sa.select(Vehicle).where(Vehicle.vin == VIN_GOLF))
    assert response.headers["Location"] == f"/vehicles/{vehicle.id}"
    assert event_names(events) == ["vin_decoded", "vin_decode_success"]


def test_a_vin_no_catalog_covers_leads_into_browsing_its_make_at_its_model_year(client, dealer, upstreams):
    response = post_decode(client, csrf(client), VIN_HONDA, headers={})

    html = response.get_data(as_text=True)
    assert 'href="/browse?make=honda&amp;year=2003"' in html and "Honda modellerine göz atın" in html
    browse = client.get("/browse?make=honda&year=2003")
    assert browse.status_code == 200 and 'value="honda"' in browse.get_data(as_text=True)  # the filter, prefilled


def test_without_javascript_candidates_render_the_picker_in_the_page(client, dealer, upstreams):
    response = post_decode(client, csrf(client), VIN_COROLLA, headers={})

    html = response.get_data(as_text=True)
    assert response.status_code == 200 and "<html" in html
    assert html.count('name="catapiCarId"') == 2 and html.count("Toyota Corolla") >= 2
    assert "Şanzıman" in html and "Model kodu" in html  # what tells the two apart, labelled in Turkish


def test_a_brand_outside_the_plan_is_refused_with_a_way_to_the_plans(client, create_user, make_subscription, sign_in):
    user = create_user()
    make_subscription(user, "active", plan_key="single")  # the first brand by name, not Volkswagen
    sign_in(user.email)

    response = post_decode(client, csrf(client), VIN_GOLF, headers={})

    html = response.get_data(as_text=True)
    assert response.status_code == 403
    assert "Bu marka planınıza dahil değil." in html and 'href="/plans">Planları gör</a>' in html


# --- reports, history, the vehicle page ---------------------------------------------------------------------------


def test_reporting_a_vin_saves_it_and_thanks_the_dealer(client, dealer):
    response = client.post(
        "/vin/report", data={"csrf_token": csrf(client), "vin": VIN_UNKNOWN, "note": "Ford Transit 2019"}, headers=HX
    )

    assert "Teşekkürler" in response.get_data(as_text=True)
    report = db.session.scalar(sa.select(VinRequest).where(VinRequest.kind == "report"))
    assert (report.vin, report.note, report.user_id) == (VIN_UNKNOWN, "Ford Transit 2019", dealer.id)


def test_removing_a_vehicle_from_the_history_answers_the_list_without_it(client, dealer):
    golf = add_to_history(dealer)
    corolla = add_to_history(dealer, VIN_COROLLA, "Corolla")
    token = csrf(client)

    response = client.post(f"/vin/history/{golf.id}/delete", data={"csrf_token": token, "page": "1"}, headers=HX)

    html = response.get_data(as_text=True)
    assert response.status_code == 200 and html.lstrip().startswith('<section id="vin-history"')
    assert VIN_GOLF not in html and VIN_COROLLA in html
    assert db.session.get(UserVehicle, (dealer.shop_id, golf.id)) is None
    assert db.session.get(Vehicle, golf.id) is not None  # shared vehicles stay

    again = client.post(f"/vin/history/{corolla.id}/delete", data={"csrf_token": token}, follow_redirects=True)
    assert "Araç geçmişinizden kaldırıldı." in again.get_data(as_text=True)
    assert "Sorguladığınız araçlar burada görünür." in again.get_data(as_text=True)


def test_the_vehicle_page_shows_the_vehicle_to_any_signed_in_user(client, dealer, create_user, sign_in):
    golf = add_to_history(create_user())

    html = client.get(f"/vehicles/{golf.id}").get_data(as_text=True)

    assert "<h1" in html and "Volkswagen Golf" in html and VIN_GOLF in html and "1.4 TSI" in html
    assert "data-catalog" in html  # the catalog view (tests/catalog/test_pages.py covers it)


def test_an_unknown_vehicle_is_the_turkish_404_page(client, dealer):
    response = client.get("/vehicles/999999")

    html = response.get_data(as_text=True)
    assert response.status_code == 404
    assert "Sayfa bulunamadı" in html and "Bu kimliğe sahip bir araç bulunamadı." in html


# --- page decodes in the background (committed rows, cleaned up) -------------------------------------------------


@pytest.fixture
def live_dealer(app, client, upstreams, sign_in):
    with committed_dealer(app) as dealer:
        sign_in(dealer.email)
        yield dealer


@pytest.mark.no_isolation
def test_a_decode_shows_its_stages_and_ends_on_the_vehicle_page(client, live_dealer, upstreams, events):
    upstreams.catapi.faults.latency_ms = 300  # long enough for a poll to see the race

    started = post_decode(client, csrf(client), VIN_GOLF.lower())
    fragment = started.get_data(as_text=True)

    assert started.status_code == 200 and POLLING in fragment
    assert all(name in fragment for name in STAGE_NAMES)
    done, seen_progress = poll_until_done(client, fragment)
    assert seen_progress
    target = done.headers["HX-Redirect"]
    assert re.fullmatch(r"/vehicles/\d+", target)
    assert "Volkswagen Golf" in client.get(target).get_data(as_text=True)
    assert event_names(events) == ["vin_decoded", "vin_decode_success"]
    assert events[1][2]["wmi"] == "WVW" and events[1][2]["source"] == "catapi"
    assert all(VIN_GOLF not in str(properties) for _user, _name, properties in events)


@pytest.mark.no_isolation
def test_candidates_render_a_picker_and_picking_one_opens_it(client, live_dealer, upstreams, events):
    token = csrf(client)

    picker, _ = poll_until_done(client, post_decode(client, token, VIN_COROLLA).get_data(as_text=True))

    html = picker.get_data(as_text=True)
    car_ids = re.findall(r'name="catapiCarId" value="([^"]+)"', html)
    assert len(car_ids) == 2 and html.count("Toyota Corolla") == 2
    assert 'hx-post="/vin/decode"' in html

    opened, _ = poll_until_done(
        client, post_decode(client, token, VIN_COROLLA, catapiCarId=car_ids[1]).get_data(as_text=True)
    )

    page = client.get(opened.headers["HX-Redirect"]).get_data(as_text=True)
    assert "Toyota Corolla" in page and VIN_COROLLA in page
    assert event_names(events) == [
        "vin_decoded",
        "vin_decode_candidates",
        "candidate_selected",
        "vin_decoded",
        "vin_decode_success",
    ]
    assert events[1][2]["count"] == 2


@pytest.mark.no_isolation
def test_an_unrecognised_vin_can_be_reported_from_the_message(app, client, live_dealer, upstreams, events):
    token = csrf(client)

    answer, _ = poll_until_done(client, post_decode(client, token, VIN_UNKNOWN).get_data(as_text=True))

    html = answer.get_data(as_text=True)
    assert "Bu VIN tanınmadı ya da markası desteklenmiyor." in html
    assert "Bu VIN'i bildir" in html
    reported = client.post("/vin/report", data={"csrf_token": token, "vin": VIN_UNKNOWN}, headers=HX)
    assert "Teşekkürler" in reported.get_data(as_text=True)
    with app.app_context():
        kinds = db.session.scalars(sa.select(VinRequest.kind).where(VinRequest.user_id == live_dealer.id)).all()
    assert kinds == ["report"]
    assert event_names(events) == ["vin_decoded", "vin_decode_error"]
    assert events[1][2]["code"] == "vin_not_recognised"
