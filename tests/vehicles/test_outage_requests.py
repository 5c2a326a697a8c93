"""When every catalog source fails (issue 27, 6d): the dealer is told the make the WMI table knows (Turkish first)
and to try again, the VIN is saved as a request once per dealer and VIN, on the JSON API and on the search page, and
the admin and the founder see it; the migration that allows the new kind goes up and down."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from alembic.script import ScriptDirectory
from flask_migrate import downgrade, upgrade

from app.extensions import db
from app.internal_admin.guard import AUTH_HEADER
from app.sources.sandbox.catalog import VIN_BMW, VIN_HONDA, VIN_UNKNOWN
from app.vehicles.models import QueryLog, VinRequest
from tests.conftest import SITE, csrf_token_from
from tests.core.test_migrations import empty_database_url  # noqa: F401 - the fixture used here

TOKEN = "internal-test-token-outage"
REVISION = "e7a1c3b5d9f2"


@pytest.fixture
def outage(app, upstreams, monkeypatch):
    """Every catalog source answers with errors; catapi's attempts time out quickly within a 3 s budget."""
    monkeypatch.setitem(app.config, "PCAT_DECODE_TIMEOUT_MS", 300)
    monkeypatch.setitem(app.config, "DECODE_BUDGET_SECONDS", 3)
    for sandbox in (upstreams.catapi, upstreams.scrape, upstreams.portal):
        sandbox.faults.error_rate = 1.0
    return upstreams


def api_decode(client, vin: str, language: str = "tr"):
    return client.post("/api/vehicles/decode", json={"vin": vin}, headers={**SITE, "Accept-Language": language})


def page_decode(client, vin: str):
    token = csrf_token_from(client.get("/vin").get_data(as_text=True))
    return client.post("/vin/decode", data={"csrf_token": token, "vin": vin}, headers={"Accept-Language": "tr"})


def requests_for(vin: str) -> list[tuple]:
    db.session.expire_all()
    rows = db.session.scalars(sa.select(VinRequest).where(VinRequest.vin == vin)).all()
    return [(row.kind, row.user_id, row.description) for row in rows]


def test_the_make_is_named_in_english_too(dealer, client, outage):
    response = api_decode(client, VIN_BMW, language="en")

    assert response.status_code == 503
    assert response.get_json()["error"] == {
        "code": "sources_unavailable",
        "message": "This VIN belongs to a BMW vehicle. The vehicle catalogs cannot be reached right now; your request "
        "has been saved. Please try again in a few minutes.",
    }
    assert requests_for(VIN_BMW) == [("unavailable", dealer.id, "BMW")]


def test_a_make_the_wmi_table_does_not_know_is_not_guessed_and_the_request_is_saved(dealer, client, outage):
    response = api_decode(client, VIN_UNKNOWN)

    assert response.status_code == 503
    assert response.get_json()["error"]["message"] == (
        "Araç kataloglarına şu anda ulaşılamıyor; talebiniz kaydedildi. Lütfen birkaç dakika sonra yeniden deneyin."
    )
    assert requests_for(VIN_UNKNOWN) == [("unavailable", dealer.id, None)]


def test_retries_on_the_api_and_the_page_save_one_request_per_dealer_and_vin(
    dealer, client, create_user, make_subscription, sign_in, outage
):
    assert api_decode(client, VIN_HONDA).status_code == 503
    page = page_decode(client, VIN_HONDA)
    assert api_decode(client, VIN_HONDA).status_code == 503
    other = create_user()
    make_subscription(other, "active", plan_key="full")
    sign_in(other.email)
    assert api_decode(client, VIN_HONDA).status_code == 503

    html = page.get_data(as_text=True)
    assert page.status_code == 200 and "Bu VIN bir Honda aracına ait." in html and "talebiniz kaydedildi" in html
    assert sorted(requests_for(VIN_HONDA), key=lambda row: row[1] == other.id) == [
        ("unavailable", dealer.id, "Honda"),
        ("unavailable", other.id, "Honda"),
    ]
    logged = db.session.scalars(sa.select(QueryLog.error_message).where(QueryLog.vin == VIN_HONDA)).all()
    assert logged == ["sources_unavailable"] * 4  # each try is logged; the request is saved once per dealer


def test_the_request_is_kept_apart_from_a_later_no_catalog_answer(dealer, client, outage):
    api_decode(client, VIN_HONDA)
    for sandbox in (outage.catapi, outage.scrape, outage.portal):
        sandbox.faults.error_rate = 0.0

    response = api_decode(client, VIN_HONDA)

    assert response.get_json()["error"]["code"] == "identified_no_catalog"
    assert sorted(requests_for(VIN_HONDA)) == [
        ("no_catalog", dealer.id, "Honda Accord (2003)"),
        ("unavailable", dealer.id, "Honda"),
    ]


def test_the_admin_and_the_founder_see_the_saved_requests(
    app, client, dealer, create_user, sign_in, outage, monkeypatch
):
    api_decode(client, VIN_HONDA)
    api_decode(client, VIN_BMW)
    sign_in(create_user(role="admin").email)
    monkeypatch.setitem(app.config, "INTERNAL_API_TOKEN", TOKEN)

    admin = client.get("/api/admin/dashboard").get_json()
    founder = app.test_client().get("/api/internal/admin/dashboard", headers={AUTH_HEADER: TOKEN}).get_json()
    page = client.get("/admin").get_data(as_text=True)

    expected = [{"wmi": "1HG", "kind": "unavailable", "count": 1}, {"wmi": "WBA", "kind": "unavailable", "count": 1}]
    assert admin["demand"]["vehicleRequests"] == founder["demand"]["vehicleRequests"] == expected
    assert '<code class="code">1HG</code> (unavailable) · 1' in page


@pytest.mark.no_isolation
def test_the_migration_allows_the_new_kind_and_its_downgrade_removes_it(make_app, empty_database_url):  # noqa: F811
    app = make_app(SQLALCHEMY_DATABASE_URI=empty_database_url)
    table = sa.table("vin_request", sa.column("vin"), sa.column("kind"), sa.column("created_at"))
    with app.app_context():
        before = ScriptDirectory.from_config(app.extensions["migrate"].migrate.get_config()).get_revision(REVISION)
        upgrade(revision=REVISION)
        for kind in ("no_catalog", "unavailable"):
            db.session.execute(sa.insert(table).values(vin=VIN_HONDA, kind=kind, created_at=sa.func.now()))
        db.session.commit()
        db.session.remove()

        downgrade(revision=before.down_revision)

        assert db.session.execute(sa.select(table.c.kind)).scalars().all() == ["no_catalog"]
        with pytest.raises(sa.exc.IntegrityError):
            db.session.execute(sa.insert(table).values(vin=VIN_BMW, kind="unavailable", created_at=sa.func.now()))
        db.session.rollback()
        db.session.remove()
        upgrade(revision=REVISION)
        with pytest.raises(sa.exc.IntegrityError):
            db.session.execute(sa.insert(table).values(vin=VIN_BMW, kind="guess", created_at=sa.func.now()))
        db.session.rollback()
        db.session.remove()
        db.engine.dispose()
