"""The shop's tests: people with their own signed-in clients, invitations followed from the mail in the outbox. A shop
without a plan has one seat, so the shops that invite here are on a plan with room for their people."""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urlsplit

import pytest

from tests.billing.conftest import billing_catalog, make_subscription  # noqa: F401 - fixtures used here
from tests.conftest import PASSWORD, SITE, csrf_token_from, outbox

ROOMY_SEATS = 5  # the owner and four more people (members and open invitations)


@dataclass
class Person:
    email: str
    client: object

    def get(self, url: str, **kwargs):
        return self.client.get(url, **kwargs)

    def api(self, method: str, url: str, json: dict | None = None):
        return self.client.open(url, method=method, json=json, headers=SITE)

    def form(self, url: str, data: dict, page: str = "/dukkan"):
        token = csrf_token_from(self.client.get(page).get_data(as_text=True))
        return self.client.post(url, data={"csrf_token": token, **data})


@pytest.fixture
def person(app):
    """`person(email)`: a new browser for `email`, signed in through the API when `sign_in` (its account must exist)."""

    def make(email: str, sign_in: bool = True) -> Person:
        someone = Person(email, app.test_client())
        if sign_in:
            answer = someone.api("POST", "/api/auth/sign-in/email", {"email": email, "password": PASSWORD})
            assert answer.status_code == 200, answer.get_json()
        return someone

    return make


@pytest.fixture
def seats_for(make_subscription):  # noqa: F811
    """`seats_for(user, seats=ROOMY_SEATS)`: the user's shop gets a live Full plan with that many seats."""

    def give(user, seats: int = ROOMY_SEATS):
        return make_subscription(user, "active", plan_key="full", seats=seats)

    return give


@pytest.fixture
def owner(create_user, person, seats_for):
    """The owner of a shop on a plan with room to invite, signed in."""
    seats_for(create_user(email="sahip@example.com", name="Selim Sahip"))
    return person("sahip@example.com")


def invitation_path(client, email: str) -> str:
    """The invitation page the latest mail to `email` links to (through its tracked link when there is one)."""
    mail = next(mail for mail in reversed(outbox("shop_invitation")) if mail.to_address == email)
    path = urlsplit(re.search(r"https?://\S+", mail.body_text).group()).path
    if path.startswith("/t/"):
        path = urlsplit(client.get(path).headers["Location"]).path
    assert path.startswith("/davet/"), path
    return path


def invite(inviter: Person, email: str, role: str, branch_id: int | None = None):
    return inviter.api("POST", "/api/shop/invitations", {"email": email, "role": role, "branchId": branch_id})


def accept_as_new(app, email: str, name: str) -> Person:
    """Follow the mailed link in a fresh browser and create the account on the invitation page (signed in after)."""
    newcomer = Person(email, app.test_client())
    path = invitation_path(newcomer.client, email)
    answer = newcomer.form(path, {"name": name, "password": PASSWORD}, page=path)
    assert answer.status_code == 303, answer.get_data(as_text=True)
    assert answer.headers["Location"].endswith("/dukkan")
    return newcomer
