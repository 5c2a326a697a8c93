"""Settings: every one is documented, and database URLs use the stack's driver."""

import re
from pathlib import Path

import pytest

from app.config import from_env, normalize_database_url

ROOT = Path(__file__).resolve().parents[2]


def _read_settings() -> set[str]:
    names = set()
    for path in [*ROOT.glob("app/**/*.py"), ROOT / "worker.py", *ROOT.glob("tests/**/*.py"), ROOT / ".ci" / "run"]:
        names |= set(re.findall(r"""env(?:iron)?\.get\(\s*["']([A-Z][A-Z0-9_]+)["']""", path.read_text()))
    return names


def test_env_example_lists_every_setting_the_code_reads():
    documented = set(re.findall(r"^([A-Z][A-Z0-9_]+)=", (ROOT / ".env.example").read_text(), flags=re.M))

    assert _read_settings() - documented == set()


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("postgresql://u@h:5432/db", "postgresql+psycopg2://u@h:5432/db"),
        ("postgres://u:p@h/db", "postgresql+psycopg2://u:p@h/db"),
        ("postgresql+psycopg2://u@h/db", "postgresql+psycopg2://u@h/db"),
        ("sqlite:///x.sqlite3", "sqlite:///x.sqlite3"),
    ],
)
def test_database_urls_use_psycopg2(given, expected):
    assert normalize_database_url(given) == expected


def test_defaults_are_the_embedded_ones(tmp_path):
    config = from_env({"SECRET_KEY": "k"})

    assert config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite:///")
    assert config["SQLALCHEMY_DATABASE_URI"].endswith("instance/parcabul.sqlite3")
    assert config["REDIS_URL"] == ""
    assert config["BABEL_DEFAULT_LOCALE"] == "tr"
    assert config["FORCE_HTTPS"] is False


def test_proxy_count_makes_rate_limits_see_the_real_client(make_app):
    from flask import request

    from app.core.security import public

    app = make_app(PROXY_COUNT=1)
    app.add_url_rule("/api/test/ip", "ip", public(lambda: {"ip": request.remote_addr}))

    response = app.test_client().get("/api/test/ip", headers={"X-Forwarded-For": "203.0.113.7"})

    assert response.get_json() == {"ip": "203.0.113.7"}
