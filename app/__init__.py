"""Application factory: wires extensions and registers blueprints, nothing else."""

from __future__ import annotations

import logging
import sys
from importlib import import_module
from typing import Any

from flask import Flask, Response, request
from werkzeug.middleware.proxy_fix import ProxyFix

from app import config as settings
from app.analytics.services import init_analytics
from app.auth.guards import init_auth
from app.catalog.tasks import init_prefetch
from app.config import INSTANCE_DIR, PROJECT_ROOT
from app.core.db import commit_per_request, tune_sqlite
from app.core.errors import register_error_handlers
from app.core.fast_json import FastJSONProvider
from app.core.fragments import init_fragment_cache
from app.core.i18n import init_i18n
from app.core.request_id import RequestIdMiddleware
from app.core.security import init_form_csrf, init_security_headers
from app.core.seed import register_seed_command
from app.core.translate_cli import register_translate_commands
from app.core.validation import init_input_checks
from app.extensions import compress, db, limiter, migrate, redis_store
from app.sources.cli import register_sources_commands

# How a process that cannot start with its settings exits (create_app_or_exit).
SETTINGS_EXIT_STATUS = 4

# Each domain's blueprints, in registration order.
BLUEPRINTS = [
    "app.site.views:bp",
    "app.site.api:bp",
    "app.site.api_docs:bp",
    "app.auth.api:bp",
    "app.auth.views:bp",
    "app.accounts.api:bp",
    "app.accounts.views:bp",
    "app.admin.api:bp",
    "app.auth.social:bp",
    "app.billing.api:bp",
    "app.billing.views:bp",
    "app.billing.payments_api:bp",
    "app.billing.payments_views:bp",
    "app.billing.cli:bp",
    "app.translation.cli:bp",
    "app.vehicles.api:bp",
    "app.vehicles.views:bp",
    "app.vehicles.preview_api:bp",
    "app.vehicles.preview_views:bp",
    "app.internal_admin.api:bp",
    "app.internal_admin.subscriptions_api:bp",
    "app.internal_admin.payments_api:bp",
    "app.catalog.api:bp",
    "app.catalog.views:bp",
    "app.catalog.exports:bp",
    "app.catalog.progress_views:bp",
    "app.catalog.search.api:bp",
    "app.catalog.copies.api:bp",
    "app.catalog.where_used.api:bp",
    "app.catalog.where_used.views:bp",
    "app.admin.copy_logs:bp",
    "app.translation.api:bp",
    "app.translation.views:bp",
    "app.storage.views:bp",
    "app.browse.api:bp",
    "app.browse.views:bp",
    "app.demo.api:bp",
    "app.demo.views:bp",
    "app.demo.cli:bp",
    "app.notifications.views:bp",
    "app.notifications.links:bp",
    "app.referrals.api:bp",
    "app.referrals.views:bp",
    "app.admin.queues_api:bp",
    "app.admin.queue_views:bp",
    "app.internal_admin.queues_api:bp",
    "app.internal_admin.users_api:bp",
    "app.internal_admin.users_api:consume_bp",
    "app.site.support_api:bp",
    "app.site.collect:bp",
    "app.site.pages:bp",
    "app.changelog.api:bp",
    "app.changelog.views:bp",
    "app.admin.dashboard_api:bp",
    "app.internal_admin.dashboard_api:bp",
    "app.admin.dashboard_views:bp",
    "app.admin.users_api:bp",
    "app.admin.users_views:bp",
]

# Each domain's module registering the stand-ins `make run` starts for unset outside services (app.core.sandboxes).
LOCAL_SERVICES = [
    "app.sources.sandbox.local",
    "app.billing.local_sandbox",
    "app.notifications.local_mail",
]

MODEL_MODULES = [
    "app.accounts.models",
    "app.auth.models",
    "app.notifications.models",
    "app.billing.models",
    "app.vehicles.models",
    "app.catalog.models",
    "app.internal_admin.models",
    "app.translation.models",
    "app.referrals.models",
    "app.changelog.models",
]

# Each domain's seed step ("module.function"), in the order `flask seed` runs them.
SEED_STEPS: list[str] = [
    "app.accounts.seed.admin_user",
    "app.billing.reference_data.brands",
    "app.billing.reference_data.plans",
    "app.demo.seed.demo_vehicle",  # after the brands: the demo vehicle needs its brand
]


def create_app(overrides: dict[str, Any] | None = None) -> Flask:
    app = Flask(
        __name__,
        template_folder=str(PROJECT_ROOT / "templates"),
        instance_path=str(INSTANCE_DIR),
    )
    app.config.update(settings.from_env())
    app.config.update(overrides or {})
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
    compress.init_app(app)

    @app.after_request
    def _static_files_whole(response: Response) -> Response:
        if request.endpoint == "static" and response.direct_passthrough and response.status_code == 200:
            response.direct_passthrough = False
            response.make_sequence()  # closes the file once the response is done
        return response


def _init_extensions(app: Flask) -> None:
    _import_models()
    _init_compression(app)
    db.init_app(app)
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


def _import_models() -> None:
    """Import every domain's models so the metadata (and so migrations) knows all tables."""
    for module_name in MODEL_MODULES:
        import_module(module_name)


def _register_blueprints(app: Flask) -> None:
    for target in BLUEPRINTS:
        module_name, _, attribute = target.partition(":")
        app.register_blueprint(getattr(import_module(module_name), attribute))
