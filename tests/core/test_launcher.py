"""`make run`: a stand-in for every outside service without settings, and children that are restarted when they die."""

import os
import sys
import time
from pathlib import Path

import pytest

from app import launcher
from app.core import sandboxes
from app.launcher import Supervisor, start_local_services

SOURCE_SETTINGS = (
    "CATAPI_BASE_URLS",
    "SCRAPE_BASE_URL",
    "PORTAL_BASE_URL",
    "VPIC_BASE_URL",
    "TCMB_RATES_URL",
    "SANDBOX_DISTRIBUTOR_URL",
)


@pytest.fixture(autouse=True)
def _environment_restored():
    """The launcher points its children at the sandboxes through os.environ: later tests must not see them."""
    saved = dict(os.environ)
    yield
    os.environ.clear()
    os.environ.update(saved)


def unset_and_restored(monkeypatch, *names: str) -> None:
    """Unset each variable now and restore it after the test (the launcher sets what its stand-ins need)."""
    for name in names:
        monkeypatch.setenv(name, "")
        monkeypatch.delenv(name)


def test_services_without_settings_get_their_sandbox_and_configured_ones_are_left_alone(monkeypatch, tmp_path):
    for setting in SOURCE_SETTINGS:
        monkeypatch.delenv(setting, raising=False)
    for name in ("CATAPI_TOKEN_URL", "CATAPI_USERNAME", "CATAPI_PASSWORD", "PORTAL_USERNAME", "PORTAL_PASSWORD"):
        monkeypatch.delenv(name, raising=False)
    for name in ("STRIPE_WEBHOOK_SECRET", "STRIPE_API_BASE", "CHECKOUT_ORIGIN"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("SCRAPE_BASE_URL", "https://catalog.example")
    monkeypatch.setenv("STRIPE_SECRET_KEY", "sk_live_configured")
    monkeypatch.setenv("SANDBOX_CATAPI_LATENCY_MS", "5")
    unset_and_restored(monkeypatch, "MAIL_URL", "MAILBOX_DIR")
    monkeypatch.setenv("MAILBOX_DIR", str(tmp_path / "mailbox"))

    started = start_local_services("127.0.0.1", "5999")
    try:
        by_name = {service.name: running for service, running, _settings in started}
        assert sorted(by_name) == ["catapi", "distributor", "mail", "portal", "tcmb", "vpic"]
        assert os.environ["MAIL_URL"] == by_name["mail"].url
        assert os.environ["SCRAPE_BASE_URL"] == "https://catalog.example"
        assert os.environ["STRIPE_SECRET_KEY"] == "sk_live_configured"
        for _service, _running, settings in started:
            for name, value in settings.items():
                assert os.environ[name] == value
        assert os.environ["VPIC_BASE_URL"].startswith("http://127.0.0.1:")
        assert os.environ["TCMB_RATES_URL"] == f"{by_name['tcmb'].url}/kurlar/today.xml"
        assert os.environ["SANDBOX_DISTRIBUTOR_URL"] == by_name["distributor"].url
        assert by_name["catapi"].faults.latency_ms == 5
    finally:
        sandboxes.stop_all(started)


def test_the_card_payment_sandbox_sends_its_webhooks_to_the_site(monkeypatch):
    for name in ("STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET", "STRIPE_API_BASE", "CHECKOUT_ORIGIN", "BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    for setting in SOURCE_SETTINGS:
        monkeypatch.setenv(setting, "http://127.0.0.1:9/configured")
    monkeypatch.setenv("MAIL_URL", "smtp://127.0.0.1:9")

    started = start_local_services("127.0.0.1", "5999")
    try:
        [(service, payments, settings)] = started
        assert service.name == "stripe"
        assert payments.webhook_url == "http://127.0.0.1:5999/api/payments/card/webhook"
        assert settings["STRIPE_API_BASE"] == payments.url == os.environ["CHECKOUT_ORIGIN"]
        assert os.environ["STRIPE_WEBHOOK_SECRET"] == payments.webhook_secret
    finally:
        sandboxes.stop_all(started)


def test_the_launcher_imports_no_domain():
    source = Path(launcher.__file__).read_text()

    assert "app.billing" not in source and "app.sources" not in source


# --- the supervisor -------------------------------------------------------------------------------------------

SLEEPER = [sys.executable, "-c", "import time; time.sleep(60)"]
QUITTER = [sys.executable, "-c", "import sys; sys.exit(3)"]


@pytest.fixture
def supervise(tmp_path):
    made = []

    def start(commands: dict) -> Supervisor:
        supervisor = Supervisor(commands, cwd=tmp_path).start()
        made.append(supervisor)
        return supervisor

    yield start
    for supervisor in made:
        supervisor.stop()


def watch(supervisor: Supervisor, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        supervisor.check()
        time.sleep(0.05)


def child(supervisor: Supervisor, name: str):
    return next(child for child in supervisor.children if child.name == name)


def test_a_child_that_dies_is_started_again_with_a_log_line_and_the_others_keep_running(supervise, capsys):
    supervisor = supervise({"web": SLEEPER, "worker": SLEEPER})
    web_pid, worker_pid = child(supervisor, "web").process.pid, child(supervisor, "worker").process.pid

    child(supervisor, "worker").process.kill()
    watch(supervisor, 2.5)

    assert child(supervisor, "worker").process.pid != worker_pid
    assert child(supervisor, "worker").process.poll() is None
    assert child(supervisor, "web").process.pid == web_pid
    log = capsys.readouterr().err
    assert f"worker (pid {worker_pid}) exited with -9; restarting it in" in log
    assert f"worker started as pid {child(supervisor, 'worker').process.pid}" in log


def test_a_child_that_keeps_dying_is_restarted_with_growing_delays(supervise, capsys):
    supervisor = supervise({"scheduler": QUITTER, "web": SLEEPER})

    watch(supervisor, 4.5)

    lines = capsys.readouterr().err.splitlines()
    delays = [float(line.rsplit(" in ", 1)[1].split()[0]) for line in lines if "restarting" in line]
    assert len(delays) >= 2
    assert delays == sorted(delays)
    assert delays[1] > delays[0] * 1.3
    assert child(supervisor, "web").process.poll() is None


def test_stopping_stops_every_child_and_restarts_none(supervise):
    supervisor = supervise({"web": SLEEPER, "worker": SLEEPER})
    processes = [entry.process for entry in supervisor.children]

    supervisor.stop()
    watch(supervisor, 1.5)

    assert all(process.poll() is not None for process in processes)
    assert [entry.process for entry in supervisor.children] == processes
