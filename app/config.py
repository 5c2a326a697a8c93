"""Settings read from the environment. `.env.example` lists every one with its default."""

from __future__ import annotations

import json
import os
import secrets
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import orjson

PROJECT_ROOT = Path(__file__).resolve().parent.parent
INSTANCE_DIR = PROJECT_ROOT / "instance"
# The sandbox catapi's full-size VW Golf (app.sources.sandbox.catalog.VIN_GOLF): the demo vehicle `make run` seeds.
DEMO_SANDBOX_VIN = "WVWZZZAUZHW100001"
# NHTSA's public VIN decoder, the vin_api source's default.
VPIC_PUBLIC_URL = "https://vpic.nhtsa.dot.gov/api"
# The Central Bank's daily exchange rates (the currency rates job's default).
TCMB_PUBLIC_URL = "https://www.tcmb.gov.tr/kurlar/today.xml"

# With PRODUCTION=true, start-up stops while one of these is empty: without them the product fails silently (no mail,
# sessions signed by a secret each process makes up, no payments, links to nowhere, data in a container's SQLite).
# Setting name: the config key it fills.
REQUIRED_IN_PRODUCTION = {
    "SECRET_KEY": "SECRET_KEY",
    "AUTH_SECRET": "AUTH_SECRET",
    "DATABASE_URL": "SQLALCHEMY_DATABASE_URI",
    "REDIS_URL": "REDIS_URL",
    "BASE_URL": "BASE_URL",
    "MAIL_URL": "MAIL_URL",
    "STRIPE_SECRET_KEY": "STRIPE_SECRET_KEY",
    "STRIPE_WEBHOOK_SECRET": "STRIPE_WEBHOOK_SECRET",
}
# What the product runs without, each turning a feature off: with PRODUCTION=true, /api/health names the empty ones.
OPTIONAL_IN_PRODUCTION = (
    "CATAPI_BASE_URLS",  # the catalog API source
    "SCRAPE_BASE_URL",  # the public web catalog source
    "PORTAL_BASE_URL",  # the dealer portal source
    "POSTHOG_API_KEY",  # product analytics
    "CAPTCHA_SECRET",  # captcha on sign-in and sign-up
    "OIDC_CLIENT_ID",  # social sign-in
    "INTERNAL_API_TOKEN",  # the founder panel's internal API
    "TRACKING_SECRET",  # tracked links in mails
)


class SettingsError(RuntimeError):
    """The settings do not let the product start; the message names every one at fault."""


def _flag(value: str | None, default: bool = False) -> bool:
    if value is None or value.strip() == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def _csv(value: str | None) -> list[str]:
    return [item.strip() for item in (value or "").split(",") if item.strip()]


def _instance_secret(name: str) -> str:
    """Return a random secret kept under instance/, so `make run` survives restarts without configuration."""
    INSTANCE_DIR.mkdir(exist_ok=True)
    path = INSTANCE_DIR / name
    if not path.exists():
        path.write_text(secrets.token_urlsafe(48))
        path.chmod(0o600)
    return path.read_text().strip()


def _development_default(value: str | None, production: bool, default: Callable[[], str]) -> str:
    """The setting's value; when empty, the embedded default, except in production, where it stays empty (and
    check_production names it) so no process runs on a value made up on its own machine."""
    if value:
        return value
    return "" if production else default()


def check_production(config: Mapping[str, Any]) -> None:
    """Raise SettingsError naming every required setting that is empty, when the production flag is on."""
    if not config.get("PRODUCTION"):
        return
    missing = [name for name, key in REQUIRED_IN_PRODUCTION.items() if not config.get(key)]
    if missing:
        raise SettingsError(
            f"Parça Bul cannot start: PRODUCTION is on but these settings are empty: {', '.join(missing)}. "
            "Set them in the environment or in .env (.env.example says what each one is)."
        )


def not_configured(config: Mapping[str, Any]) -> list[str]:
    """The optional settings that are empty (each a feature that is off)."""
    return [name for name in OPTIONAL_IN_PRODUCTION if not config.get(name)]


def _optional_int(value: str | None) -> int | None:
    """An integer setting that may be left empty (None); anything else that is not a number is a startup error."""
    if value is None or not value.strip():
        return None
    return int(value.strip())


def normalize_database_url(url: str) -> str:
    """Pin PostgreSQL URLs to psycopg2, the stack's driver (SQLAlchemy 2.1 would pick psycopg 3 for plain URLs)."""
    for scheme in ("postgres://", "postgresql://"):
        if url.startswith(scheme):
            return "postgresql+psycopg2://" + url[len(scheme) :]
    return url


# Every PostgreSQL connection of the app runs without JIT compilation: the catalog's recursive reads (a category's
# ancestors, the trails of a search's or a where-used answer's categories) are estimated at ten rows per level, which
# put their cost past jit_above_cost on a fleet of vehicles; compiling them then took 30-50 ms of a 1 ms query. The
# app's statements are short lookups, which JIT never speeds up.
POSTGRESQL_OPTIONS = "-c jit=off"


def engine_options(database_url: str, options: dict[str, Any]) -> dict[str, Any]:
    """The engine options for the database: on PostgreSQL, its connections' settings (POSTGRESQL_OPTIONS) added."""
    if not database_url.startswith("postgresql"):
        return options
    connect_args = options.get("connect_args", {})
    return {**options, "connect_args": {"options": POSTGRESQL_OPTIONS, **connect_args}}


def _embedded_database_url() -> str:
    INSTANCE_DIR.mkdir(exist_ok=True)
    return f"sqlite:///{INSTANCE_DIR / 'parcabul.sqlite3'}"


def _storage_dir(value: str | None) -> str:
    """Default instance/storage; a relative folder is taken from the project folder, wherever the process starts."""
    if not value:
        return str(INSTANCE_DIR / "storage")
    path = Path(value)
    return str(path if path.is_absolute() else PROJECT_ROOT / path)


def is_production(environ: os._Environ[str] | dict[str, str] | None = None) -> bool:
    return _flag((os.environ if environ is None else environ).get("PRODUCTION"))


def _json_loads(value: Any) -> Any:
    """A stored JSON document read through orjson; a value SQLite hands over already read (a number from a JSON
    path) as it is, the way json.loads takes it."""
    if isinstance(value, str | bytes | bytearray | memoryview):
        return orjson.loads(value)
    return json.loads(value)


def from_env(environ: os._Environ[str] | dict[str, str] | None = None) -> dict:
    """Build the Flask config mapping from environment variables."""
    env = os.environ if environ is None else environ
    production = is_production(env)
    https = _flag(env.get("FORCE_HTTPS"), default=production)
    return {
        # Production: every required setting must be given (check_production), FORCE_HTTPS is on unless set to false.
        "PRODUCTION": production,
        "SECRET_KEY": _development_default(env.get("SECRET_KEY"), production, lambda: _instance_secret("secret_key")),
        "SQLALCHEMY_DATABASE_URI": normalize_database_url(
            _development_default(env.get("DATABASE_URL"), production, _embedded_database_url)
        ),
        # JSON columns read through orjson, several times faster than the standard library's json on the catalog's
        # hot reads (each part row carries its fit and model codes). Integers beyond 64 bits would come back as
        # floats: no stored document holds one (ids from upstreams are strings).
        "SQLALCHEMY_ENGINE_OPTIONS": {"json_deserializer": _json_loads},
        "SQLITE_BUSY_TIMEOUT_MS": int(env.get("SQLITE_BUSY_TIMEOUT_MS", "15000")),
        "REDIS_URL": env.get("REDIS_URL", ""),
        # A dead Redis must fail a command in about this long, not hang the request (see app/core/redis_store.py).
        "REDIS_CONNECT_TIMEOUT": float(env.get("REDIS_CONNECT_TIMEOUT", "1") or 1),
        "REDIS_SOCKET_TIMEOUT": float(env.get("REDIS_SOCKET_TIMEOUT", "2") or 2),
        "SCHEDULER_INTERVAL_SECONDS": float(env.get("SCHEDULER_INTERVAL_SECONDS", "10") or 10),
        "BABEL_DEFAULT_LOCALE": "tr",
        "BABEL_DEFAULT_TIMEZONE": "Europe/Istanbul",
        "LANGUAGES": ["tr", "en"],
        # Machine translation for the words the catalog dictionary lacks: a "module:factory" path; empty, none.
        "TRANSLATION_PROVIDER": env.get("TRANSLATION_PROVIDER", ""),
        "TRANSLATION_MAX_DEFER_SECONDS": float(env.get("TRANSLATION_MAX_DEFER_SECONDS", "3600") or 3600),
        "FORCE_HTTPS": https,
        "SESSION_COOKIE_SECURE": https,
        "SESSION_COOKIE_SAMESITE": "Lax",
        "PREFERRED_URL_SCHEME": "https" if https else "http",
        "STORAGE_URL": env.get("STORAGE_URL", "").rstrip("/"),
        "ANALYTICS_HOST": env.get("ANALYTICS_HOST", ""),
        "LIVECHAT_HOST": env.get("LIVECHAT_HOST", ""),
        "LIVECHAT_WS_HOST": env.get("LIVECHAT_WS_HOST", ""),
        # The live-chat widget's script on LIVECHAT_HOST (path and query, e.g. an account id), loaded on every page.
        "LIVECHAT_WIDGET_PATH": env.get("LIVECHAT_WIDGET_PATH", "/widget.js"),
        "CAPTCHA_HOST": env.get("CAPTCHA_HOST", ""),
        "ERROR_TRACKING_HOST": env.get("ERROR_TRACKING_HOST", ""),
        "EXTRA_CONNECT_HOSTS": _csv(env.get("EXTRA_CONNECT_HOSTS")),
        "RATELIMIT_DEFAULT": env.get("RATELIMIT_DEFAULT", "300 per minute"),
        "RATELIMIT_HEADERS_ENABLED": True,
        "RATELIMIT_ENABLED": _flag(env.get("RATELIMIT_ENABLED"), default=True),
        # While Redis is down, limits keep counting in each process's memory (checked again for Redis every few s).
        "RATELIMIT_IN_MEMORY_FALLBACK_ENABLED": True,
        "LOG_LEVEL": env.get("LOG_LEVEL", "INFO").upper(),
        "PROXY_COUNT": int(env.get("PROXY_COUNT", "0") or 0),
        "BASE_URL": _development_default(
            env.get("BASE_URL"), production, lambda: f"http://{env.get('HOST', '127.0.0.1')}:{env.get('PORT', '5000')}"
        ).rstrip("/"),
        "AUTH_SECRET": _development_default(
            env.get("AUTH_SECRET"), production, lambda: _instance_secret("auth_secret")
        ),
        "ADMIN_EMAIL": env.get("ADMIN_EMAIL", ""),
        # Where the contact form's messages go (empty: ADMIN_EMAIL, else MAIL_FROM's address).
        "CONTACT_EMAIL": env.get("CONTACT_EMAIL", ""),
        "CONTACT_RATE_LIMIT": env.get("CONTACT_RATE_LIMIT", "5 per 10 minutes"),
        # The live-chat widget's identity verification (HMAC-SHA256 of the user id); empty: off.
        "LIVECHAT_IDENTITY_SECRET": env.get("LIVECHAT_IDENTITY_SECRET", ""),
        # Where POST /collect/<id> forwards the front end's monitoring reports; empty: they are dropped (204).
        "COLLECT_UPSTREAM_URL": env.get("COLLECT_UPSTREAM_URL", ""),
        # The release automation's token for POST /api/changelog/internal; empty: the route refuses every call.
        "CHANGELOG_AUTOMATION_TOKEN": env.get("CHANGELOG_AUTOMATION_TOKEN", ""),
        "ADMIN_PASSWORD": env.get("ADMIN_PASSWORD", ""),
        "CAPTCHA_SITE_KEY": env.get("CAPTCHA_SITE_KEY", ""),
        "CAPTCHA_SECRET": env.get("CAPTCHA_SECRET", ""),
        "CAPTCHA_VERIFY_URL": env.get(
            "CAPTCHA_VERIFY_URL", "https://challenges.cloudflare.com/turnstile/v0/siteverify"
        ),
        "OIDC_PROVIDER": env.get("OIDC_PROVIDER", "google"),
        "OIDC_CLIENT_ID": env.get("OIDC_CLIENT_ID", ""),
        "OIDC_CLIENT_SECRET": env.get("OIDC_CLIENT_SECRET", ""),
        "OIDC_DISCOVERY_URL": env.get(
            "OIDC_DISCOVERY_URL", "https://accounts.google.com/.well-known/openid-configuration"
        ),
        "MAIL_FROM": env.get("MAIL_FROM", "Parça Bul <no-reply@parcabul.local>"),
        # smtp://user:password@host:587 (STARTTLS when the server offers it; ?starttls=required insists),
        # smtps://...:465 (TLS from the start), smtp://127.0.0.1:1025 (plain, a local catcher). Unset: the outbox keeps
        # the messages (`make run` starts a local catcher instead, app.notifications.local_mail).
        "MAIL_URL": env.get("MAIL_URL", ""),
        "MAIL_TIMEOUT_SECONDS": float(env.get("MAIL_TIMEOUT_SECONDS", "15") or 15),
        "MAIL_MAX_ATTEMPTS": int(env.get("MAIL_MAX_ATTEMPTS", "6") or 6),
        # The waits after the 1st, 2nd, ... failed attempt (the last one repeats): 30 s, 2 min, 10 min, 30 min, 1 h.
        "MAIL_RETRY_SECONDS": (30, 120, 600, 1800, 3600),
        # Where the local catcher keeps what it received (shown at /admin/mail); empty when mail goes out for real.
        "MAILBOX_DIR": env.get("MAILBOX_DIR", ""),
        # Signs the tracked call-to-action links of messages (/t/<token>); unset: plain links.
        "TRACKING_SECRET": env.get("TRACKING_SECRET", ""),
        # The hourly catalog backfill (app.catalog.backfill): "true"/"false"; unset, it runs only when BASE_URL's host
        # is PRODUCTION_HOST.
        "CATALOG_BACKFILL_ENABLED": env.get("CATALOG_BACKFILL_ENABLED", ""),
        "PRODUCTION_HOST": env.get("PRODUCTION_HOST", ""),
        "BACKFILL_MAX_PAUSE_SECONDS": float(env.get("BACKFILL_MAX_PAUSE_SECONDS", "120") or 120),
        "TRIAL_DAYS": int(env.get("TRIAL_DAYS", "7") or 7),
        "CURRENCY": "TRY",
        "STRIPE_SECRET_KEY": env.get("STRIPE_SECRET_KEY", ""),
        "STRIPE_WEBHOOK_SECRET": env.get("STRIPE_WEBHOOK_SECRET", ""),
        "STRIPE_API_BASE": env.get("STRIPE_API_BASE", ""),
        "CHECKOUT_ORIGIN": env.get("CHECKOUT_ORIGIN", "https://checkout.stripe.com"),
        "POSTHOG_API_KEY": env.get("POSTHOG_API_KEY", ""),
        "POSTHOG_HOST": env.get("POSTHOG_HOST", "https://eu.i.posthog.com"),
        "CATAPI_BASE_URLS": env.get("CATAPI_BASE_URLS", ""),
        "CATAPI_TOKEN_URL": env.get("CATAPI_TOKEN_URL", ""),
        "CATAPI_USERNAME": env.get("CATAPI_USERNAME", ""),
        "CATAPI_PASSWORD": env.get("CATAPI_PASSWORD", ""),
        "PCAT_DECODE_TIMEOUT_MS": int(env.get("PCAT_DECODE_TIMEOUT_MS", "6000") or 6000),
        "PCAT_DECODE_MAX_RETRIES": int(env.get("PCAT_DECODE_MAX_RETRIES", "4") or 4),
        "PORTAL_BASE_URL": env.get("PORTAL_BASE_URL", ""),
        "PORTAL_USERNAME": env.get("PORTAL_USERNAME", ""),
        "PORTAL_PASSWORD": env.get("PORTAL_PASSWORD", ""),
        "PORTAL_TIMEOUT_MS": int(env.get("PORTAL_TIMEOUT_MS", "8000") or 8000),
        "SCRAPE_BASE_URL": env.get("SCRAPE_BASE_URL", ""),
        "SCRAPE_TIMEOUT_MS": int(env.get("SCRAPE_TIMEOUT_MS", "8000") or 8000),
        "SCRAPE_BROWSER_FALLBACK": env.get("SCRAPE_BROWSER_FALLBACK", "true"),
        "SCRAPE_DUMP_ALLOWED_CATALOGS": env.get("SCRAPE_DUMP_ALLOWED_CATALOGS", ""),
        "SCRAPE_DUMP_DIR": env.get("SCRAPE_DUMP_DIR", ""),
        "SCRAPE_CHROMIUM_PATH": env.get("SCRAPE_CHROMIUM_PATH", "/usr/bin/chromium"),
        "SCRAPE_CHROMEDRIVER_PATH": env.get("SCRAPE_CHROMEDRIVER_PATH", "/usr/bin/chromedriver"),
        "VPIC_BASE_URL": env.get("VPIC_BASE_URL", VPIC_PUBLIC_URL),
        "VPIC_TIMEOUT_MS": int(env.get("VPIC_TIMEOUT_MS", "5000") or 5000),
        "TCMB_RATES_URL": env.get("TCMB_RATES_URL", TCMB_PUBLIC_URL) or TCMB_PUBLIC_URL,
        "TCMB_TIMEOUT_MS": int(env.get("TCMB_TIMEOUT_MS", "10000") or 10000),
        "SANDBOX_DISTRIBUTOR_URL": env.get("SANDBOX_DISTRIBUTOR_URL", ""),
        "SIGN_IN_RATE_LIMIT": env.get("SIGN_IN_RATE_LIMIT", "10 per minute;50 per hour"),
        "DECODE_BUDGET_SECONDS": float(env.get("DECODE_BUDGET_SECONDS", "25") or 25),
        "DECODE_RATE_LIMIT": env.get("DECODE_RATE_LIMIT", "30 per minute"),
        "VIN_SCAN_RATE_LIMIT": env.get("VIN_SCAN_RATE_LIMIT", "20 per minute;300 per day"),
        "DECODE_MAX_CONCURRENT": int(env.get("DECODE_MAX_CONCURRENT", "2") or 2),
        "DECODE_QUEUE_SECONDS": float(env.get("DECODE_QUEUE_SECONDS", "2") or 2),
        "PORTAL_BREAKER_THRESHOLD": int(env.get("PORTAL_BREAKER_THRESHOLD", "3") or 3),
        "PORTAL_BREAKER_COOLDOWN_SECONDS": int(env.get("PORTAL_BREAKER_COOLDOWN_SECONDS", "30") or 30),
        "VIN_PREVIEW_RATE_LIMIT": env.get("VIN_PREVIEW_RATE_LIMIT", "20 per minute;200 per day"),
        "VIN_PAIRING_RATE_LIMIT": env.get("VIN_PAIRING_RATE_LIMIT", "10 per minute;60 per hour"),
        "VIN_PAIRING_SEND_RATE_LIMIT": env.get("VIN_PAIRING_SEND_RATE_LIMIT", "10 per minute"),
        "VIN_PAIRING_PHOTO_RATE_LIMIT": env.get("VIN_PAIRING_PHOTO_RATE_LIMIT", "10 per minute;100 per hour"),
        "OEM_COPY_RATE_LIMIT": env.get("OEM_COPY_RATE_LIMIT", "120 per minute;2000 per day"),
        "REFERRAL_INVITE_RATE_LIMIT": env.get("REFERRAL_INVITE_RATE_LIMIT", "10 per hour;30 per day"),
        "SHELF_UPLOAD_RATE_LIMIT": env.get("SHELF_UPLOAD_RATE_LIMIT", "6 per minute;60 per day"),
        "SUPPLIER_UPLOAD_RATE_LIMIT": env.get("SUPPLIER_UPLOAD_RATE_LIMIT", "6 per minute;60 per day"),
        # Pulling a supplier's list from a private, loopback or link-local address (SSRF): off in production unless
        # set; on in development and tests, where the sandbox distributors answer on 127.0.0.1.
        "SUPPLIER_PULL_ALLOW_PRIVATE": _flag(env.get("SUPPLIER_PULL_ALLOW_PRIVATE"), default=not production),
        "CATALOG_PROGRESS_RATE_LIMIT": env.get("CATALOG_PROGRESS_RATE_LIMIT", "120 per minute"),
        # VIN-less browsing reads its lists live: each upstream call's timeout and its retries on another proxy.
        "BROWSE_UPSTREAM_TIMEOUT_MS": int(env.get("BROWSE_UPSTREAM_TIMEOUT_MS", "5000") or 5000),
        "BROWSE_UPSTREAM_RETRIES": int(env.get("BROWSE_UPSTREAM_RETRIES", "1") or 0),
        # Megabytes of rendered fragments kept per process, as Python holds them (app.core.fragments); 0: no cache.
        "FRAGMENT_CACHE_MB": float(env.get("FRAGMENT_CACHE_MB", "64") or 0),
        # Offers and numbers kept per process (app.suppliers.offer_cache; an offer about 2.3 kB); 0: none kept.
        "OFFER_CACHE_SIZE": int(env.get("OFFER_CACHE_SIZE", "20000") or 0),
        "INTERNAL_API_TOKEN": env.get("INTERNAL_API_TOKEN", ""),
        "WTF_CSRF_TIME_LIMIT": None,
        # Object storage for schema pictures (app/storage); STORAGE_URL, above, is the public address.
        "STORAGE_BACKEND": (env.get("STORAGE_BACKEND") or "local").strip().lower(),
        "STORAGE_DIR": _storage_dir(env.get("STORAGE_DIR")),
        "S3_BUCKET": env.get("S3_BUCKET", ""),
        "S3_ENDPOINT_URL": env.get("S3_ENDPOINT_URL", ""),
        "S3_REGION": env.get("S3_REGION", "us-east-1"),
        "S3_ACCESS_KEY_ID": env.get("S3_ACCESS_KEY_ID", ""),
        "S3_SECRET_ACCESS_KEY": env.get("S3_SECRET_ACCESS_KEY", ""),
        "S3_ADDRESSING_STYLE": env.get("S3_ADDRESSING_STYLE", ""),
        # The public demo (app/demo): one stored vehicle, by id, else by VIN; see .env.example.
        "DEMO_VEHICLE_ID": _optional_int(env.get("DEMO_VEHICLE_ID")),
        "DEMO_VIN": (env.get("DEMO_VIN", DEMO_SANDBOX_VIN) or "").strip().upper(),
        "DEMO_SEED": (env.get("DEMO_SEED") or "auto").strip().lower(),
        "DEMO_RATE_LIMIT": env.get("DEMO_RATE_LIMIT", "120 per minute;2000 per hour"),
        "DEMO_SEARCH_RATE_LIMIT": env.get("DEMO_SEARCH_RATE_LIMIT", "20 per minute;300 per hour"),
    }
