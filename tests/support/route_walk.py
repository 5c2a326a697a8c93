"""Walking the url_map: every rule with made-up arguments, each of its methods, sent so it reaches the request guard
(form token, same-site Origin, a JSON body), with a spy that tells whether the view itself ran.

Used by tests/core/test_role_walk.py and tests/core/test_isolation_walk.py.
"""

from __future__ import annotations

import functools
import re
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from flask import Flask
from flask.testing import FlaskClient
from werkzeug.routing import Rule
from werkzeug.test import TestResponse

from app.accounts.models import User
from app.accounts.services import create_user
from app.extensions import db, limiter
from tests.conftest import PASSWORD, SITE, csrf_token_from

SKIPPED_METHODS = {"HEAD", "OPTIONS"}
# A made-up value per converter: no object anywhere has it, and each matches its converter.
MADE_UP = {
    "int": "987654",
    "uuid": "00000000-0000-4000-8000-00000000abcd",
    "path": "yok/boyle-bir-yol",
    "default": "yok-boyle",
}
ARGUMENT = re.compile(r"<(?:(?P<converter>\w+)(?:\([^)]*\))?:)?(?P<name>\w+)>")


def walked_rules(app: Flask) -> list[Rule]:
    """Every rule but the static files (served before any guard), in a stable order."""
    return sorted((rule for rule in app.url_map.iter_rules() if rule.endpoint != "static"), key=lambda r: r.rule)


def methods_of(rule: Rule) -> list[str]:
    return sorted(rule.methods - SKIPPED_METHODS)


def path_for(rule: Rule, values: dict[str, str] | None = None) -> str:
    """The rule's path with `values` for the arguments they name and a made-up value (per converter) for the rest."""
    values = values or {}

    def fill(match: re.Match) -> str:
        name = match["name"]
        return str(values[name]) if name in values else MADE_UP.get(match["converter"] or "default", MADE_UP["default"])

    return ARGUMENT.sub(fill, rule.rule)


def is_api(path: str) -> bool:
    return path == "/api" or path.startswith("/api/")


@dataclass
class Member:
    """A person and their browser, signed in (or not, for `signed out`), with the page form token of their session."""

    label: str
    client: FlaskClient
    user: User | None = None
    form_token: str = ""

    @property
    def role(self) -> str:
        """The member's role in their shop, read when they were signed in ("signed out" for nobody)."""
        return self.shop_role_then or "signed out"

    shop_role_then: str | None = None

    def send(self, method: str, path: str, body: dict | None = None) -> TestResponse:
        """A request that passes everything before the guard: same-site Origin, the form token, a JSON body for
        /api and form fields for pages."""
        headers = {**SITE, "X-CSRFToken": self.form_token}
        if method in ("GET", "HEAD"):
            return self.client.open(path, method=method, headers=headers)
        if is_api(path):
            return self.client.open(path, method=method, json=body or {}, headers=headers)
        return self.client.open(
            path, method=method, data={**(body or {}), "csrf_token": self.form_token}, headers=headers
        )


def signed_in(app: Flask, label: str, user: User) -> Member:
    client = app.test_client()
    response = client.post(
        "/api/auth/sign-in/email", json={"email": user.email, "password": PASSWORD, "rememberMe": False}, headers=SITE
    )
    assert response.status_code == 200, response.get_json()
    token = csrf_token_from(client.get("/contact").get_data(as_text=True))
    return Member(label, client, user, token, user.shop_role)


def signed_out(app: Flask) -> Member:
    client = app.test_client()
    return Member("signed out", client, None, csrf_token_from(client.get("/contact").get_data(as_text=True)))


def shop_members(app: Flask, prefix: str) -> dict[str, Member]:
    """An owner (with the one-person shop signing up gives) and a manager and a clerk of the same shop, signed in."""
    owner = create_user(
        email=f"{prefix}-sahip@example.com", name=f"{prefix} Sahip", password=PASSWORD, email_verified=True
    )
    people = {"owner": owner}
    for role in ("manager", "clerk"):
        people[role] = create_user(
            email=f"{prefix}-{role}@example.com",
            name=f"{prefix} {role}",
            password=PASSWORD,
            email_verified=True,
            shop_id=owner.shop_id,
            shop_role=role,
        )
    db.session.commit()
    return {role: signed_in(app, f"{prefix} {role}", user) for role, user in people.items()}


@dataclass
class ViewSpy:
    """Each view of the app wrapped (attributes kept, so the guard reads the same declarations) to record that it
    ran: a request the guard refused never reaches it."""

    ran: list[str] = field(default_factory=list)

    def install(self, app: Flask, monkeypatch) -> ViewSpy:
        for endpoint, view in list(app.view_functions.items()):
            monkeypatch.setitem(app.view_functions, endpoint, self._wrap(endpoint, view))
        return self

    def _wrap(self, endpoint: str, view: Callable) -> Callable:
        @functools.wraps(view)
        def spied(*args, **kwargs):
            self.ran.append(endpoint)
            return view(*args, **kwargs)

        return spied

    def clear(self) -> None:
        self.ran.clear()


def without_rate_limits(monkeypatch) -> None:
    """A walk sends hundreds of requests a minute from one address: the limiter (before the guard) stays out."""
    monkeypatch.setattr(limiter, "enabled", False)


def api_error_code(response: TestResponse) -> str | None:
    body = response.get_json(silent=True) or {}
    return (body.get("error") or {}).get("code") if isinstance(body, dict) else None


def each_request(rules: list[Rule]) -> Iterator[tuple[Rule, str, str]]:
    for rule in rules:
        for method in methods_of(rule):
            yield rule, method, path_for(rule)


def new_id() -> str:
    return uuid.uuid4().hex[:8]
