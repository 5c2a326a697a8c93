"""Orders fixtures: a shop's owner, manager and clerk signed in, its suppliers made through the API, quotes made
through the API whose lines carry a chosen supplier offer (written as the offer route would), and a mail catcher."""

from __future__ import annotations

from decimal import Decimal

import pytest

from app.extensions import db
from app.quotes.models import QuoteLine
from tests.conftest import SITE
from tests.notifications.conftest import smtp  # noqa: F401 - fixture used here
from tests.suppliers.conftest import create_supplier
from tests.support.route_walk import shop_members, without_rate_limits


@pytest.fixture
def shop(app, monkeypatch):
    """An owner, a manager and a clerk of one shop, signed in, with no rate limit."""
    without_rate_limits(monkeypatch)
    return shop_members(app, "sip")


@pytest.fixture
def other_shop(app, shop):
    return shop_members(app, "baska")


@pytest.fixture
def manager(shop):
    return shop["manager"].client


def supplier(client, name: str, email: str | None = "siparis@basbug.example") -> int:
    return create_supplier(client, name=name, orderEmail=email)["id"]


def offer_lines(client, supplier_id: int, *lines: dict) -> list[int]:
    """A quote made through the API, with a line per `lines` carrying the supplier's offer; their ids."""
    response = client.post("/api/quotes", json={"customer": "Ahmet Usta"}, headers=SITE)
    assert response.status_code == 201, response.get_json()
    quote_id = response.get_json()["id"]
    rows = []
    for number, values in enumerate(lines):
        row = QuoteLine(
            quote_id=quote_id,
            kind="part",
            sort_order=number,
            supplier_id=supplier_id,
            supplier_name="as chosen",
            supplier_line_id=1000 + number,
            **{"name": "Hava filtresi", "quantity": Decimal(1), **values},
        )
        db.session.add(row)
        rows.append(row)
    db.session.commit()
    return [row.id for row in rows]


FILTER = {
    "name": "Hava filtresi",
    "oem_code": "1K0 129 620 D",
    "offer_code": "BSB-1001",
    "offer_brand": "Bosch",
    "quantity": Decimal(2),
    "unit_cost": Decimal("1094.19"),
    "unit_price": Decimal("1500.00"),
}
OIL = {
    "name": "Yağ filtresi",
    "oem_code": "06A 115 561 B",
    "offer_code": "BSB-1002",
    "offer_brand": "Mann",
    "quantity": Decimal(1),
    "unit_cost": Decimal("245.50"),
}


def add(client, supplier_id: int, line_ids: list[int]):
    return client.post("/api/orders", json={"supplierId": supplier_id, "quoteLineIds": line_ids}, headers=SITE)
