"""`make run` answers every upstream source that has no settings from its sandbox."""

import os

from app.core.launcher import SOURCE_SANDBOXES, start_source_sandboxes


def test_sources_without_settings_get_their_sandbox_and_configured_ones_are_left_alone(monkeypatch):
    for _source, setting, _class, _label in SOURCE_SANDBOXES:
        monkeypatch.delenv(setting, raising=False)
    for name in ("CATAPI_TOKEN_URL", "CATAPI_USERNAME", "CATAPI_PASSWORD", "PORTAL_USERNAME", "PORTAL_PASSWORD"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("SCRAPE_BASE_URL", "https://catalog.example")
    monkeypatch.setenv("SANDBOX_CATAPI_LATENCY_MS", "5")

    sandboxes = start_source_sandboxes()
    try:
        started = {type(sandbox).__name__: sandbox for sandbox in sandboxes}
        assert sorted(started) == ["CatapiSandbox", "PortalSandbox", "VpicSandbox"]
        assert os.environ["SCRAPE_BASE_URL"] == "https://catalog.example"
        for sandbox in sandboxes:
            for name, value in sandbox.settings().items():
                assert os.environ[name] == value
        assert os.environ["VPIC_BASE_URL"].startswith("http://127.0.0.1:")
        assert started["CatapiSandbox"].faults.latency_ms == 5
    finally:
        for sandbox in sandboxes:
            sandbox.stop()
