"""Seeding the demo vehicle: `flask seed` stores the catapi Golf once and queues its tree; `flask demo seed` walks a
tree in the foreground; neither reaches a real upstream unless asked, and running either again adds nothing."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from app.catalog import store
from app.catalog.models import Category
from app.config import DEMO_SANDBOX_VIN
from app.demo import seed
from app.extensions import db, queues
from app.sources.catapi import CatapiSettings
from app.sources.sandbox.catalog import VIN_BMW, VIN_GOLF
from app.vehicles.models import Vehicle
from tests.catalog.conftest import bmw  # noqa: F401 - fixture used here
from tests.catalog.test_categories import run_prefetch
from tests.demo.conftest import upstream_calls


@pytest.fixture
def seeding(app, upstreams, billing_catalog, monkeypatch):
    """The seed step's settings as `make run` has them: no DEMO_VEHICLE_ID, the sandbox Golf, catapi the sandbox."""
    monkeypatch.setitem(app.config, "DEMO_VEHICLE_ID", None)
    monkeypatch.setitem(app.config, "DEMO_VIN", VIN_GOLF)
    monkeypatch.setitem(app.config, "DEMO_SEED", "auto")
    return upstreams


def vehicles_of(vin: str) -> list[Vehicle]:
    return list(db.session.scalars(sa.select(Vehicle).where(Vehicle.vin == vin)))


def car_lookups(upstreams) -> int:
    return upstreams.vin_calls()["catapi"]  # a call bounced for a token the sandbox forgot is retried: counted once


def test_the_default_demo_vin_is_the_sandbox_golf():
    assert DEMO_SANDBOX_VIN == VIN_GOLF


def test_flask_seed_stores_the_golf_from_catapi_once_and_queues_its_tree_once(runner, seeding):
    first = seed.demo_vehicle()
    prefetch = queues.get("prefetch")
    queued = list(prefetch.job_ids)
    again = runner.invoke(args=["seed"])

    (golf,) = vehicles_of(VIN_GOLF)
    assert golf.source == "catapi" and golf.brand_name == "Volkswagen" and golf.raw_data["carId"]
    assert first.endswith(f"queued for the worker (job prefetch-init-{golf.id})")
    assert queued == [f"prefetch-init-{golf.id}"]
    job = prefetch.fetch_job(queued[0])
    assert job.func_name == "app.catalog.tasks.prefetch_init" and job.args == (golf.id,)
    assert again.exit_code == 0, again.output
    assert "seed app.demo.seed.demo_vehicle: vehicle" in again.output and "by the worker already" in again.output
    assert vehicles_of(VIN_GOLF) == [golf] and list(prefetch.job_ids) == queued
    assert car_lookups(seeding) == 1  # the second run asked nothing


def test_once_the_tree_is_stored_seeding_again_does_nothing(app, runner, bmw, upstreams, monkeypatch):  # noqa: F811
    """The worker's path end to end on the small portal BMW: queued walk, drained as a worker would, then nothing."""
    monkeypatch.setitem(app.config, "DEMO_VEHICLE_ID", None)
    monkeypatch.setitem(app.config, "DEMO_VIN", VIN_BMW)
    run_prefetch(bmw)
    stored = store.counts(bmw)
    calls = upstream_calls(upstreams)

    summary = seed.demo_vehicle()
    by_hand = runner.invoke(args=["demo", "seed"])

    assert summary.startswith(f"vehicle {bmw} (") and summary.endswith("and its tree are stored already")
    assert by_hand.exit_code == 0 and "stored already" in by_hand.output
    assert store.counts(bmw) == stored and upstream_calls(upstreams) == calls
    assert queues.get("prefetch").job_ids == []


def test_flask_demo_seed_walks_the_tree_in_the_foreground_with_progress(app, runner, bmw, upstreams, monkeypatch):  # noqa: F811
    monkeypatch.setitem(app.config, "DEMO_VEHICLE_ID", bmw)

    result = runner.invoke(args=["demo", "seed"])
    calls = upstream_calls(upstreams)
    again = runner.invoke(args=["demo", "seed"])

    assert result.exit_code == 0, result.output
    assert "categories stored" in result.output and "tree stored:" in result.output
    unfetched = db.session.scalar(
        sa.select(sa.func.count()).where(
            Category.vehicle_id == bmw,
            sa.or_(
                sa.and_(Category.is_leaf, Category.parts_fetched_at.is_(None)),
                sa.and_(sa.not_(Category.is_leaf), Category.children_fetched_at.is_(None)),
            ),
        )
    )
    assert unfetched == 0 and store.counts(bmw)[1] > 0
    assert again.exit_code == 0 and "stored already" in again.output
    assert upstream_calls(upstreams) == calls
    assert seed.demo_vehicle() == "DEMO_VEHICLE_ID is set; nothing to seed"


def test_the_seed_step_never_reaches_a_real_catapi_unless_asked(app, seeding, monkeypatch):
    # The autouse network guard fails the test if anything tries to reach this host.
    monkeypatch.setitem(app.config, "CATAPI_BASE_URLS", "https://catapi.example.com")
    monkeypatch.setitem(app.config, "CATAPI_TOKEN_URL", "https://catapi.example.com/token")

    summary = seed.demo_vehicle()

    assert "not the local sandbox" in summary
    assert vehicles_of(VIN_GOLF) == []


@pytest.mark.parametrize(
    ("settings", "expected"),
    [
        ({"DEMO_SEED": "off"}, "off"),
        ({"DEMO_VIN": ""}, "off"),
        ({"DEMO_VEHICLE_ID": 42}, "DEMO_VEHICLE_ID is set"),
        ({"CATAPI_BASE_URLS": ""}, "catapi is not configured"),
    ],
)
def test_the_seed_step_stays_out_of_the_way(app, seeding, monkeypatch, settings, expected):
    for name, value in settings.items():
        monkeypatch.setitem(app.config, name, value)

    assert expected in seed.demo_vehicle()
    assert vehicles_of(VIN_GOLF) == [] and car_lookups(seeding) == 0


def test_a_vin_catapi_does_not_know_leaves_the_demo_unseeded_without_failing_the_seed(
    app, runner, seeding, monkeypatch
):
    monkeypatch.setitem(app.config, "DEMO_VIN", VIN_BMW)  # only the portal knows it

    result = runner.invoke(args=["seed"])

    assert result.exit_code == 0, result.output
    assert "seed app.demo.seed.demo_vehicle: not seeded: catapi answered none" in result.output
    assert vehicles_of(VIN_BMW) == []


@pytest.mark.parametrize(
    ("urls", "token_url", "local"),
    [
        ("http://127.0.0.1:5001,http://127.0.0.1:5002", "http://127.0.0.1:5003/token", True),
        ("http://localhost:5001", "", True),
        ("http://127.0.0.1:5001", "https://auth.catapi.example.com/token", False),
        ("https://proxy1.example.com,http://127.0.0.1:5001", "", False),
        ("", "", False),
    ],
)
def test_only_loopback_addresses_count_as_the_sandbox(urls, token_url, local):
    settings = CatapiSettings.from_config({"CATAPI_BASE_URLS": urls, "CATAPI_TOKEN_URL": token_url})

    assert seed.on_loopback(settings) is local
