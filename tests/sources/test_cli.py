"""`flask sources check VIN` shows what each source answers, with timings."""

import re

import pytest

from app.sources.sandbox.vpic import VpicSandbox


@pytest.fixture
def vpic(app, monkeypatch):
    sandbox = VpicSandbox().start()
    monkeypatch.setitem(app.config, "VPIC_BASE_URL", sandbox.url)
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
