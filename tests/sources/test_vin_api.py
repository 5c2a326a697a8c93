"""Contract: the vPIC adapter against the vPIC sandbox."""

import pytest

from app.sources.base import Outcome
from app.sources.sandbox.vpic import VpicSandbox
from app.sources.vin_api import VinApiSettings, VinApiSource


@pytest.fixture
def vpic():
    sandbox = VpicSandbox().start()
    yield sandbox
    sandbox.stop()


@pytest.fixture
def source(vpic):
    return VinApiSource(VinApiSettings(base_url=vpic.url, timeout_seconds=0.5))


def test_identifies_a_vehicle_no_catalog_knows(source):
    result = source.lookup_vin("1HGCM82633A004352")

    assert result.outcome is Outcome.ONE
    car = result.car
    assert (car.source, car.brand, car.model, car.year) == ("vin_api", "Honda", "Accord", 2003)
    assert car.engine == "3.0 L, 6 cyl."
    assert result.elapsed_ms >= 0


def test_a_make_without_a_model_is_no_identification(source):
    assert source.lookup_vin("WVWZZZAUZHW100001").outcome is Outcome.NONE


def test_an_unknown_vin_is_none(source):
    assert source.lookup_vin("ZZZ99999999999999").outcome is Outcome.NONE


def test_a_server_error_is_a_failure(vpic, source):
    vpic.faults.error_rate = 1.0

    result = source.lookup_vin("1HGCM82633A004352")

    assert result.outcome is Outcome.FAILURE
    assert "HTTPError" in result.error


def test_a_hang_is_a_timeout_failure(vpic, source):
    vpic.faults.hang_seconds = 1.0

    result = source.lookup_vin("1HGCM82633A004352")

    assert result.outcome is Outcome.FAILURE
    assert "Timeout" in result.error
    assert 400 <= result.elapsed_ms < 1000


def test_garbage_is_a_failure(vpic, source):
    vpic.faults.garbage = True

    result = source.lookup_vin("1HGCM82633A004352")

    assert result.outcome is Outcome.FAILURE
    assert "VinApiError" in result.error


def test_settings_come_from_config():
    settings = VinApiSettings.from_config({"VPIC_BASE_URL": "http://127.0.0.1:9/api/", "VPIC_TIMEOUT_MS": "1500"})

    assert settings == VinApiSettings(base_url="http://127.0.0.1:9/api", timeout_seconds=1.5)
    assert VinApiSettings.from_config({}).base_url == "https://vpic.nhtsa.dot.gov/api"
