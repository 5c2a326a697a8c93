"""Eight dealers with their distributors at once, on the product as `make run` serves it: each adds a supplier,
imports its price list (the worker runs the eight imports), looks a number up and sees his own supplier's offer only,
puts the offer on a quote from three tabs at once, and orders it from two tabs: the order holds each line once and
its mail is queued once. Nothing may answer 5xx. Runs on the embedded default (SQLite + embedded store under
gunicorn) and, with TEST_DATABASE_URL, on PostgreSQL.
"""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.core.test_counter_contention import DEALERS, IMPORT_WAIT_SECONDS, MULTIPART, CounterDealer
from tests.shelf.conftest import csv_bytes, multipart

pytestmark = pytest.mark.no_isolation

TABS = 3
NUMBER = "1K0 125 742 C"  # the sandbox Golf's oil filter
HEADER = ["Ürün Kodu", "Marka", "Ürün Adı", "Fiyat", "Stok", "OE Numaraları"]


class SupplierDealer(CounterDealer):
    supplier_id: int
    offer_line: int
    lookup: dict
    order: dict
    mailed: list[bool]
    list_path: str

    def add_supplier(self, number: int) -> None:
        body = {"name": f"Tedarikçi {number}", "orderEmail": f"siparis-{number}@example.com", "orderCutoff": "14:00"}
        self.supplier_id = self.expect((201,), "POST", "/api/suppliers", json=body).json()["id"]
        rows = [HEADER, *([f"SUP-{number}-{n}", "Bosch", "Filtre", f"{100 + number},50", "3", ""] for n in range(4))]
        rows[1][5] = f"VW {NUMBER}"
        imports = f"/api/suppliers/{self.supplier_id}/imports"
        headers = {"Content-Type": MULTIPART}
        preview = self.expect((201,), "POST", imports, data=multipart(csv_bytes(rows), "liste.csv"), headers=headers)
        import_id = preview.json()["id"]
        self.expect((202,), "PUT", f"{imports}/{import_id}/mapping", json=preview.json()["suggestedMapping"])
        self.list_path = f"{imports}/{import_id}"

    def imported(self) -> str:
        """The import's final status, waited for while the worker runs the eight."""
        deadline = time.monotonic() + 2 * IMPORT_WAIT_SECONDS
        while (status := self.expect((200,), "GET", self.list_path).json()["status"]) not in ("done", "failed"):
            if time.monotonic() > deadline:
                return status
            time.sleep(0.5)
        return status

    def quote_and_order(self) -> None:
        self.lookup = self.expect((200,), "GET", f"/api/parts/{NUMBER}/lookup").json()
        self.offer_line = self.lookup["offers"]["byNumber"]["1k0125742c"][0]["lineId"]
        quote_id = self.expect((201,), "POST", "/api/quotes", json={"vehicleId": self.vehicle_id}).json()["id"]
        with ThreadPoolExecutor(max_workers=TABS) as tabs:
            for done in [tabs.submit(self.add_offer, quote_id) for _ in range(TABS)]:
                done.result()
        lines = [line["id"] for line in self.expect((200,), "GET", f"/api/quotes/{quote_id}").json()["lines"]]
        body = {"supplierId": self.supplier_id, "quoteLineIds": lines}
        with ThreadPoolExecutor(max_workers=2) as tabs:
            added = [tabs.submit(self.expect, (200, 201), "POST", "/api/orders", json=body) for _ in range(2)]
            self.order = [done.result().json() for done in added][0]["order"]
        send = f"/api/orders/{self.order['id']}/send"
        with ThreadPoolExecutor(max_workers=2) as tabs:
            sent = [tabs.submit(self.expect, (200, 409), "POST", send) for _ in range(2)]
            self.mailed = [done.result().json().get("mailed") is True for done in sent]
        self.order = self.expect((200,), "GET", f"/api/orders/{self.order['id']}").json()

    def add_offer(self, quote_id: int) -> None:
        self.expect((201,), "POST", f"/api/quotes/{quote_id}/lines", json={"offer": self.offer_line})

    def routine(self, number: int) -> None:
        self.open_shop(number)
        self.add_supplier(number)


def test_eight_dealers_with_their_suppliers_see_their_own_offers_and_order_each_line_once(tmp_path):
    from tests.support.product import running_product

    settings = {"SIGN_IN_RATE_LIMIT": "1000 per minute", "RATELIMIT_DEFAULT": "10000 per minute"}
    with running_product(tmp_path, **settings) as product:
        dealers = [SupplierDealer(product.url) for _ in range(DEALERS)]
        with ThreadPoolExecutor(max_workers=DEALERS) as pool:
            for done in [pool.submit(dealer.routine, number) for number, dealer in enumerate(dealers)]:
                done.result()
        assert [dealer.imported() for dealer in dealers] == ["done"] * DEALERS
        with ThreadPoolExecutor(max_workers=DEALERS) as pool:
            for done in [pool.submit(dealer.quote_and_order) for dealer in dealers]:
                done.result()
        foreign = dealers[0].send("GET", f"/api/orders/{dealers[1].order['id']}").status_code

    errors = [error for dealer in dealers for error in dealer.server_errors]
    assert errors == [], "\n".join(errors[:10])
    for number, dealer in enumerate(dealers):
        offers = dealer.lookup["offers"]["byNumber"]["1k0125742c"]
        assert [(offer["supplierName"], offer["ownCode"]) for offer in offers] == [
            (f"Tedarikçi {number}", f"SUP-{number}-0")
        ]
        assert len(dealer.order["lines"]) == TABS  # each tab's line once, whatever the double click
        assert dealer.order["status"] == "sent" and dealer.mailed.count(True) == 1
    assert foreign == 404
