"""A live server on loopback and headless Chromium (Debian's package) driven by Playwright."""

from __future__ import annotations

import os

import pytest
import sqlalchemy as sa

from app.billing import reference_data
from app.catalog.models import OemCopy
from app.core.loopback import LoopbackServer
from app.extensions import db
from tests.support.committed_dealer import committed_dealer
from tests.support.payments import WEBHOOK_SECRET

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")


@pytest.fixture
def live_server(app):
    server = LoopbackServer(app, name="live-server").start()
    yield server.url
    server.stop()


def require_chromium() -> None:
    """Skip the test when Debian's Chromium is not installed (fail instead when REQUIRE_BROWSER is set)."""
    if not os.path.exists(CHROMIUM):
        if os.environ.get("REQUIRE_BROWSER"):
            pytest.fail(f"REQUIRE_BROWSER is set but there is no Chromium at {CHROMIUM}")
        pytest.skip(f"browser tests need Chromium at {CHROMIUM} (apt-get install chromium chromium-driver)")


def launch(playwright):
    return playwright.chromium.launch(
        executable_path=CHROMIUM,
        args=["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"],
    )


@pytest.fixture
def page():
    require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = launch(playwright)
        context = browser.new_context(locale="tr-TR")
        tab = context.new_page()
        tab.console_errors = []
        tab.on("console", lambda message: message.type == "error" and tab.console_errors.append(message.text))
        tab.on("pageerror", lambda error: tab.console_errors.append(str(error)))
        yield tab
        context.close()
        browser.close()


@pytest.fixture
def card_live_server(make_app, stripe_sandbox):
    """A live server whose checkouts go to the sandbox, and whose webhook the sandbox calls back."""
    app = make_app(
        STRIPE_SECRET_KEY="sk_test_e2e",
        STRIPE_WEBHOOK_SECRET=WEBHOOK_SECRET,
        STRIPE_API_BASE=stripe_sandbox.url,
        CHECKOUT_ORIGIN=stripe_sandbox.url,
    )
    with app.app_context():
        reference_data.brands()
        reference_data.plans()
        db.session.commit()
    server = LoopbackServer(app, name="live-server").start()
    url = server.url
    app.config["BASE_URL"] = url  # the provider's return addresses: known only once the port is
    stripe_sandbox.webhook_url = url + "/api/payments/card/webhook"
    yield url
    server.stop()


@pytest.fixture
def catalog_server(make_app, upstreams, tmp_path):
    """A live server on the sandboxes with its own picture storage, and a committed dealer with a Full plan."""
    app = make_app(**upstreams.settings, STORAGE_DIR=str(tmp_path / "storage"))
    with committed_dealer(app) as dealer:
        server = LoopbackServer(app, name="live-server").start()
        try:
            yield server.url, dealer, app
        finally:
            server.stop()
            with app.app_context():  # before the dealer goes: its copies would outlive it with a null user
                db.session.execute(sa.delete(OemCopy).where(OemCopy.user_id == dealer.id))
                db.session.commit()
                db.session.remove()
