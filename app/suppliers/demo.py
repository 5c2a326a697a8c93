"""The demo distributors `make run` starts (app.sources.sandbox.distributor): a manager adds them to the shop in one
step, as suppliers whose lists are pulled from the sandbox's feeds like any supplier's, their columns already chosen."""

from __future__ import annotations

import sqlalchemy as sa
from flask import current_app

from app.accounts.models import User
from app.extensions import db
from app.sources.sandbox.distributor import DistributorConnection, demo_distributors, feed_columns
from app.sources.sandbox.distributor_data import BY_KEY
from app.suppliers import pulls, services
from app.suppliers.models import Supplier, SupplierMapping

# Each list field and the feed's column that holds it.
FEED_COLUMNS = {
    "own_code": "StokKodu",
    "brand": "Marka",
    "name": "UrunAdi",
    "oe": "OENo",
    "ean": "Barkod",
    "price": "Fiyat",
    "currency": "ParaBirimi",
    "stock": "Stok",
}
DELIVERY = {"anadolu": ("14:00'e kadar sipariş, 17:00 teslim", "14:00"), "ege": ("Ertesi gün teslim", "16:00")}
DEFAULT_DELIVERY = ("2 iş günü", "12:00")


def available() -> tuple[DistributorConnection, ...]:
    """The demo distributors of this run; none outside `make run` (no SANDBOX_DISTRIBUTOR_URL)."""
    return demo_distributors(current_app.config.get("SANDBOX_DISTRIBUTOR_URL", ""))


def add_demo_suppliers(member: User) -> int:
    """Add the demo distributors the member's shop does not have yet and queue their first pulls; how many added."""
    names = {name.casefold() for name in db.session.scalars(sa.select(Supplier.name).where(_of_shop(member)))}
    added = 0
    for connection in available():
        if connection.name.casefold() in names:
            continue
        supplier = services.create(member, _terms(connection))
        columns = feed_columns(BY_KEY[connection.key])
        mapping = {field: columns.index(column) for field, column in FEED_COLUMNS.items()} | {"oem": None}
        db.session.add(SupplierMapping(supplier_id=supplier.id, mapping=mapping, user_id=member.id))
        pulls.pull_now(supplier)
        added += 1
    return added


def _of_shop(member: User) -> sa.ColumnElement[bool]:
    return Supplier.shop_id == member.shop_id


def _terms(connection: DistributorConnection) -> dict[str, str]:
    promise, cutoff = DELIVERY.get(connection.key, DEFAULT_DELIVERY)
    secret = (
        {"authKind": "basic", "authUser": connection.username, "authSecret": connection.password}
        if connection.auth_kind == "basic"
        else {"authKind": "token", "authHeader": connection.api_key_header, "authSecret": connection.api_key}
    )
    return {
        "name": connection.name,
        "currency": connection.currency,
        "discountPercent": "10",
        "deliveryPromise": promise,
        "orderCutoff": cutoff,
        "source": "url",
        "url": connection.feed_url,
        **secret,
    }
