"""Application factory: wires extensions and registers blueprints, nothing else."""

from __future__ import annotations

import logging
import sys
from typing import Any

from flask import Flask, Response, request
from werkzeug.middleware.proxy_fix import ProxyFix

from app import (
    accounts,
    admin,
    auth,
    billing,
    browse,
    catalog,
    changelog,
    demo,
    equivalents,
    internal_admin,
    notifications,
    orders,
    quotes,
    referrals,
    shelf,
    shops,
    site,
    storage,
    suppliers,
    translation,
    vehicles,
)
from app import config as settings
from app.accounts import models as accounts_models
from app.accounts import seed as accounts_seed
from app.analytics.services import init_analytics
from app.auth import models as auth_models
from app.auth.guards import init_auth, warn_of_undeclared
from app.billing import models as billing_models
from app.billing import reference_data
from app.catalog import models as catalog_models
from app.catalog.tasks import init_prefetch
from app.changelog import models as changelog_models
from app.config import INSTANCE_DIR, PROJECT_ROOT
from app.core.db import commit_per_request, tune_sqlite
from app.core.errors import register_error_handlers
from app.core.fast_json import FastJSONProvider
from app.core.fragments import init_fragment_cache
from app.core.i18n import init_i18n
from app.core.request_id import RequestIdMiddleware
from app.core.security import init_form_csrf, init_security_headers
from app.core.seed import register_seed_command
from app.core.service_app import ServiceFlask
from app.core.static_urls import init_static_urls
from app.core.translate_cli import register_translate_commands
from app.core.validation import init_input_checks
from app.demo import seed as demo_seed
from app.equivalents import models as equivalents_models
from app.extensions import compress, db, limiter, migrate, redis_store
from app.internal_admin import models as internal_admin_models
from app.notifications import models as notifications_models
from app.orders import models as orders_models
from app.quotes import models as quotes_models
from app.referrals import models as referrals_models
from app.shelf import models as shelf_models
from app.shelf.equivalents_feed import init_branch_links
from app.shops import models as shops_models
from app.shops.keys import models as shop_keys_models
from app.sources.cli import register_sources_commands
from app.suppliers import models as suppliers_models
from app.suppliers.currency import models as currency_models
from app.suppliers.offer_cache import init_offer_cache
from app.translation import models as translation_models
from app.vehicles import models as vehicles_models

# Bodies smaller than this are sent uncompressed: one TCP segment (a 1,500-byte MTU less the IP and TCP headers).
COMPRESS_MIN_BYTES = 1400

# How a process that cannot start with its settings exits (create_app_or_exit).
SETTINGS_EXIT_STATUS = 4

# The domains that serve URLs, lowest layer first (docs/architecture.md): each hands over its blueprints.
DOMAINS = (
    storage,
    translation,
    accounts,
    notifications,
    referrals,
    auth,
    shops,
    billing,
    vehicles,
    equivalents,
    shelf,
    suppliers,
    catalog,
    quotes,
    browse,
    demo,
    orders,
    admin,
    site,
    changelog,
    internal_admin,
)

# Each domain's module registering the stand-ins `make run` starts for unset outside services (app.core.sandboxes).
LOCAL_SERVICES = [
    "app.sources.sandbox.local",
    "app.billing.local_sandbox",
    "app.notifications.local_mail",
]

# Every domain's models, so the metadata (and so migrations) knows every table.
MODELS = (
    accounts_models,
    shops_models,
    shop_keys_models,
    auth_models,
    notifications_models,
    billing_models,
    vehicles_models,
    equivalents_models,
    catalog_models,
    shelf_models,
    suppliers_models,
    currency_models,
    quotes_models,
    orders_models,
    internal_admin_models,
    translation_models,
    referrals_models,
    changelog_models,
)

# Each domain's seed step, in the order `flask seed` runs them.
SEED_STEPS = (
    accounts_seed.admin_user,
    reference_data.brands,
    reference_data.plans,
    demo_seed.demo_vehicle,  # after the brands: the demo vehicle needs its brand
)


def create_app(overrides: dict[str, Any] | None = None) -> Flask:
    app = ServiceFlask(
        __name__,
        template_folder=str(PROJECT_ROOT / "templates"),
        instance_path=str(INSTANCE_DIR),
    )
    overrides = overrides or {}
    defaults = settings.from_env()
    app.config.update(defaults)
    app.config.update(overrides)
    # Engine options given are added to the app's own (its JSON reader), not put in their place.
    engine_options = {**defaults["SQLALCHEMY_ENGINE_OPTIONS"], **overrides.get("SQLALCHEMY_ENGINE_OPTIONS", {})}
    database_url = str(app.config["SQLALCHEMY_DATABASE_URI"])
    app.config["SQLALCHEMY_ENGINE_OPTIONS"] = settings.engine_options(database_url, engine_options)
    settings.check_production(app.config)  # before anything connects or starts with a missing setting
    app.json = FastJSONProvider(app)
    logging.basicConfig(level=app.config["LOG_LEVEL"], format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if app.config["PROXY_COUNT"]:
        # Trust X-Forwarded-* only from the proxies we run, so rate limits key on the real client address.
        count = app.config["PROXY_COUNT"]
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=count, x_proto=count, x_host=count)

    app.wsgi_app = RequestIdMiddleware(app.wsgi_app)  # every request gets an id for the logs (X-Request-ID)

    _init_extensions(app)
    _register_blueprints(app)
    warn_of_undeclared(app)
    register_error_handlers(app)
    register_seed_command(app, SEED_STEPS)
    register_translate_commands(app)
    register_sources_commands(app)
    return app


def create_app_or_exit() -> Flask:
    """create_app for the process entry points (wsgi.py, worker.py, the launcher): settings that do not let the
    product start end the process with their one message, not a traceback. The exit status, 4, is gunicorn's "app
    failed to load", so its master stops rather than starting the worker again and again."""
    try:
        return create_app()
    except settings.SettingsError as error:
        print(error, file=sys.stderr, flush=True)
        raise SystemExit(SETTINGS_EXIT_STATUS) from None


def _init_compression(app: Flask) -> None:
    """Flask-Compress first (after-request hooks run last-registered first, so it compresses the final body). Its
    streaming path never closes the stream it wraps, so streams pass untouched and static files, which Flask sends
    as streams, are read whole (at most some tens of KB) just before it, to be compressed like a page."""
    app.config.setdefault("COMPRESS_STREAMS", False)
    # A body that fits one TCP segment whole gains nothing from compression (the packet goes anyway) and costs a
    # compressor on the server and a decompressor on the client: a signed-in JSON answer of 620 bytes spent more time
    # in zstd than in the session check (issue 32).
    app.config.setdefault("COMPRESS_MIN_SIZE", COMPRESS_MIN_BYTES)
    compress.init_app(app)

    @app.after_request
    def _static_files_whole(response: Response) -> Response:
        if request.endpoint == "static" and response.direct_passthrough and response.status_code == 200:
            response.direct_passthrough = False
            response.make_sequence()  # closes the file once the response is done
        return response


def _init_extensions(app: Flask) -> None:
    _init_compression(app)
    db.init_app(app)
    init_offer_cache(app)  # offers kept per process; every write to what they are made of raises their epoch
    init_branch_links()  # a deleted branch's stock lists take their equivalent links with them
    with app.app_context():
        tune_sqlite(db.engine, app.config["SQLITE_BUSY_TIMEOUT_MS"])
    commit_per_request(app, db)
    init_input_checks(app)  # before the form-token check and the limiter read any input
    migrate.init_app(app, db, directory=str(PROJECT_ROOT / "migrations"), render_as_batch=True)
    init_form_csrf(app)
    init_i18n(app)
    redis_store.init_app(app)  # also points the limiter's storage at the same Redis (RATELIMIT_STORAGE_URI)
    limiter.init_app(app)
    init_security_headers(app)
    init_auth(app)
    init_analytics(app)
    init_prefetch()  # the catalog walks each vehicle the vehicles domain stores
    init_fragment_cache(app)
    init_static_urls(app)


def _register_blueprints(app: Flask) -> None:
    for domain in DOMAINS:
        for blueprint in domain.blueprints():
            app.register_blueprint(blueprint)
