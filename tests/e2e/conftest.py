"""A live server on loopback and headless Chromium (Debian's package) driven by Playwright."""

from __future__ import annotations

import os
import threading

import pytest
from werkzeug.serving import make_server

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")


@pytest.fixture
def live_server(app):  # noqa: ANN001, ANN201
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    server.server_close()


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
