"""docker-compose.yml, read as compose reads it (CI also runs `docker compose config` where the docker CLI has compose):
the product's processes run from the Dockerfile in production mode, Mailpit is only in the dev profile, and what
they wait for exists and says when it is ready."""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from app import create_app
from app.config import PROJECT_ROOT, SettingsError, from_env

COMPOSE = yaml.safe_load((PROJECT_ROOT / "docker-compose.yml").read_text())
SERVICES: dict[str, dict[str, Any]] = COMPOSE["services"]


def _by_default(service: dict) -> bool:
    return not service.get("profiles")


def _built(service: dict) -> bool:
    return "build" in service


def _strings(value: Any) -> list[str]:
    if isinstance(value, dict):
        return [text for key, item in value.items() for text in (str(key), *_strings(item))]
    if isinstance(value, list):
        return [text for item in value for text in _strings(item)]
    return [str(value)]


def _command(service: dict) -> str:
    command = service.get("command", "")
    return " ".join(command) if isinstance(command, list) else command


def test_mailpit_is_only_in_the_dev_profile_and_nothing_else_mentions_it():
    mailpit = [name for name, service in SERVICES.items() if "mailpit" in service.get("image", "")]

    assert mailpit, "the dev profile's mail catcher"
    assert [SERVICES[name].get("profiles") for name in mailpit] == [["dev"]] * len(mailpit)
    default_services = {name: service for name, service in SERVICES.items() if _by_default(service)}
    assert [text for text in _strings(default_services) if "mailpit" in text.lower()] == []


def test_every_process_of_the_product_runs_by_default_from_the_dockerfile():
    built = {name: service for name, service in SERVICES.items() if _built(service)}
    commands = [_command(service) for service in built.values()]

    for service in built.values():
        build = service["build"]
        assert build == "." or (build.get("context") == "." and build.get("dockerfile", "Dockerfile") == "Dockerfile")
        assert _by_default(service)
    # The processes of docs/operations.md: web (the image's gunicorn), worker, scheduler, migrate.
    assert "" in commands
    assert "python worker.py" in commands and "python worker.py scheduler" in commands
    assert any("db upgrade" in command for command in commands)
    assert [name for name, service in SERVICES.items() if not _built(service) and "image" not in service] == []


def test_every_process_runs_in_production_mode_with_mail_from_env_file_only():
    for name, service in SERVICES.items():
        if not _built(service):
            continue
        environment = service.get("environment", {})
        assert isinstance(environment, dict), name
        assert from_env({"SECRET_KEY": "k", "AUTH_SECRET": "k", **environment})["PRODUCTION"] is True, name
        assert "MAIL_URL" not in environment, name
        assert ".env" in _strings(service.get("env_file")), name


def test_a_deployment_that_forgot_mail_url_refuses_to_start(monkeypatch):
    web = next(service for service in SERVICES.values() if _built(service) and not _command(service))
    settings = {
        **web["environment"],
        "SECRET_KEY": "a-key",
        "AUTH_SECRET": "a-secret",
        "BASE_URL": "https://parcabul.example",
        "STRIPE_SECRET_KEY": "sk_test_x",
        "STRIPE_WEBHOOK_SECRET": "whsec_x",
        "MAIL_URL": "",  # what .env left out
    }
    for name, value in settings.items():
        monkeypatch.setenv(name, str(value))

    with pytest.raises(SettingsError, match=r"empty: MAIL_URL\."):
        create_app()


def test_what_a_service_waits_for_exists_starts_with_it_and_says_when_it_is_ready():
    for name, service in SERVICES.items():
        depends_on = service.get("depends_on", {})
        conditions = depends_on if isinstance(depends_on, dict) else dict.fromkeys(depends_on, {})
        for target, rule in conditions.items():
            assert target in SERVICES, f"{name} waits for {target}, which is not a service"
            assert not _by_default(service) or _by_default(SERVICES[target]), f"{name} waits for a profile's {target}"
            condition = (rule or {}).get("condition", "service_started")
            if condition == "service_healthy":
                assert "healthcheck" in SERVICES[target], f"{target} has no healthcheck for {name} to wait on"
            if condition == "service_completed_successfully":
                assert SERVICES[target].get("restart") == "no", f"{target} must run once"


def test_the_web_service_is_checked_through_api_health():
    web = [service for service in SERVICES.values() if _built(service) and not _command(service)]

    assert len(web) == 1
    check = " ".join(_strings(web[0]["healthcheck"]["test"]))
    assert "/api/health" in check and "X-Forwarded-Proto" in check  # past FORCE_HTTPS, as the TLS proxy's requests
