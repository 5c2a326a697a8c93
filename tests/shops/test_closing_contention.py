"""Eight owners close their shops at once, each from two tabs at the same moment, while a third tab keeps working at
the counter, on the product as `make run` serves it (and, with TEST_DATABASE_URL, on PostgreSQL). Nothing may answer
5xx; each shop closes once; each owner is signed out, signs in again to one empty shop of their own, and the other
owners' shops are untouched until their own owner closes them.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests

from app.sources.sandbox.catalog import VIN_GOLF
from tests.core.test_contention import Dealer

pytestmark = pytest.mark.no_isolation

OWNERS = 8
TABS = 2
PASSWORD = "counter-horse-42"
# A second tab's close of a shop its first tab closed a moment earlier: signed out, or the shop already gone.
SECOND_CLOSE = (200, 401, 404, 409)
COUNTER_WORK = (200, 201, 401, 404, 409)  # the counter tab: signed out once the shop closes, or its quote gone


class ClosingOwner(Dealer):
    shop_name: str
    branch_before: int
    quote_id: int
    counter_statuses: list[int]

    def tab(self) -> requests.Session:
        """Another tab of the same browser: the same session cookie, its own connection."""
        session = requests.Session()
        session.headers["Origin"] = self.base_url
        session.cookies.update(self.http.cookies)
        return session

    def open_shop(self, number: int) -> None:
        self.shop_name = f"Kapanan Oto {number}"
        body = {"name": self.shop_name, "email": self.email, "password": PASSWORD}
        self.expect((201,), "POST", "/api/auth/sign-up/email", json=body)  # the one-person shop takes the name
        self.branch_before = self.expect((200,), "GET", "/api/shop/branches").json()["currentBranchId"]
        self.expect((201,), "POST", "/api/subscriptions/trial", json={})
        vehicle = self.expect((200,), "POST", "/api/vehicles/decode", json={"vin": VIN_GOLF}).json()["vehicle"]
        quote = self.expect((201,), "POST", "/api/quotes", json={"vehicleId": vehicle["id"], "customer": "Usta"})
        self.quote_id = quote.json()["id"]

    def close_from_tabs(self) -> list[int]:
        """Both tabs press "delete the shop" together while the counter tab adds lines; the close statuses."""
        tabs = [self.tab() for _ in range(TABS)]
        counter = self.tab()
        start = threading.Barrier(TABS + 1)

        def close(tab: requests.Session) -> int:
            start.wait()
            return self._sent(tab, "DELETE", "/api/shop", json={"confirmation": self.shop_name}).status_code

        def keep_working() -> list[int]:
            start.wait()
            body = {"kind": "free", "name": "Kalem", "unitPrice": "10"}
            return [
                self._sent(counter, "POST", f"/api/quotes/{self.quote_id}/lines", json=body).status_code
                for _ in range(5)
            ]

        with ThreadPoolExecutor(max_workers=TABS + 1) as pool:
            closes = [pool.submit(close, tab) for tab in tabs]
            working = pool.submit(keep_working)
            statuses = [done.result() for done in closes]
            self.counter_statuses = working.result()
        return statuses

    def _sent(self, session: requests.Session, method: str, path: str, **kwargs) -> requests.Response:
        response = session.request(method, self.base_url + path, timeout=60, allow_redirects=False, **kwargs)
        if response.status_code >= 500:
            self.server_errors.append(f"{method} {path} -> {response.status_code}: {response.text[:300]}")
        return response

    def sign_in_again(self) -> dict:
        """What the owner finds once signed in again: their shop's branches, members and quotes."""
        self.http.cookies.clear()
        self.expect((200,), "POST", "/api/auth/sign-in/email", json={"email": self.email, "password": PASSWORD})
        return {
            "branches": self.expect((200,), "GET", "/api/shop/branches").json()["items"],
            "members": self.expect((200,), "GET", "/api/shop/members").json()["items"],
            "quotes": self.expect((200,), "GET", "/api/quotes").json()["quotes"],
        }


def test_eight_owners_closing_their_shops_from_two_tabs_each_at_once(tmp_path):
    from tests.support.product import running_product

    settings = {"SIGN_IN_RATE_LIMIT": "1000 per minute", "RATELIMIT_DEFAULT": "10000 per minute"}
    with running_product(tmp_path, **settings) as product:
        owners = [ClosingOwner(product.url) for _ in range(OWNERS)]
        with ThreadPoolExecutor(max_workers=OWNERS) as pool:
            for done in [pool.submit(owner.open_shop, number) for number, owner in enumerate(owners)]:
                done.result()
        with ThreadPoolExecutor(max_workers=OWNERS) as pool:
            closed = [done.result() for done in [pool.submit(owner.close_from_tabs) for owner in owners]]
        shops = [owner.sign_in_again() for owner in owners]
        quotes = [owner.send("GET", f"/api/quotes/{owner.quote_id}").status_code for owner in owners]

    errors = [error for owner in owners for error in owner.server_errors]
    assert errors == [], "\n".join(errors[:10])
    for statuses in closed:
        assert sorted(statuses)[0] == 200, statuses  # one tab closed the shop
        assert all(status in SECOND_CLOSE for status in statuses), statuses
    for owner in owners:
        assert all(status in COUNTER_WORK for status in owner.counter_statuses), owner.counter_statuses
    for shop, owner in zip(shops, owners, strict=True):  # one empty shop of their own, not the closed one
        assert [branch["id"] for branch in shop["branches"]] != [owner.branch_before]
        assert len(shop["branches"]) == 1
        assert [member["email"] for member in shop["members"]] == [owner.email]
        assert shop["quotes"] == []
    assert quotes == [404] * OWNERS  # the closed shop's quote went with it
