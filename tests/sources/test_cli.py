"""`flask sources check VIN` shows what each source answers, with timings."""

import re

import pytest

from app.sources.sandbox.vpic import VpicSandbox


def point_at(app, monkeypatch, sandbox) -> None:
    """Configure the app's adapter for `sandbox` with the settings the sandbox itself gives (as `make run` does)."""
    for name, value in sandbox.settings().items():
        monkeypatch.setitem(app.config, name, value)


@pytest.fixture
def vpic(app, monkeypatch):
    sandbox = VpicSandbox().start()
    point_at(app, monkeypatch, sandbox)
    yield sandbox
    sandbox.stop()


def test_check_prints_the_make_and_each_source_with_its_timing(runner, vpic):
    result = runner.invoke(args=["sources", "check", "1hgcm82633a004352"])

    assert result.exit_code == 0, result.output
    assert "wmi        1HG: Honda (United States), portal: not routed" in result.output
    assert re.search(r"vin_api\s+one\s+\d+ ms", result.output)
    assert "- Honda Accord (2003, 3.0 L, 6 cyl.)" in result.output


def test_check_reports_unknown_vins_and_failures(runner, vpic):
    vpic.faults.error_rate = 1.0

    result = runner.invoke(args=["sources", "check", "ZZZ99999999999999"])

    assert "wmi        ZZZ: unknown make" in result.output
    assert re.search(r"vin_api\s+failure\s+\d+ ms  HTTPError", result.output)


def test_check_asks_the_catalog_api_when_it_is_configured(app, runner, vpic, monkeypatch):
    from app.sources.sandbox.catapi_server import CatapiSandbox

    catapi = CatapiSandbox().start()
    point_at(app, monkeypatch, catapi)
    try:
        golf = runner.invoke(args=["sources", "check", "WVWZZZAUZHW100001"])
        corolla = runner.invoke(args=["sources", "check", "NMTKZ3BE70R100003"])
    finally:
        catapi.stop()

    assert re.search(r"catapi\s+one\s+\d+ ms", golf.output), golf.output
    assert "Golf" in golf.output
    assert re.search(r"catapi\s+candidates\s+\d+ ms", corolla.output), corolla.output
    assert corolla.output.count("- Toyota Corolla") == 2


def test_check_asks_the_portal_when_it_is_configured(app, runner, vpic, monkeypatch):
    from app.sources.sandbox.portal_server import PortalSandbox

    portal = PortalSandbox().start()
    point_at(app, monkeypatch, portal)
    try:
        bmw = runner.invoke(args=["sources", "check", "WBA8E9G50GNU00004"])
        honda = runner.invoke(args=["sources", "check", "1HGCM82633A004352"])
    finally:
        portal.stop()

    assert re.search(r"portal\s+one\s+\d+ ms", bmw.output), bmw.output
    assert "BMW 3" in bmw.output
    assert re.search(r"portal\s+none\s+\d+ ms", honda.output), honda.output  # not routed: answered without a call


def test_check_asks_the_web_catalog_when_it_is_configured(app, runner, vpic, monkeypatch):
    from app.sources.sandbox.scrape_server import ScrapeSandbox

    scrape = ScrapeSandbox().start()
    point_at(app, monkeypatch, scrape)
    try:
        clio = runner.invoke(args=["sources", "check", "VF1RFB00X56100002"])
    finally:
        scrape.stop()

    assert re.search(r"scrape\s+one\s+\d+ ms", clio.output), clio.output
    assert "Renault Clio" in clio.output


def test_check_without_settings_asks_the_sandboxes_make_run_uses_and_never_the_internet(app, runner, monkeypatch):
    from app.config import VPIC_PUBLIC_URL

    unset = {"CATAPI_BASE_URLS": "", "SCRAPE_BASE_URL": "", "PORTAL_BASE_URL": "", "VPIC_BASE_URL": VPIC_PUBLIC_URL}
    for name, value in unset.items():
        monkeypatch.delenv(name, raising=False)
        monkeypatch.setitem(app.config, name, value)

    result = runner.invoke(args=["sources", "check", "WVWZZZAUZHW100001"])

    assert result.exit_code == 0, result.output
    assert "sandbox    catapi, scrape, portal, vpic" in result.output
    assert re.search(r"catapi\s+one\s+\d+ ms", result.output), result.output
    assert re.search(r"vin_api\s+\w+\s+\d+ ms", result.output), result.output
    assert "failure" not in result.output  # the _no_network guard turns any call to the real vPIC into a failure
    assert {name: app.config[name] for name in unset} == unset  # the app's settings are left as they were
