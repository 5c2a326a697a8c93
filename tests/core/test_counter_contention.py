"""Eight dealers at the counter at once, on the product as `make run` serves it: each decodes the Golf, answers a fit
question and changes the answer, imports a shelf list (the worker runs the eight imports), and writes a quote whose
lines arrive from three tabs at once. Nothing may answer 5xx, no line or row may be lost, and each dealer sees only
his own answers, list and quote (another dealer's ids answer 404).
Runs on the embedded default (SQLite + embedded store under gunicorn) and, with TEST_DATABASE_URL, on PostgreSQL.
"""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from decimal import Decimal

import pytest

from app.sources.sandbox.catalog import VIN_GOLF
from tests.core.test_contention import Dealer
from tests.shelf.conftest import csv_bytes, multipart

pytestmark = pytest.mark.no_isolation

DEALERS = 8
TABS = 3
LINES_PER_TAB = 4
IMPORT_WAIT_SECONDS = 120
MULTIPART = "multipart/form-data; boundary=raf-sinir"


class CounterDealer(Dealer):
    vehicle_id: int
    aircon: bool
    quote_id: int
    import_id: int

    def open_shop(self, number: int) -> None:
        body = {"name": f"Bayi {number}", "email": self.email, "password": "counter-horse-42"}
        self.expect((201,), "POST", "/api/auth/sign-up/email", json=body)
        self.expect((201,), "POST", "/api/subscriptions/trial", json={})
        decoded = self.expect((200,), "POST", "/api/vehicles/decode", json={"vin": VIN_GOLF}).json()
        self.vehicle_id = decoded["vehicle"]["id"]
        self.aircon = number % 2 == 0

    def answer_fit(self) -> None:
        """Answer, then change the answer: the dealer's own, whatever the seven others answer meanwhile."""
        path = f"/api/vehicles/{self.vehicle_id}/fit/answers/aircon"
        self.expect((200,), "PUT", path, json={"value": not self.aircon})
        self.expect((200,), "PUT", path, json={"value": self.aircon})

    def import_list(self, number: int) -> None:
        rows = [["OEM", "Fiyat", "Stok"], *([f"RAF-{number}-{n}", f"{10 + n},50", "2"] for n in range(5))]
        preview = self.expect(
            (201,),
            "POST",
            "/api/shelf/imports",
            data=multipart(csv_bytes(rows), "liste.csv"),
            headers={"Content-Type": MULTIPART},
        ).json()
        self.import_id = preview["id"]
        mapping = preview["suggestedMapping"]
        self.expect((202,), "PUT", f"/api/shelf/imports/{self.import_id}/mapping", json=mapping)

    def write_quote(self) -> None:
        quote = self.expect((201,), "POST", "/api/quotes", json={"vehicleId": self.vehicle_id, "customer": "Usta"})
        self.quote_id = quote.json()["id"]

        def tab(tab_number: int) -> None:
            for line in range(LINES_PER_TAB):
                body = {"kind": "free", "name": f"Kalem {tab_number}-{line}", "unitPrice": "100,25"}
                self.expect((200, 201), "POST", f"/api/quotes/{self.quote_id}/lines", json=body)

        with ThreadPoolExecutor(max_workers=TABS) as tabs:
            for done in [tabs.submit(tab, number) for number in range(TABS)]:
                done.result()

    def routine(self, number: int) -> None:
        self.open_shop(number)
        self.answer_fit()
        self.import_list(number)
        self.write_quote()

    def imported(self) -> dict:
        deadline = time.monotonic() + IMPORT_WAIT_SECONDS
        while True:
            state = self.expect((200,), "GET", f"/api/shelf/imports/{self.import_id}").json()
            if state["status"] in ("done", "failed") or time.monotonic() > deadline:
                return state
            time.sleep(0.5)


def test_eight_dealers_at_the_counter_lose_nothing_and_see_only_their_own(tmp_path):
    from tests.support.product import running_product

    settings = {"SIGN_IN_RATE_LIMIT": "1000 per minute", "RATELIMIT_DEFAULT": "10000 per minute"}
    with running_product(tmp_path, **settings) as product:
        dealers = [CounterDealer(product.url) for _ in range(DEALERS)]
        with ThreadPoolExecutor(max_workers=DEALERS) as pool:
            for done in [pool.submit(dealer.routine, number) for number, dealer in enumerate(dealers)]:
                done.result()
        imports = [dealer.imported() for dealer in dealers]
        answers = [dealer.expect((200,), "GET", f"/api/vehicles/{dealer.vehicle_id}/fit").json() for dealer in dealers]
        quotes = [dealer.expect((200,), "GET", f"/api/quotes/{dealer.quote_id}").json() for dealer in dealers]
        listed = [dealer.expect((200,), "GET", "/api/quotes").json()["quotes"] for dealer in dealers]
        first, second = dealers[0], dealers[1]
        foreign = [
            first.send("GET", f"/api/quotes/{second.quote_id}").status_code,
            first.send("GET", f"/api/shelf/imports/{second.import_id}").status_code,
        ]

    errors = [error for dealer in dealers for error in dealer.server_errors]
    assert errors == [], "\n".join(errors[:10])
    assert [state["status"] for state in imports] == ["done"] * DEALERS, [state.get("message") for state in imports]
    assert [state["rowsImported"] for state in imports] == [5] * DEALERS
    assert len({dealer.vehicle_id for dealer in dealers}) == 1  # one stored Golf for the shop
    for dealer, fit in zip(dealers, answers, strict=True):
        own = {answer["fact"]: answer["value"] for answer in fit["answers"]}
        assert own == {"aircon": dealer.aircon}  # his last answer, not a colleague's
    lines = TABS * LINES_PER_TAB
    for quote in quotes:
        assert len(quote["lines"]) == lines  # no line lost to the tabs writing at once
        assert Decimal(quote["totals"]["net"]) == Decimal("100.25") * lines
    assert [[item["id"] for item in items] for items in listed] == [[dealer.quote_id] for dealer in dealers]
    assert foreign == [404, 404]
