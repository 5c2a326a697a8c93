"""PRODUCTION=true: a missing required setting stops every process at start-up with one message naming each one, and
/api/health names the optional settings left empty."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from app import create_app
from app.config import PROJECT_ROOT, SettingsError, from_env
from app.core.redis_store import resolve_redis_url

# What a deployment cannot run without (the list, plus where the data and the queues live).
REQUIRED = (
    "SECRET_KEY",
    "AUTH_SECRET",
    "DATABASE_URL",
    "REDIS_URL",
    "BASE_URL",
    "MAIL_URL",
    "STRIPE_SECRET_KEY",
    "STRIPE_WEBHOOK_SECRET",
)
COMPLETE = {
    "PRODUCTION": "true",
    "SECRET_KEY": "a-production-secret-key",
    "AUTH_SECRET": "a-production-auth-secret",
    "DATABASE_URL": "postgresql://parcabul@db.internal:5432/parcabul",
    "REDIS_URL": "redis://redis.internal:6379/0",
    "BASE_URL": "https://parcabul.example",
    "MAIL_URL": "smtp://relay.example:587",
    "STRIPE_SECRET_KEY": "sk_test_production_check",
    "STRIPE_WEBHOOK_SECRET": "whsec_production_check",
}
OPTIONAL = (
    "CATAPI_BASE_URLS",
    "SCRAPE_BASE_URL",
    "PORTAL_BASE_URL",
    "POSTHOG_API_KEY",
    "CAPTCHA_SECRET",
    "OIDC_CLIENT_ID",
    "INTERNAL_API_TOKEN",
    "TRACKING_SECRET",
)


@pytest.fixture
def environment(monkeypatch):
    """Set the process environment create_app reads: these settings, and every required or optional one else empty."""

    def set_to(settings: dict[str, str]) -> None:
        for name in (*REQUIRED, *OPTIONAL, "PRODUCTION", "FORCE_HTTPS"):
            monkeypatch.setenv(name, settings.get(name, ""))

    return set_to


def test_production_without_settings_stops_with_one_message_naming_every_missing_one(environment):
    # No made-up value stands in either: instance/secret_key and instance/auth_secret exist on a machine that ran
    # `make run`, the SQLite default and http://HOST:PORT are always at hand.
    environment({"PRODUCTION": "true"})

    with pytest.raises(SettingsError) as raised:
        create_app()

    message = str(raised.value)
    assert [name for name in REQUIRED if name not in message] == []
    assert message.count("\n") == 0 and ".env" in message


@pytest.mark.parametrize("missing", ["MAIL_URL", "STRIPE_WEBHOOK_SECRET", "BASE_URL", "AUTH_SECRET"])
def test_one_missing_setting_is_named_alone(environment, missing):
    environment({name: value for name, value in COMPLETE.items() if name != missing})

    with pytest.raises(SettingsError) as raised:
        create_app()

    assert [name for name in REQUIRED if name in str(raised.value)] == [missing]


def test_outside_production_nothing_is_required(environment, base_config):
    environment({})

    app = create_app(base_config)

    assert app.config["PRODUCTION"] is False
    assert app.config["MAIL_URL"] == "" and app.config["SECRET_KEY"]


def _production_app(environment, base_config, **settings: str):
    """A production app on the test database and Redis, the rest of its settings from the environment."""
    environment({**COMPLETE, **settings})
    return create_app({**base_config, "REDIS_URL": resolve_redis_url(base_config["REDIS_URL"])})


def test_production_health_names_each_optional_setting_left_empty(environment, base_config):
    app = _production_app(environment, base_config, POSTHOG_API_KEY="phc_key", SCRAPE_BASE_URL="https://cat.example")

    # Over plain HTTP as a load balancer's check comes, through the TLS proxy's header (FORCE_HTTPS is on).
    response = app.test_client().get("/api/health", base_url="http://localhost", headers={"X-Forwarded-Proto": "https"})

    assert response.status_code == 200
    body = response.get_json()
    assert body["status"] == "ok"
    assert sorted(body["notConfigured"]) == sorted(set(OPTIONAL) - {"POSTHOG_API_KEY", "SCRAPE_BASE_URL"})


def test_health_outside_production_names_nothing(client):
    assert "notConfigured" not in client.get("/api/health").get_json()


def test_production_sends_plain_http_to_https_unless_force_https_is_false(environment, base_config):
    app = _production_app(environment, base_config)
    response = app.test_client().get("/api/health", base_url="http://localhost")
    assert response.status_code == 301
    assert response.headers["Location"] == "https://localhost/api/health"

    app = _production_app(environment, base_config, FORCE_HTTPS="false")
    assert app.test_client().get("/api/health", base_url="http://localhost").status_code == 200
    assert from_env({**COMPLETE, "FORCE_HTTPS": "false"})["SESSION_COOKIE_SECURE"] is False


# --- every way the product starts ----------------------------------------------------------------------------------

COMMANDS = {
    "gunicorn": ["-m", "gunicorn", "wsgi:app", "--bind", "127.0.0.1:0", "--workers", "2"],
    "worker": ["worker.py"],
    "flask db upgrade": ["-m", "flask", "--app", "wsgi", "db", "upgrade"],
    "make run's launcher": ["-m", "app.launcher"],
}


@pytest.mark.parametrize("command", COMMANDS.values(), ids=COMMANDS.keys())
def test_every_process_refuses_to_start_naming_what_is_missing(command, tmp_path):
    settings = {name: value for name, value in COMPLETE.items() if name not in ("MAIL_URL", "STRIPE_SECRET_KEY")}
    # Set but empty: a .env in the project folder does not fill them either (load_dotenv never overrides).
    env = {**os.environ, **settings, "MAIL_URL": "", "STRIPE_SECRET_KEY": "", "MAILBOX_DIR": str(tmp_path)}

    result = subprocess.run(  # noqa: S603 - the test's own command line
        [sys.executable, *command], cwd=PROJECT_ROOT, env=env, capture_output=True, text=True, timeout=60
    )

    output = result.stdout + result.stderr
    assert result.returncode != 0, output
    assert "PRODUCTION is on but these settings are empty: MAIL_URL, STRIPE_SECRET_KEY." in output
    assert "Traceback" not in output
    assert "sandbox" not in output  # the launcher started no stand-in for them
