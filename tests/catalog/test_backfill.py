"""The hourly backfill scan and its jobs, with a frozen clock: off unless enabled (or on the production host), a batch
of 40 incomplete vehicles oldest first, skipped over a prefetch backlog, a source in cooldown skipped, the portal only
09:00-18:00 Istanbul; a backfill job out of the portal's hours is moved to the window's opening, and one started
while dealers decode waits for them."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from rq.registry import ScheduledJobRegistry

from app.catalog import backfill, tasks
from app.catalog.models import Category
from app.extensions import db, queues
from app.sources import traffic
from app.sources.sandbox.catalog import VIN_GOLF

NOON_ISTANBUL = datetime(2026, 11, 25, 9, 0, tzinfo=UTC)  # 12:00 in Istanbul (UTC+3)
EVENING_ISTANBUL = datetime(2026, 11, 25, 16, 30, tzinfo=UTC)  # 19:30 in Istanbul
NIGHT_ISTANBUL = datetime(2026, 11, 25, 23, 0, tzinfo=UTC)  # 02:00 the next day in Istanbul


@pytest.fixture
def on(app, monkeypatch):
    monkeypatch.setitem(app.config, "CATALOG_BACKFILL_ENABLED", "true")


def vehicle(source: str, number: int, age_days: int = 1, complete: bool = False) -> int:
    from app.vehicles.models import Vehicle

    row = Vehicle(
        vin=f"BACKFILL{number:09d}",
        brand_name="Volkswagen",
        model="Golf",
        source=source,
        created_at=NOON_ISTANBUL - timedelta(days=age_days),
    )
    db.session.add(row)
    db.session.flush()
    if complete:
        leaf = Category(vehicle_id=row.id, source=source, external_id="1", name="Motor", is_leaf=True)
        leaf.parts_fetched_at = NOON_ISTANBUL
        db.session.add(leaf)
    db.session.commit()
    return row.id


def test_the_scan_is_off_unless_enabled_or_on_the_production_host(app, monkeypatch):
    vehicle("catapi", 1)

    assert backfill.scan(NOON_ISTANBUL).skipped == "disabled"
    monkeypatch.setitem(app.config, "PRODUCTION_HOST", "parcabul.example")
    monkeypatch.setitem(app.config, "BASE_URL", "https://parcabul.example")
    assert backfill.scan(NOON_ISTANBUL).queued != []
    monkeypatch.setitem(app.config, "CATALOG_BACKFILL_ENABLED", "false")
    assert backfill.scan(NOON_ISTANBUL).skipped == "disabled"


def test_a_batch_is_the_40_oldest_incomplete_vehicles(on):
    oldest = [vehicle("catapi", number, age_days=100 - number) for number in range(45)]
    vehicle("catapi", 99, age_days=500, complete=True)

    report = backfill.scan(NOON_ISTANBUL)

    assert report.queued == oldest[:40]
    job_ids = queues.get("prefetch").job_ids
    assert len(job_ids) == 40 and all(":" not in job_id for job_id in job_ids)
    assert f"backfill-{oldest[0]}-2026112509" in job_ids


def test_the_portal_is_scanned_only_in_its_istanbul_window(on):
    portal, scrape = vehicle("portal", 1), vehicle("scrape", 2)

    at_noon = backfill.scan(NOON_ISTANBUL)
    queues.get("prefetch").empty()
    in_the_evening = backfill.scan(EVENING_ISTANBUL)

    assert sorted(at_noon.queued) == sorted([portal, scrape])
    assert in_the_evening.queued == [scrape] and in_the_evening.sources_skipped == {"portal": "out of hours"}


def test_a_backlog_or_a_cooldown_holds_the_scan_back(on, monkeypatch):
    catapi, scrape = vehicle("catapi", 1), vehicle("scrape", 2)
    backfill.cool_down("scrape", 600)

    cooled = backfill.scan(NOON_ISTANBUL)
    monkeypatch.setattr(backfill, "MAX_BACKLOG", len(queues.get("prefetch").job_ids) - 1)
    held = backfill.scan(NOON_ISTANBUL)

    assert cooled.queued == [catapi] and cooled.sources_skipped["scrape"] == "cooldown"
    assert held.skipped == "backlog" and held.queued == []
    assert scrape not in cooled.queued


def test_a_portal_job_out_of_hours_is_moved_to_the_window_s_opening(on, monkeypatch):
    portal = vehicle("portal", 1)
    monkeypatch.setattr(tasks, "utcnow", lambda: NIGHT_ISTANBUL)

    outcome = tasks.backfill_vehicle(portal)

    opening = datetime(2026, 11, 26, 6, 0, tzinfo=UTC)  # 09:00 in Istanbul
    assert outcome == f"deferred until {opening.isoformat()}"
    scheduled = ScheduledJobRegistry(queue=queues.get("prefetch"))
    assert scheduled.get_job_ids() == [f"backfill-{portal}-2026112606"]
    assert scheduled.get_scheduled_time(f"backfill-{portal}-2026112606") == opening


def test_a_backfill_job_waits_while_dealers_decode(app, on, monkeypatch):
    monkeypatch.setitem(app.config, "BACKFILL_MAX_PAUSE_SECONDS", 1.2)
    monkeypatch.setattr(tasks, "prefetch_init", lambda vehicle_id: 0)  # the walk itself is the prefetch tests' part
    quiet = tasks.backfill_vehicle(vehicle("catapi", 1))
    traffic.mark_dealer_traffic()

    busy = tasks.backfill_vehicle(vehicle("catapi", 2))

    assert quiet == "queued 0" and busy == "queued 0 after a pause of 1 s"


def test_a_rate_limited_upstream_defers_the_walk_and_cools_its_source(client, dealer, decode_vin, upstreams, on):
    golf = decode_vin(VIN_GOLF).get_json()["vehicle"]["id"]
    root = client.get(f"/api/vehicles/{golf}/categories").get_json()["categories"][0]
    upstreams.catapi.faults.rate_limited_seconds = 120

    page = client.get(f"/api/vehicles/{golf}/categories/{root['id']}/children")
    outcome = tasks.prefetch_children(golf, root["id"])

    assert page.status_code == 200 and page.get_json()["loadError"] is True  # the dealer sees what is stored
    assert outcome == 0 and backfill.in_cooldown("catapi")
    scheduled = ScheduledJobRegistry(queue=queues.get("prefetch"))
    job_id = f"prefetch-children-{golf}-{root['id']}-later1"
    assert job_id in scheduled.get_job_ids()
    wait = (scheduled.get_scheduled_time(job_id) - datetime.now(UTC)).total_seconds()
    assert 100 < wait <= 120
    assert backfill.scan().sources_skipped["catapi"] == "cooldown"
