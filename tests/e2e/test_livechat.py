"""The live-chat widget in a real browser, from a fake live-chat host on loopback: a visitor's page loads it with no
identity, a signed-in dealer's page with the verified identity from /api/livechat/identity, and the page's policy lets
its script, its cross-origin call and its frame through without a violation or a console error."""

from __future__ import annotations

import hashlib
import hmac

import pytest
from playwright.sync_api import expect

from tests.e2e.test_vin_search import sign_in
from tests.support.committed_dealer import served_dealer
from tests.support.fake_livechat import FakeLivechat

pytestmark = [pytest.mark.e2e, pytest.mark.no_isolation]

SECRET = "sohbet-gizli"
# Every policy violation the page meets, as "directive blocked-address".
WATCH_VIOLATIONS = """
window.violations = [];
document.addEventListener("securitypolicyviolation", function (event) {
  window.violations.push(event.violatedDirective + " " + event.blockedURI);
});
"""


@pytest.fixture
def livechat_host():
    fake = FakeLivechat(widget_path="/embed/hesap-42.js")
    yield fake
    fake.stop()


@pytest.fixture
def livechat_server(make_app, livechat_host):
    app = make_app(
        LIVECHAT_HOST=livechat_host.url, LIVECHAT_WIDGET_PATH=livechat_host.widget_path, LIVECHAT_IDENTITY_SECRET=SECRET
    )
    with served_dealer(app) as served:
        yield served


def chat_frame(page):
    frame = page.locator("iframe#fake-livechat")
    expect(frame).to_be_attached()
    expect(page.frame_locator("iframe#fake-livechat").locator("#greeting")).to_contain_text("Merhaba")
    return frame


def test_the_widget_loads_for_a_visitor_and_with_a_verified_identity_for_a_dealer(livechat_server, livechat_host, page):
    url, dealer = livechat_server
    page.add_init_script(WATCH_VIOLATIONS)

    page.goto(url + "/")
    chat_frame(page)
    assert livechat_host.visitors == [{"locale": "tr", "identity": None}]

    sign_in(page, url, dealer)
    page.goto(url + "/account")
    chat_frame(page)

    expected = hmac.new(SECRET.encode(), str(dealer.id).encode(), hashlib.sha256).hexdigest()
    assert livechat_host.visitors[-1] == {"locale": "tr", "identity": {"userId": str(dealer.id), "hash": expected}}
    assert "GET /embed/hesap-42.js" in livechat_host.requests and "GET /frame" in livechat_host.requests
    assert page.evaluate("window.violations") == []
    assert page.console_errors == []

    # The watch is real: a script from a host the policy does not name is reported.
    page.evaluate("""() => { const s = document.createElement("script"); s.src = "http://127.0.0.1:9/x.js";
                             document.head.appendChild(s); }""")
    page.wait_for_function("window.violations.length > 0")
    assert page.evaluate("window.violations")[0].startswith("script-src")
