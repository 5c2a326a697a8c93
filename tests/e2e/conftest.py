"""A live server on loopback and headless Chromium (Debian's package) driven by Playwright."""

from __future__ import annotations

import os

import pytest

from app.core.loopback import LoopbackServer

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")


@pytest.fixture
def live_server(app):  # noqa: ANN001, ANN201
    server = LoopbackServer(app, name="live-server").start()
    yield server.url
    server.stop()


@pytest.fixture
def page():  # noqa: ANN201
    if not os.path.exists(CHROMIUM):
        if os.environ.get("REQUIRE_BROWSER"):
            pytest.fail(f"REQUIRE_BROWSER is set but there is no Chromium at {CHROMIUM}")
        pytest.skip(f"browser tests need Chromium at {CHROMIUM} (apt-get install chromium chromium-driver)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"],
        )
        context = browser.new_context(locale="tr-TR")
        tab = context.new_page()
        tab.console_errors = []
        tab.on("console", lambda message: message.type == "error" and tab.console_errors.append(message.text))
        tab.on("pageerror", lambda error: tab.console_errors.append(str(error)))
        yield tab
        context.close()
        browser.close()
