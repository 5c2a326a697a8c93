"""The live-chat widget through HTTP: every page carries our loader only when LIVECHAT_HOST is set, pointing at the
widget's script on that host; a signed-in user's pages tell the loader where to read the verified identity (when
verification is on, and never in a read-only impersonation); the policy allows the host and its websocket."""

from __future__ import annotations

import hashlib
import hmac

import pytest
from bs4 import BeautifulSoup

from app.core.security import content_security_policy
from tests.conftest import SITE
from tests.internal_admin.test_users import BODY, call
from tests.support.csp import csp_directives

HOST = "https://chat.livechat.test"
WS_HOST = "wss://ws.livechat.test"
SECRET = "sohbet-gizli"


@pytest.fixture
def livechat(app, monkeypatch):
    for name, value in {
        "LIVECHAT_HOST": HOST,
        "LIVECHAT_WS_HOST": WS_HOST,
        "LIVECHAT_WIDGET_PATH": "/embed/hesap-42.js",
        "LIVECHAT_IDENTITY_SECRET": SECRET,
    }.items():
        monkeypatch.setitem(app.config, name, value)


def loaders(client, path: str) -> list:
    response = client.get(path)
    assert response.status_code == 200
    return BeautifulSoup(response.get_data(as_text=True), "html.parser").select("script[data-livechat-src]")


@pytest.mark.parametrize("path", ["/", "/contact", "/plans", "/login"])
def test_no_host_no_widget(client, path):
    html = client.get(path).get_data(as_text=True)

    assert "livechat" not in html


def test_a_visitor_s_page_loads_the_widget_without_an_identity(client, livechat):
    [loader] = loaders(client, "/")

    assert loader["src"] == "/static/js/livechat.js" and loader.has_attr("defer")
    assert loader["data-livechat-src"] == f"{HOST}/embed/hesap-42.js"
    assert loader["data-livechat-locale"] == "tr"
    assert not loader.has_attr("data-livechat-identity")


def test_a_signed_in_user_s_pages_read_the_verified_identity(app, client, livechat, create_user, sign_in):
    user = create_user()
    sign_in(user.email)

    pages = [loaders(client, path) for path in ("/", "/account", "/vin", "/subscription")]
    identity = client.get(pages[0][0]["data-livechat-identity"])

    assert all(len(found) == 1 and found[0]["data-livechat-identity"] == "/api/livechat/identity" for found in pages)
    expected = hmac.new(SECRET.encode(), str(user.id).encode(), hashlib.sha256).hexdigest()
    assert identity.status_code == 200
    assert identity.get_json() == {"enabled": True, "userId": str(user.id), "hash": expected}


def test_without_a_secret_nothing_is_verified(app, client, livechat, create_user, sign_in, monkeypatch):
    monkeypatch.setitem(app.config, "LIVECHAT_IDENTITY_SECRET", "")
    sign_in(create_user().email)

    [loader] = loaders(client, "/account")

    assert not loader.has_attr("data-livechat-identity")
    assert client.get("/api/livechat/identity").get_json() == {"enabled": False, "userId": None, "hash": None}


def test_a_read_only_impersonation_is_not_verified_as_the_dealer(app, client, livechat, create_user, monkeypatch):
    token = "ic-anahtar-" + "x" * 32
    monkeypatch.setitem(app.config, "INTERNAL_API_TOKEN", token)
    opened = call(client, create_user().id, "impersonate-readonly", body=BODY, token=token).get_json()
    assert client.get(opened["redirectUrl"].removeprefix(app.config["BASE_URL"])).status_code == 302

    [loader] = loaders(client, "/account")

    assert "salt okunur" in client.get("/account").get_data(as_text=True)
    assert not loader.has_attr("data-livechat-identity")


def test_the_policy_allows_the_widget_s_host_and_websocket(make_app):
    app = make_app(LIVECHAT_HOST=HOST, LIVECHAT_WS_HOST=WS_HOST)

    csp = csp_directives(app.test_client().get("/"))

    assert csp == content_security_policy(app.config)
    assert HOST in csp["script-src"] and HOST in csp["frame-src"]
    assert HOST in csp["connect-src"] and WS_HOST in csp["connect-src"]
    assert "'unsafe-inline'" not in csp["script-src"]  # the loader is a file of ours: 'self' allows it


def test_the_identity_needs_a_session(app, livechat):
    assert app.test_client().get("/api/livechat/identity", headers=SITE).status_code == 401
