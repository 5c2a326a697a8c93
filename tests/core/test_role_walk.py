"""The role walk: every route of the app declares who may use it (public, the site's admins, or the least role in the
member's shop), and the guard holds to it for each role: a clerk, a manager and the owner of one shop, and a browser
signed out, try every route with every method. Below the declared role: refused (403 `forbidden`, the sign-in for a
browser signed out) and the view never runs; at or above it: never refused by the guard. A view that declares nothing
is refused to everyone (default deny)."""

from __future__ import annotations

import pytest

from app.auth.guards import declared_access, undeclared_endpoints
from tests.support.route_walk import (
    Member,
    ViewSpy,
    api_error_code,
    each_request,
    is_api,
    shop_members,
    signed_out,
    walked_rules,
    without_rate_limits,
)

SHOP_RANK = {"clerk": 0, "manager": 1, "owner": 2}
CLOSED_TR = "Bu adres kapalı"  # the default deny's message, in Turkish (the site's first language)


def test_every_route_declares_who_may_use_it(app):
    assert sorted(undeclared_endpoints(app)) == [], "routes with no declared role"


@pytest.fixture
def walk(app, monkeypatch):
    """The app's views spied on, no rate limit, and the four people of the walk."""
    without_rate_limits(monkeypatch)
    spy = ViewSpy().install(app, monkeypatch)
    people = {"signed out": signed_out(app), **shop_members(app, "yol")}
    return spy, people


def _sign_in_asked(response, path: str) -> bool:
    if is_api(path):
        return response.status_code == 401 and api_error_code(response) == "unauthorized"
    return response.status_code == 302 and "/login" in response.headers.get("Location", "")


def _forbidden(response, path: str) -> bool:
    return response.status_code == 403 and (not is_api(path) or api_error_code(response) == "forbidden")


def _expected_refusal(access: str | None, who: str):
    """The refusal `who` must get (a check of the response and path), or None when the guard must let them through."""
    if who == "signed out":
        return _sign_in_asked  # every route not public asks for the sign-in first
    if access is None:
        return _forbidden  # default deny: every member, whatever their role
    if access == "admin":
        return _forbidden  # a shop member is never one of the site's admins
    return _forbidden if SHOP_RANK[who] < SHOP_RANK[access] else None


def _try(spy: ViewSpy, member: Member, endpoint: str, access: str | None, method: str, path: str) -> str | None:
    """What went wrong when `member` sends this request, or None."""
    spy.clear()
    response = member.send(method, path)
    ran = endpoint in spy.ran
    refusal = _expected_refusal(access, member.role)
    where = f"{member.label}: {method} {path} ({endpoint}, declared {access}) answered {response.status_code}"
    if refusal is not None:
        if ran:
            return f"{where}, and the view ran"
        if not refusal(response, path):
            return f"{where} {api_error_code(response)}, not the refusal"
        return None
    if not ran and (response.status_code in (401, 403) or _sign_in_asked(response, path)):
        return f"{where} {api_error_code(response)}: refused by the guard"
    return None


def test_each_role_tries_each_route(app, walk, upstreams):
    spy, people = walk
    problems, tried = [], 0
    for rule, method, path in each_request(walked_rules(app)):
        access = declared_access(app.view_functions[rule.endpoint])
        if access == "public":
            continue  # open to everyone: nothing to refuse (and signing out would end the walk's sessions)
        for member in people.values():
            tried += 1
            if problem := _try(spy, member, rule.endpoint, access, method, path):
                problems.append(problem)
    assert tried > 400
    assert not problems, "\n".join(problems)


def test_a_lower_role_is_refused_a_route_for_the_owner(app, walk):
    """The referral programme spends the shop's subscription days: its pages are the owner's."""
    spy, people = walk
    for who in ("clerk", "manager"):
        response = people[who].send("POST", "/api/referrals/invite", {"email": "arkadas@example.com"})
        assert response.status_code == 403 and api_error_code(response) == "forbidden", (who, response.get_json())
        page = people[who].send("GET", "/account/referrals")
        assert page.status_code == 403 and "Dükkândaki rolünüz" in page.get_data(as_text=True)
    assert not {"referrals_api.invite", "referral_pages.page"} & set(spy.ran)
    assert people["owner"].send("GET", "/account/referrals").status_code == 200
    # The account page links to it only for the owner.
    assert "/account/referrals" in people["owner"].send("GET", "/account").get_data(as_text=True)
    assert "/account/referrals" not in people["clerk"].send("GET", "/account").get_data(as_text=True)


@pytest.mark.parametrize(
    ("endpoint", "path"), [("changelog_pages.page", "/whats-new"), ("changelog_api.entries", "/api/changelog")]
)
def test_a_view_that_declares_no_role_is_refused_to_everyone(app, walk, endpoint, path):
    spy, people = walk
    for member in people.values():
        assert member.send("GET", path).status_code == 200 or member.user is None
    del app.view_functions[endpoint].shop_role  # the spy's wrapper: the real view keeps its declaration

    assert endpoint in undeclared_endpoints(app)
    spy.clear()
    for member in people.values():
        response = member.send("GET", path)
        if member.user is None:
            assert response.status_code in (302, 401), response.status_code  # the sign-in, as everywhere
            continue
        assert response.status_code == 403, (member.label, response.status_code)
        if is_api(path):
            assert api_error_code(response) == "forbidden"
        else:
            assert CLOSED_TR in response.get_data(as_text=True)
    assert spy.ran == []
