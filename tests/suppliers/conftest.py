"""Suppliers fixtures: a signed-in manager's shop, supplier lists in each format, the list served over HTTP by a
local server, and the jobs run by a real RQ worker."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
import sqlalchemy as sa

from app.extensions import db
from app.suppliers.models import SupplierLine, SupplierNumber
from tests.conftest import SITE
from tests.shelf.conftest import MULTIPART, multipart, run_worker
from tests.support.route_walk import shop_members, without_rate_limits

HEADER = ["Ürün Kodu", "Marka", "Ürün Adı", "Fiyat", "Döviz", "Stok", "OE Numaraları", "Barkod"]
ROWS = [
    [
        "BSB-1001",
        "Bosch",
        "Hava filtresi",
        "1.250,50",
        "TL",
        "Var",
        "VW 1K0-129-620D / 1K0129620D, AUDI 8P0 129 620",
        "",
    ],
    ["BSB-1002", "Mann", "Yağ filtresi", "245,00", "EUR", "12", "06A 115 561 B", "4009026000000"],
    ["BSB-1003", "SKF", "Rulman", "99", "TL", "Yok", "", ""],
]
XML_FEED = """<?xml version="1.0" encoding="UTF-8"?>
<fiyatlar>
  <urun><kod>XML-1</kod><marka>Valeo</marka><ad>Debriyaj seti</ad><fiyat>3.400,00</fiyat><stok>5</stok>
    <oe>VW 02A 141 165 M</oe></urun>
  <urun><kod>XML-2</kod><marka>Valeo</marka><ad>Baskı</ad><fiyat>1.200,00</fiyat><stok>Yok</stok><oe></oe></urun>
</fiyatlar>
"""


def supplier_body(**overrides) -> dict:
    body = {
        "name": "Başbuğ Otomotiv",
        "currency": "TRY",
        "discountPercent": "12,5",
        "deliveryPromise": "14:00'e kadar sipariş, 17:00 teslim",
        "orderCutoff": "14:00",
        "orderEmail": "siparis@basbug.example",
    }
    return {**body, **overrides}


def create_supplier(client, **overrides) -> dict:
    response = client.post("/api/suppliers", json=supplier_body(**overrides), headers=SITE)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def upload(client, supplier_id: int, data: bytes, filename: str = "liste.csv"):
    return client.post(
        f"/api/suppliers/{supplier_id}/imports", data=multipart(data, filename), content_type=MULTIPART, headers=SITE
    )


def start(client, supplier_id: int, import_id: int, mapping: dict):
    return client.put(f"/api/suppliers/{supplier_id}/imports/{import_id}/mapping", json=mapping, headers=SITE)


def import_list(client, supplier_id: int, data: bytes, filename: str = "liste.csv", mapping: dict | None = None):
    """Upload, confirm the suggested mapping (or the one given), let the worker import; the import's final state."""
    preview = upload(client, supplier_id, data, filename)
    assert preview.status_code == 201, preview.get_json()
    body = preview.get_json()
    started = start(client, supplier_id, body["id"], mapping if mapping is not None else body["suggestedMapping"])
    assert started.status_code == 202, started.get_json()
    run_worker()
    return client.get(f"/api/suppliers/{supplier_id}/imports/{body['id']}").get_json()


def lines_of(import_id: int) -> list[SupplierLine]:
    db.session.expire_all()
    query = sa.select(SupplierLine).where(SupplierLine.import_id == import_id).order_by(SupplierLine.line)
    return list(db.session.scalars(query))


def numbers_of(import_id: int) -> set[tuple[str, str]]:
    query = sa.select(SupplierNumber.kind, SupplierNumber.key).where(SupplierNumber.import_id == import_id)
    return {tuple(row) for row in db.session.execute(query)}


@pytest.fixture
def shop(app, monkeypatch):
    """An owner, a manager and a clerk of one shop, signed in, with no rate limit."""
    without_rate_limits(monkeypatch)
    return shop_members(app, "ted")


@pytest.fixture
def manager(shop):
    return shop["manager"].client


@dataclass
class Feed:
    """What the local distributor serves at /liste, and the requests it saw."""

    body: bytes = b""
    status: int = 200
    content_type: str = "text/csv"
    seen: list[dict] = field(default_factory=list)


@pytest.fixture
def feed() -> Iterator[tuple[Feed, str]]:
    """A distributor on 127.0.0.1 serving one list; its base URL."""
    served = Feed()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            served.seen.append(dict(self.headers))
            self.send_response(served.status)
            self.send_header("Content-Type", served.content_type)
            self.send_header("Content-Length", str(len(served.body)))
            self.end_headers()
            self.wfile.write(served.body)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield served, f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)
