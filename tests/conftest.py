"""Shared fixtures.

The suite runs on the embedded default (SQLite file + embedded Redis-compatible store) unless TEST_DATABASE_URL and
TEST_REDIS_URL name a PostgreSQL database and a Redis server; then the same tests run there.
"""

from __future__ import annotations

import ipaddress
import os
import re
import shutil
import socket

import pytest
import sqlalchemy as sa
from flask.testing import FlaskClient
from flask_migrate import downgrade, upgrade
from sqlalchemy.orm import Session

from app import create_app
from app.config import normalize_database_url
from app.extensions import db, redis_store
from app.internal_admin.models import AuditEntry
from app.notifications.models import OutboxEmail


def test_config(tmp_dir) -> dict:
    return {
        "TESTING": True,
        "SECRET_KEY": "test-secret-key",
        "SQLALCHEMY_DATABASE_URI": normalize_database_url(
            os.environ.get("TEST_DATABASE_URL") or f"sqlite:///{tmp_dir / 'test.sqlite3'}"
        ),
        "REDIS_URL": os.environ.get("TEST_REDIS_URL", ""),
        "STORAGE_DIR": str(tmp_dir / "storage"),  # schema pictures the tests copy stay out of instance/
        "LOG_LEVEL": "WARNING",
    }


test_config.__test__ = False  # a helper, not a test


@pytest.fixture(scope="session")
def base_config(tmp_path_factory) -> dict:
    return test_config(tmp_path_factory.mktemp("db"))


class RequestIsolatedClient(FlaskClient):
    """Give every request a fresh app context (fresh `g`, own session), as in production.

    Without this, a request made while the test holds an app context reuses it, and state cached on `g`
    (the locale, the signed-in user) leaks from one request to the next.
    """

    def open(self, *args, **kwargs):
        with self.application.app_context():
            return super().open(*args, **kwargs)


@pytest.fixture(scope="session")
def app(base_config):
    application = create_app(base_config)
    application.test_client_class = RequestIsolatedClient
    with application.app_context():
        upgrade()
    yield application
    with application.app_context():
        db.session.remove()
        downgrade(revision="base")
        db.engine.dispose()


@pytest.fixture(autouse=True)
def _isolated(request, app):
    """Run each test inside one transaction that is rolled back, with an empty Redis database and object storage."""
    # Stored pictures are named by vehicle id, and ids repeat once the rows are rolled back: start with none.
    shutil.rmtree(app.config["STORAGE_DIR"], ignore_errors=True)
    if "no_isolation" in request.keywords:
        yield
        return
    registry = db.session.registry
    default_factory = registry.createfunc
    with app.app_context():
        connection = db.engine.connect()
        transaction = connection.begin()
        # Mail and audit entries that tests with committed data left behind are out of sight until the rollback: what a
        # test reads of them is its own.
        connection.execute(sa.delete(OutboxEmail))
        connection.execute(sa.delete(AuditEntry))
        # Every session of the test, the test's own and each request's, joins this transaction through savepoints.
        registry.createfunc = lambda: Session(bind=connection, join_transaction_mode="create_savepoint")
        redis_store.client.flushdb()
        try:
            yield
        finally:
            db.session.remove()
            registry.createfunc = default_factory
            transaction.rollback()
            connection.close()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


@pytest.fixture
def make_app(base_config):
    """Build another app on the test database and Redis with some settings changed."""

    def build(**overrides):
        application = create_app({**base_config, **overrides})
        application.test_client_class = RequestIsolatedClient
        return application

    return build


CSRF_INPUT = re.compile(r'name="csrf_token" value="([^"]+)"')


def csrf_token_from(html: str) -> str:
    match = CSRF_INPUT.search(html)
    assert match, "page has no CSRF token field"
    return match.group(1)


def _is_local(host: str) -> bool:
    if host in {"localhost", ""}:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@pytest.fixture(autouse=True)
def _no_network(monkeypatch):
    """Fail any test that tries to reach beyond this machine."""
    real_connect = socket.socket.connect
    real_getaddrinfo = socket.getaddrinfo

    def guarded_connect(sock, address):
        if sock.family in (socket.AF_INET, socket.AF_INET6) and not _is_local(address[0]):
            raise RuntimeError(f"test tried to reach the network: {address!r}")
        return real_connect(sock, address)

    def guarded_getaddrinfo(host, *args, **kwargs):
        if isinstance(host, bytes):
            host = host.decode()
        if host is not None and not _is_local(host):
            raise RuntimeError(f"test tried to resolve a remote host: {host!r}")
        return real_getaddrinfo(host, *args, **kwargs)

    monkeypatch.setattr(socket.socket, "connect", guarded_connect)
    monkeypatch.setattr(socket, "getaddrinfo", guarded_getaddrinfo)


# --- accounts -------------------------------------------------------------------------------------------------

PASSWORD = "correct-horse-42"
# A state-changing /api call made with the session cookie must come from the site itself (see app.auth.guards).
SITE = {"Origin": "http://localhost"}


@pytest.fixture
def create_user(app):
    """Factory: `create_user(email=..., role=..., status=..., password=...)`, committed into the test transaction."""
    from app.accounts.services import create_user as create
    from app.extensions import db

    counter = iter(range(1, 10_000))

    def make(**overrides):
        number = next(counter)
        status = overrides.pop("status", "active")
        user = create(
            email=overrides.pop("email", f"bayi{number}@example.com"),
            name=overrides.pop("name", f"Bayi {number}"),
            password=overrides.pop("password", PASSWORD),
            role=overrides.pop("role", "user"),
            email_verified=overrides.pop("email_verified", True),
        )
        user.status = status
        for field, value in overrides.items():
            setattr(user, field, value)
        db.session.commit()
        return user

    return make


@pytest.fixture
def sign_in(client):
    """Sign `client` in through the API; returns the response."""

    def do(email: str, password: str = PASSWORD, remember: bool = False):
        response = client.post(
            "/api/auth/sign-in/email", json={"email": email, "password": password, "rememberMe": remember}, headers=SITE
        )
        assert response.status_code == 200, response.get_json()
        return response

    return do


def outbox(template: str | None = None) -> list:
    """E-mails written to the outbox in this test, oldest first."""
    import sqlalchemy as sa

    from app.extensions import db
    from app.notifications.models import OutboxEmail

    query = sa.select(OutboxEmail).order_by(OutboxEmail.id)
    if template:
        query = query.where(OutboxEmail.template == template)
    return list(db.session.scalars(query))


def link_token(body: str) -> str:
    match = re.search(r"token=([A-Za-z0-9_\-]+)", body)
    assert match, body
    return match.group(1)


# --- fakes of outside services ---------------------------------------------------------------------------------


@pytest.fixture
def posthog():
    """A local PostHog endpoint; build the app with POSTHOG_HOST=posthog.url and ANALYTICS_SYNC=True."""
    from tests.support.fake_posthog import FakePostHog

    fake = FakePostHog()
    yield fake
    fake.stop()


@pytest.fixture
def stripe_sandbox():
    """The Stripe sandbox, signing its webhooks with tests.support.payments.WEBHOOK_SECRET."""
    from app.billing.sandbox.server import StripeSandbox
    from tests.support.payments import WEBHOOK_SECRET

    sandbox = StripeSandbox(webhook_secret=WEBHOOK_SECRET).start()
    yield sandbox
    sandbox.stop()


@pytest.fixture(scope="session")
def _upstream_sandboxes():
    from tests.support.upstreams import Upstreams

    upstreams = Upstreams.start()
    yield upstreams
    upstreams.stop()


@pytest.fixture
def upstreams(app, _upstream_sandboxes, monkeypatch):
    """Every source's sandbox, reset, with the session app's adapters pointed at them (`make_app(**upstreams.settings)`
    for another app)."""
    from app.vehicles.race import IN_FLIGHT

    _upstream_sandboxes.reset()
    for name, value in _upstream_sandboxes.settings.items():
        monkeypatch.setitem(app.config, name, value)
    yield _upstream_sandboxes
    # A decided race leaves its slower sources running; let them finish before the next test counts calls.
    _upstream_sandboxes.reset()
    IN_FLIGHT.wait_idle(timeout=10)
