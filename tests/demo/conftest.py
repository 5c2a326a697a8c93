"""Demo fixtures: the catapi Golf with one branch of its tree stored, a small hand-made Turkish catalog, and a count
of every upstream sandbox's calls."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from app.catalog import services as catalog
from app.catalog import store
from app.catalog.models import Category
from app.catalog.providers import Node, PartLine, provider_for
from app.demo import seed
from app.extensions import db
from app.sources.sandbox.catalog import VIN_GOLF
from app.vehicles.models import Vehicle
from tests.billing.conftest import billing_catalog, make_subscription  # noqa: F401 - fixtures used here
from tests.vehicles.conftest import dealer, decode_vin  # noqa: F401 - fixtures used here


def upstream_calls(upstreams) -> tuple[int, int, int, int]:
    """Every request each sandbox has answered since the test began (catapi, portal, scrape, vPIC)."""
    return (
        len(upstreams.catapi.calls()),
        len(upstreams.portal.calls()),
        len(upstreams.scrape.calls()),
        upstreams.vpic.requests,
    )


@dataclass(frozen=True)
class StoredGolf:
    vehicle_id: int
    roots: list[int]
    branch: list[int]  # root to leaf, every level stored

    @property
    def leaf(self) -> int:
        return self.branch[-1]


@pytest.fixture
def golf(app, upstreams, billing_catalog, monkeypatch):  # noqa: F811
    """The catapi Golf stored as the demo vehicle (DEMO_VEHICLE_ID), with its roots and its first branch down to a
    leaf (parts, schema picture, hotspots) stored; the rest of the tree is not."""
    vehicle_id = seed.store_vehicle(VIN_GOLF)
    vehicle = db.session.get(Vehicle, vehicle_id)
    provider = provider_for(vehicle, app.config)
    assert catalog.fetch_roots(vehicle)
    db.session.commit()
    roots = store.roots(vehicle_id)
    node, branch = roots[0], [roots[0].id]
    while not node.is_leaf:
        node = catalog.load_children(vehicle, node, provider)[0]
        db.session.commit()
        branch.append(node.id)
    assert catalog.load_parts(node, provider)
    db.session.commit()
    monkeypatch.setitem(app.config, "DEMO_VEHICLE_ID", vehicle_id)
    return StoredGolf(vehicle_id, [root.id for root in roots], branch)


@dataclass(frozen=True)
class TurkishCatalog:
    vehicle_id: int
    root: int
    leaf: int


@pytest.fixture
def turkish_catalog(app, monkeypatch):
    """A small stored catalog with Turkish names, as the portal gives them, set as the demo vehicle."""
    vehicle = Vehicle(
        vin="NM0DEMO0000000001", brand_name="Ford", model="Focus", year=2019, engine="1.5 TDCi", source="portal"
    )
    db.session.add(vehicle)
    db.session.flush()
    store.save_nodes(vehicle.id, "portal", None, [Node("1", "Motor"), Node("2", "Yakıt sistemi")])
    root = store.roots(vehicle.id)[0]
    store.save_nodes(
        vehicle.id, "portal", root.id, [Node("11", "FİLTRELER {111-010}", is_leaf=True, illustration_code="111-010")]
    )
    leaf = store.children(root.id)[0]
    store.save_parts(
        vehicle.id,
        leaf.id,
        "portal",
        [
            PartLine("03L 115 562", "YAĞ FİLTRESİ", position="1"),
            PartLine("1K0 127 400 K", "Yakıt filtresi", position="2"),
            PartLine("1K0 129 620 D", "Hava filtresi elemanı", position="3"),
            PartLine("06A 905 161 B", "Ateşleme bobini", position="4"),
        ],
    )
    db.session.commit()
    monkeypatch.setitem(app.config, "DEMO_VEHICLE_ID", vehicle.id)
    return TurkishCatalog(vehicle.id, root.id, leaf.id)


@pytest.fixture
def other_vehicles_category(app) -> int:
    """A category of another stored vehicle: what the demo's id guard must refuse."""
    other = Vehicle(vin="WBA8E9G50GNU00004", brand_name="BMW", model="3 Serisi", source="portal")
    db.session.add(other)
    db.session.flush()
    category = Category(vehicle_id=other.id, source="portal", external_id="1", name="Motor")
    db.session.add(category)
    db.session.commit()
    return category.id
