"""Sandbox fault knobs can be set from settings (SANDBOX_<SOURCE>_<KNOB>) as well as by tests."""

from app.sources.base import Outcome
from app.sources.sandbox.catapi_server import CatapiFaults
from app.sources.sandbox.knobs import apply_fault_settings
from app.sources.sandbox.vpic import VpicSandbox
from app.sources.vin_api import VinApiSettings, VinApiSource


def test_knobs_are_read_with_the_type_of_each_field():
    faults = CatapiFaults()
    environ = {
        "SANDBOX_CATAPI_LATENCY_MS": "800",
        "SANDBOX_CATAPI_ERROR_RATE": "0.25",
        "SANDBOX_CATAPI_GARBAGE": "true",
        "SANDBOX_CATAPI_FAILING_PROXIES": "0, 2",
        "SANDBOX_PORTAL_LATENCY_MS": "5",  # another source's knob is not ours
    }

    applied = apply_fault_settings(faults, "catapi", environ)

    assert sorted(applied) == ["error_rate", "failing_proxies", "garbage", "latency_ms"]
    assert (faults.latency_ms, faults.error_rate, faults.garbage) == (800, 0.25, True)
    assert faults.failing_proxies == frozenset({0, 2})


def test_a_knob_from_settings_changes_what_the_adapter_sees():
    sandbox = VpicSandbox().start()
    try:
        apply_fault_settings(sandbox.faults, "vpic", {"SANDBOX_VPIC_GARBAGE": "1"})
        result = VinApiSource(VinApiSettings(base_url=sandbox.url, timeout_seconds=1)).lookup_vin("1HGCM82633A004352")
    finally:
        sandbox.stop()

    assert result.outcome is Outcome.FAILURE
