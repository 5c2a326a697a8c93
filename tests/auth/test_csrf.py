"""CSRF on /api calls made with the session cookie: from this site only; JSON, or no body where the document has none.

The framing cases go over a real socket (http.client sends exactly the headers written here: no Content-Length at all,
`Content-Length: 0`, chunked), so what is tested is what a server receives from a browser or a generated client.
"""

from __future__ import annotations

import http.client
import json
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from urllib.parse import urlsplit

import pytest
import requests
import sqlalchemy as sa
from flask import url_for
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from werkzeug.routing import IntegerConverter, UUIDConverter

from app.auth.sessions import COOKIE_NAME
from app.billing.models import Subscription
from app.core.loopback import LoopbackServer
from app.core.openapi import documented_without_body
from app.extensions import db
from tests.billing.conftest import billing_catalog  # noqa: F401 - the plans a trial starts on
from tests.conftest import PASSWORD, SITE

TRIAL = "/api/subscriptions/trial"  # documented without a body
CANCEL_PENDING = "/api/subscriptions/cancel-pending"  # documented without a body, changes nothing without a pending one
DOWNGRADE = "/api/subscriptions/downgrade"  # documented with a JSON body
UNSAFE = ("POST", "PUT", "PATCH", "DELETE")
FOREIGN = "https://evil.example"


@dataclass(frozen=True)
class Site:
    url: str
    cookie: str

    @property
    def lookalike(self) -> str:
        return self.url + ".evil.example"

    def call(self, method: str, path: str, headers: dict[str, str], body: bytes = b"") -> tuple[int, str | None]:
        """Send exactly these headers (plus Host and the cookie) and `body` as it is; answer (status, error code)."""
        parts = urlsplit(self.url)
        connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
        try:
            connection.putrequest(method, path, skip_accept_encoding=True)
            for name, value in {**headers, "Cookie": f"{COOKIE_NAME}={self.cookie}"}.items():
                connection.putheader(name, value)
            connection.endheaders(body or None)
            response = connection.getresponse()
            payload = response.read()
        finally:
            connection.close()
        error = json.loads(payload).get("error") if payload.startswith(b"{") else None
        return response.status, (error or {}).get("code")


@pytest.fixture
def site(app, create_user, billing_catalog) -> Iterator[Site]:  # noqa: F811
    """The app on a loopback port (inside the test's transaction) and a dealer signed in there."""
    user = create_user()
    server = LoopbackServer(app, name="csrf-live-server", quiet=True).start()
    try:
        signed_in = requests.post(
            f"{server.url}/api/auth/sign-in/email",
            json={"email": user.email, "password": PASSWORD},
            headers={"Origin": server.url},
            timeout=10,
        )
        assert signed_in.status_code == 200, signed_in.text
        yield Site(server.url, signed_in.cookies[COOKIE_NAME])
    finally:
        server.stop()


def _trials() -> int:
    db.session.expire_all()
    return db.session.scalar(sa.select(sa.func.count()).select_from(Subscription).where(Subscription.status == "trial"))


# --- accepted: a same-site call with no body, or with JSON -----------------------------------------------------------


@pytest.mark.parametrize(
    ("headers", "body"),
    [
        pytest.param({}, b"", id="no-content-length-no-type"),
        pytest.param({"Content-Length": "0"}, b"", id="content-length-0-no-type"),
        pytest.param({"Content-Length": "0", "Content-Type": "application/json"}, b"", id="json-type-no-body"),
        pytest.param({"Content-Length": "2", "Content-Type": "application/json"}, b"{}", id="json-body"),
    ],
)
@pytest.mark.parametrize("where", ["Origin", "Referer"])
def test_a_bodiless_operation_is_accepted_from_this_site_without_a_body_or_type(site, headers, body, where):
    named = {where: site.url if where == "Origin" else f"{site.url}/subscription"}

    status, code = site.call("POST", TRIAL, {**named, **headers}, body)

    assert (status, code) == (201, None)
    assert _trials() == 1


# --- refused: the origin rule stays, a form stays a form, a body stays JSON ------------------------------------------


@pytest.mark.parametrize(
    ("headers", "body"),
    [
        # A cross-site fetch(..., {method: "POST", mode: "no-cors", credentials: "include"}) with no body.
        pytest.param({"Origin": FOREIGN, "Content-Length": "0"}, b"", id="foreign-origin"),
        pytest.param({"Origin": "LOOKALIKE", "Content-Length": "0"}, b"", id="lookalike-origin"),
        # A page with `Referrer-Policy: no-referrer`, a sandboxed frame, a redirect across sites.
        pytest.param({"Origin": "null", "Content-Length": "0"}, b"", id="null-origin"),
        pytest.param({"Origin": FOREIGN, "Referer": "SITE/subscription", "Content-Length": "0"}, b"", id="origin-wins"),
        pytest.param({"Referer": f"{FOREIGN}/page", "Content-Length": "0"}, b"", id="foreign-referer"),
        pytest.param({"Content-Length": "0"}, b"", id="neither-origin-nor-referer"),
        pytest.param({}, b"", id="nothing-at-all"),
        # An empty form posted from a page of this site (an injected form): it carries its form type.
        pytest.param(
            {"Origin": "SITE", "Content-Type": "application/x-www-form-urlencoded", "Content-Length": "0"},
            b"",
            id="empty-urlencoded-form",
        ),
        pytest.param(
            {"Origin": "SITE", "Content-Type": "multipart/form-data; boundary=x", "Content-Length": "0"},
            b"",
            id="empty-multipart-form",
        ),
        pytest.param({"Origin": "SITE", "Content-Type": "text/plain", "Content-Length": "0"}, b"", id="empty-text"),
        # A body without JSON's type, announced by length or by chunks (even an empty chunked body is a body).
        pytest.param({"Origin": "SITE", "Content-Length": "2"}, b"{}", id="body-without-type"),
        pytest.param({"Origin": "SITE", "Content-Type": "text/plain", "Content-Length": "2"}, b"{}", id="body-as-text"),
        pytest.param({"Origin": "SITE", "Transfer-Encoding": "chunked"}, b"0\r\n\r\n", id="chunked-without-type"),
        pytest.param({"Origin": "SITE", "Content-Length": "00"}, b"", id="content-length-not-plainly-0"),
    ],
)
def test_a_bodiless_operation_still_refuses_other_sites_forms_and_untyped_bodies(site, headers, body):
    placed = {
        name: value.replace("LOOKALIKE", site.lookalike).replace("SITE", site.url) for name, value in headers.items()
    }

    status, code = site.call("POST", TRIAL, placed, body)

    assert (status, code) == (403, "csrf_failed")
    assert _trials() == 0


def test_an_operation_with_a_body_still_needs_json_when_none_is_sent(site):
    status, code = site.call("PATCH", DOWNGRADE, {"Origin": site.url, "Content-Length": "0"})

    assert (status, code) == (403, "csrf_failed")


def test_sign_out_needs_no_body_from_this_site(site):
    refused = site.call("POST", "/api/auth/sign-out", {"Origin": FOREIGN})
    signed_out = site.call("POST", "/api/auth/sign-out", {"Origin": site.url})
    after = requests.get(f"{site.url}/api/auth/get-session", cookies={COOKIE_NAME: site.cookie}, timeout=10)

    assert refused == (403, "csrf_failed")
    assert signed_out == (200, None)
    assert after.json() is None


# --- the rule over every combination --------------------------------------------------------------------------------

ORIGINS = st.sampled_from([None, "site", "foreign", "lookalike", "null"])
REFERERS = st.sampled_from([None, "site", "foreign"])
TYPES = st.sampled_from([None, "application/json", "application/json; charset=utf-8", "text/plain", "multipart"])
FRAMINGS = st.sampled_from(["none", "length-0", "json-body", "chunked"])


def _expected_to_pass(origin: str | None, referer: str | None, content_type: str | None, framing: str, path: str):
    named = origin if origin is not None else referer
    bodiless = framing in {"none", "length-0"} and path == CANCEL_PENDING
    return named == "site" and (
        content_type in {"application/json", "application/json; charset=utf-8"} or (content_type is None and bodiless)
    )


def test_the_rule_holds_for_every_combination_of_origin_type_and_framing(site):
    values = {"site": site.url, "foreign": FOREIGN, "lookalike": site.lookalike, "null": "null"}
    framings = {
        "none": ({}, b""),
        "length-0": ({"Content-Length": "0"}, b""),
        "json-body": ({"Content-Length": "2"}, b"{}"),
        "chunked": ({"Transfer-Encoding": "chunked"}, b"2\r\n{}\r\n0\r\n\r\n"),
    }
    types = {"multipart": "multipart/form-data; boundary=x"}

    @settings(max_examples=80, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))
    @given(
        origin=ORIGINS,
        referer=REFERERS,
        content_type=TYPES,
        framing=FRAMINGS,
        path=st.sampled_from([CANCEL_PENDING, DOWNGRADE]),
    )
    def check(origin, referer, content_type, framing, path) -> None:
        headers, body = framings[framing]
        headers = dict(headers)
        if origin is not None:
            headers["Origin"] = values[origin]
        if referer is not None:
            headers["Referer"] = values[referer] + "/subscription"
        if content_type is not None:
            headers["Content-Type"] = types.get(content_type, content_type)

        _status, code = site.call("PATCH", path, headers, body)

        assert (code != "csrf_failed") == _expected_to_pass(origin, referer, content_type, framing, path), headers

    check()


# --- every route: the document decides -----------------------------------------------------------------------------


def _sample(rule, name: str):
    converter = rule._converters[name]
    if isinstance(converter, UUIDConverter):
        return uuid.uuid4()
    return 987654 if isinstance(converter, IntegerConverter) else "x"


def _unsafe_api_calls(app) -> list[tuple[str, str, bool]]:
    """(method, path, documented without a body) for every state-changing /api route; sign-out last (it ends the
    session the others are made with)."""
    calls = []
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/api/"):
            continue
        with app.test_request_context():
            path = url_for(rule.endpoint, **{name: _sample(rule, name) for name in rule.arguments})
        bodiless = documented_without_body(app.view_functions[rule.endpoint])
        calls += [(method, path, bodiless) for method in sorted(rule.methods) if method in UNSAFE]
    return sorted(calls, key=lambda call: call[1] == "/api/auth/sign-out")


def test_every_operation_the_document_gives_no_body_is_accepted_without_one_and_only_those(
    app, client, create_user, upstreams
):
    client.post(
        "/api/auth/sign-in/email", json={"email": create_user().email, "password": PASSWORD}, headers=SITE
    ).close()
    calls = _unsafe_api_calls(app)
    assert sum(bodiless for _method, _path, bodiless in calls) >= 10
    for method, path, bodiless in calls:
        foreign = client.open(path, method=method, headers={"Origin": FOREIGN})
        same_site = client.open(path, method=method, headers=SITE)

        assert foreign.get_json()["error"]["code"] == "csrf_failed", (method, path)
        passed = same_site.status_code < 400 or same_site.get_json()["error"]["code"] != "csrf_failed"
        assert passed == bodiless, (method, path, same_site.get_json())
