"""Contract tests: the real scrape adapter against the scrape sandbox on loopback, with real headless Chromium."""

from __future__ import annotations

import json
import os

import pytest
from bs4 import BeautifulSoup

from app.sources.base import Outcome
from app.sources.sandbox import catalog as sandbox
from app.sources.sandbox.scrape_server import VIN_SCRAPE_SEVERAL, ScrapeSandbox, catalog_code
from app.sources.scrape import ScrapeSettings, ScrapeSource, _part
from app.sources.scrape_dump import DumpRefusedError
from app.sources.scrape_types import ScrapeError, ScrapeNotFoundError, ScrapeUnavailableError

TIMEOUT_MS = 300
BROWSER_TIMEOUT_MS = 8000
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")


@pytest.fixture(scope="module")
def scrape_sandbox():
    server = ScrapeSandbox().start()
    yield server
    server.stop()


@pytest.fixture
def upstream(scrape_sandbox):
    scrape_sandbox.reset()
    yield scrape_sandbox
    scrape_sandbox.reset()


def settings_for(upstream: ScrapeSandbox, **overrides: object) -> ScrapeSettings:
    config = {"SCRAPE_BASE_URL": upstream.url, "SCRAPE_TIMEOUT_MS": TIMEOUT_MS, **overrides}
    return ScrapeSettings.from_config(config)


@pytest.fixture
def source(upstream):
    with ScrapeSource(settings_for(upstream, SCRAPE_BROWSER_FALLBACK="false")) as adapter:
        yield adapter


@pytest.fixture
def browser_source(upstream):
    if not os.path.exists(CHROMIUM):
        if os.environ.get("REQUIRE_BROWSER"):
            pytest.fail(f"REQUIRE_BROWSER is set but there is no Chromium at {CHROMIUM}")
        pytest.skip(f"browser fallback tests need Chromium at {CHROMIUM} (apt-get install chromium chromium-driver)")
    settings = settings_for(upstream, SCRAPE_TIMEOUT_MS=BROWSER_TIMEOUT_MS, SCRAPE_CHROMIUM_PATH=CHROMIUM)
    with ScrapeSource(settings) as adapter:
        yield adapter


def clio() -> sandbox.Vehicle:
    return sandbox.sandbox_catalog().vehicle("renault-clio-4")


# --- settings ------------------------------------------------------------------------------------------------------


def test_settings_defaults_follow_the_spec():
    settings = ScrapeSettings.from_config({"SCRAPE_BASE_URL": "http://127.0.0.1:1/"})
    assert settings.base_url == "http://127.0.0.1:1"
    assert settings.timeout_seconds == 8.0
    assert settings.browser_fallback is True
    assert settings.dump_allowed_catalogs == frozenset()
    off = ScrapeSettings.from_config({"SCRAPE_BASE_URL": "x", "SCRAPE_BROWSER_FALLBACK": "0"})
    assert off.browser_fallback is False
    listed = ScrapeSettings.from_config(
        {"SCRAPE_BASE_URL": "x", "SCRAPE_DUMP_ALLOWED_CATALOGS": " ren-bh, ,TOY-ZRE210"}
    )
    assert listed.dump_allowed_catalogs == {"REN-BH", "TOY-ZRE210"}


def test_a_base_url_is_required():
    with pytest.raises(ValueError, match="SCRAPE_BASE_URL"):
        ScrapeSource(ScrapeSettings.from_config({}))


# --- VIN lookups ---------------------------------------------------------------------------------------------------


def test_one_car_has_the_catapi_car_shape(source):
    result = source.lookup_vin(sandbox.VIN_CLIO.lower())
    assert result.source == "scrape"
    assert result.outcome is Outcome.ONE
    car, vehicle = result.car, clio()
    assert (car.source, car.brand, car.model, car.car_id) == ("scrape", "Renault", "Clio", vehicle.car_id)
    assert car.catalog_id == catalog_code(vehicle) == "REN-BH"
    assert (car.year, car.engine, car.criteria) == (vehicle.year, vehicle.engine, vehicle.criteria)
    built = vehicle.build.build_date  # the VIN answer adds the build month to the keys catapi cars carry
    assert car.parameters == {**vehicle.parameters, "buildDate": f"{built.month:02d}.{built.year}"}
    assert car.raw["catalog_code"] == "REN-BH"
    assert car.raw["session"].startswith("ssd:REN-BH:")
    assert source.browser_pages == 0


@pytest.mark.parametrize("vin", [sandbox.VIN_GOLF, sandbox.VIN_UNKNOWN])
def test_no_car(source, vin):
    result = source.lookup_vin(vin)
    assert result.outcome is Outcome.NONE
    assert result.cars == ()
    assert result.error is None


def test_several_candidates(source):
    result = source.lookup_vin(VIN_SCRAPE_SEVERAL)
    assert result.outcome is Outcome.CANDIDATES
    assert [car.model for car in result.cars] == ["Corolla", "Corolla"]
    assert [car.catalog_id for car in result.cars] == ["TOY-ZWE211", "TOY-ZRE210"]
    assert [car.engine for car in result.cars] == ["1.8 Hybrid", "1.6 Valvematic"]
    sessions = [car.raw["session"] for car in result.cars]
    assert len(set(sessions)) == 2


# --- browsing ------------------------------------------------------------------------------------------------------


def test_browse_brand_vehicle_group_parts(source):
    brands = source.brands()
    assert {"renault", "volkswagen", "toyota"} <= {brand.id for brand in brands}
    assert next(brand.name for brand in brands if brand.id == "renault") == "Renault"

    vehicles = source.vehicles("renault")
    assert [vehicle.catalog_code for vehicle in vehicles] == ["REN-BH"]
    assert (vehicles[0].model, vehicles[0].year, vehicles[0].parameters["gearbox"]) == ("Clio", 2015, "JR5")

    vehicle = clio()
    groups = source.groups("REN-BH")
    assert [group.id for group in groups] == [schema.code for schema in vehicle.all_schemas()]
    first = vehicle.schema(groups[0].id)
    assert groups[0].name == first.title_en

    parts = source.parts("REN-BH", first.code)
    assert [(part.oem, part.name) for part in parts] == [(part.oem, part.name_en) for part in first.parts]
    assert [part.position for part in parts] == [part.position for part in first.parts]
    assert [part.remark for part in parts] == [part.notice_with_dates for part in first.parts]
    assert [part.quantity for part in parts] == [part.quantity for part in first.parts]
    assert [part.model_codes for part in parts] == [part.fit.model_codes if part.fit else () for part in first.parts]


@pytest.mark.parametrize(
    ("cell", "quantity"),
    [("2", 2), ("2x", 2), ("2 St.", 2), ("1,5", None), ("as needed", None), ("", None), ("two", None), (None, None)],
)
def test_the_qty_cell_is_read_robustly(cell, quantity):
    qty = "" if cell is None else f'<td class="qty">{cell}</td>'  # None: a page without the column
    cells = f'<td class="oem">7701 208 174</td><td class="name">Oil filter</td>{qty}'
    html = f'<table><tr class="part">{cells}</tr></table>'

    row = _part(BeautifulSoup(html, "html.parser").select_one("tr.part"))

    assert (row.oem, row.name, row.quantity) == ("7701 208 174", "Oil filter", quantity)


def test_unknown_catalog_code_is_not_found(source):
    with pytest.raises(ScrapeNotFoundError):
        source.groups("NOPE-1")
    with pytest.raises(ScrapeNotFoundError):
        source.parts("REN-BH", "999-999")


def test_wizard_steps_through_the_parameter_options(source):
    listings = [
        (vehicle, listing)
        for vehicle in sandbox.sandbox_catalog().vehicles
        if vehicle.catalog_id == "toyota"
        for listing in vehicle.listings
    ]

    def value(vehicle: sandbox.Vehicle, listing: sandbox.CarListing, key: str) -> str:
        return {"body": vehicle.body, "engine": listing.engine, "gearbox": listing.gearbox}.get(key, str(listing.year))

    selected: dict[str, str] = {}
    for step in ("body", "engine", "gearbox", "year"):
        page = source.wizard("toyota", selected)
        matching = [item for item in listings if all(value(*item, key) == v for key, v in selected.items())]
        assert page.step == step
        assert page.selected == selected
        assert page.options == tuple(sorted({value(*item, step) for item in matching}))
        assert len(page.matches) == len(matching)
        selected = {**selected, step: page.options[-1]}
    done = source.wizard("toyota", selected)
    assert done.done
    assert done.options == ()
    assert done.matches
    assert all(match.catalog_code.startswith("TOY-") for match in done.matches)
    assert all(match.engine == selected["engine"] for match in done.matches)
    assert all(str(match.year) == selected["year"] for match in done.matches)


def test_wizard_can_ask_for_a_named_step(source):
    page = source.wizard("renault", step="engine")
    assert page.step == "engine"
    assert set(page.options) == {"0.9 TCe", "1.2 16V", "1.5 dCi"}


# --- failures ------------------------------------------------------------------------------------------------------


def test_5xx_is_a_failure(upstream, source):
    upstream.faults.error_rate = 1.0
    result = source.lookup_vin(sandbox.VIN_CLIO)
    assert result.outcome is Outcome.FAILURE
    assert "503" in result.error
    with pytest.raises(ScrapeUnavailableError):
        source.brands()


def test_garbage_html_is_a_failure(upstream, source):
    upstream.faults.garbage = True
    result = source.lookup_vin(sandbox.VIN_CLIO)
    assert result.outcome is Outcome.FAILURE
    assert "expected structure" in result.error
    with pytest.raises(ScrapeUnavailableError):
        source.parts("REN-BH", "103-010")


def test_timeout_is_a_failure(upstream, source):
    upstream.faults.latency_ms = TIMEOUT_MS * 4
    result = source.lookup_vin(sandbox.VIN_CLIO)
    assert result.outcome is Outcome.FAILURE
    assert "Timeout" in result.error
    assert result.elapsed_ms < TIMEOUT_MS * 3


def test_refused_connection_is_a_failure():
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with ScrapeSource(ScrapeSettings.from_config({"SCRAPE_BASE_URL": f"http://127.0.0.1:{port}"})) as adapter:
        assert adapter.lookup_vin(sandbox.VIN_CLIO).outcome is Outcome.FAILURE


@pytest.mark.parametrize("fault", ["js_only", "challenge"])
def test_shell_or_challenge_without_the_browser_fallback_is_a_failure(upstream, source, fault):
    setattr(upstream.faults, fault, True)
    result = source.lookup_vin(sandbox.VIN_CLIO)
    assert result.outcome is Outcome.FAILURE
    assert "browser fallback is off" in result.error
    assert source.browser_pages == 0


# --- the Selenium fallback in real headless Chromium ---------------------------------------------------------------


def test_js_only_page_is_read_through_the_browser(upstream, browser_source):
    upstream.faults.js_only = True
    result = browser_source.lookup_vin(sandbox.VIN_CLIO)
    assert result.outcome is Outcome.ONE, result.error
    assert result.car.catalog_id == "REN-BH"
    assert result.car.raw["session"].startswith("ssd:REN-BH:")
    assert browser_source.browser_pages == 1
    assert any("HeadlessChrome" in call.user_agent for call in upstream.calls("/search"))
    # browsing pages go the same way, and the browser started once is reused
    parts = browser_source.parts("REN-BH", "103-010")
    assert [part.oem for part in parts] == [part.oem for part in clio().schema("103-010").parts]
    assert browser_source.browser_pages == 2


def test_challenge_is_passed_by_the_browser(upstream, browser_source):
    upstream.faults.challenge = True
    result = browser_source.lookup_vin(VIN_SCRAPE_SEVERAL)
    assert result.outcome is Outcome.CANDIDATES, result.error
    assert len(result.cars) == 2
    statuses = [call.status for call in upstream.calls("/search")]
    assert statuses[:2] == [403, 403]  # plain requests, then the browser's first visit before the cookie is set
    assert statuses[-1] == 200
    assert browser_source.wizard("toyota").options == ("Sedan",)


# --- the local source dump -----------------------------------------------------------------------------------------


def write_dump(root, code: str, group_id: str) -> None:
    folder = root / code
    folder.mkdir(parents=True)
    rows = [
        {"oem": "7701 208 174", "name": "Oil filter", "position": "1", "remark": None, "quantity": 2},
        {"oem": "7701 208 175", "name": "Oil filter seal", "position": "2", "remark": None, "quantity": "2 St."},
        {"oem": "7701 208 176", "name": "Engine oil", "position": "3", "remark": None, "quantity": "as needed"},
        {"oem": "7701 208 177", "name": "Oil drain plug", "position": "4", "remark": None, "quantity": {"n": 1}},
        {"oem": "7701 208 178", "name": "Oil sump", "position": "5", "remark": None},
    ]
    (folder / f"{group_id}.json").write_text(json.dumps(rows), encoding="utf-8")


def test_dump_is_refused_by_default(upstream, tmp_path):
    write_dump(tmp_path, "REN-BH", "103-010")
    settings = settings_for(upstream, SCRAPE_DUMP_DIR=str(tmp_path))
    with ScrapeSource(settings) as adapter, pytest.raises(DumpRefusedError):
        adapter.dump_parts("REN-BH", "103-010")


def test_dump_reads_only_listed_catalogs(upstream, tmp_path):
    write_dump(tmp_path, "REN-BH", "103-010")
    write_dump(tmp_path, "TOY-ZRE210", "103-010")
    settings = settings_for(upstream, SCRAPE_DUMP_DIR=str(tmp_path), SCRAPE_DUMP_ALLOWED_CATALOGS="REN-BH")
    with ScrapeSource(settings) as adapter:
        parts = adapter.dump_parts("ren-bh", "103-010")
        assert [(part.oem, part.name, part.position) for part in parts][0] == ("7701 208 174", "Oil filter", "1")
        assert [part.quantity for part in parts] == [2, 2, None, None, None]
        with pytest.raises(DumpRefusedError):
            adapter.dump_parts("TOY-ZRE210", "103-010")
        with pytest.raises(DumpRefusedError):
            adapter.dump_parts("REN-BH", "../TOY-ZRE210/103-010")
        with pytest.raises(ScrapeError):
            adapter.dump_parts("REN-BH", "999-999")
