"""The SQL statements of the hot requests, pinned: the category page and its API twin, the search, the vehicle page,
where-used and a decode answered from the cache. Each is measured on a small and a larger catalog: the count must
not grow with the rows (an N+1 fails here), and it must stay the number pinned for the backend (a new query per
request is a choice to make here, in the open)."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import count

import pytest

from app import config as settings
from app.billing.models import Brand
from app.catalog import store
from app.catalog.providers import Node, PartLine
from app.extensions import db
from app.sources.sandbox.catalog import VIN_BMW
from app.vehicles.models import UserVehicle, Vehicle
from app.vehicles.race import IN_FLIGHT
from tests.conftest import csrf_token_from
from tests.support.queries import statements_of

SIZES = (2, 6)
SHARED_CODE = "1K0 129 620 D"
HX = {"HX-Request": "true"}
VINS = (f"WVWZZZQCNT{number:07d}" for number in count(1))


@dataclass(frozen=True)
class Built:
    vehicle_id: int
    leaf_id: int
    part_id: int


def catalog_of(brand: Brand, size: int) -> Built:
    """A vehicle of `size` root groups; the first holds `size` leaves, each with a filter, and its first leaf `size`
    parts, the first carrying SHARED_CODE."""
    vehicle = Vehicle(vin=next(VINS), brand_id=brand.id, brand_name=brand.name, model="Golf", source="portal")
    db.session.add(vehicle)
    db.session.flush()
    store.save_nodes(vehicle.id, "portal", None, [Node(f"{index}", f"Grup {index}") for index in range(size)])
    root = store.roots(vehicle.id)[0]
    leaves = [Node(f"0{index}", f"Filtreler {index} {{11{index}-010}}", is_leaf=True) for index in range(size)]
    store.save_nodes(vehicle.id, "portal", root.id, leaves)
    for leaf_index, leaf in enumerate(store.children(root.id)):
        lines = [PartLine(f"03L 115 {leaf_index:03d}", f"Yağ filtresi {leaf_index}", position="1")]
        if leaf_index == 0:
            lines = [PartLine(SHARED_CODE, "Hava filtresi", position="1")]
            lines += [
                PartLine(f"06A 905 {index:03d}", f"Bobin {index}", position=f"{index + 2}") for index in range(size)
            ]
        store.save_parts(vehicle.id, leaf.id, "portal", lines)
    db.session.commit()
    leaf = store.children(root.id)[0]
    return Built(vehicle.id, leaf.id, store.parts(leaf.id)[0].id)


def counts_by_size(app, client, path: str, headers: dict | None = None, brand: Brand | None = None) -> list[int]:
    """The statements of GET `path` (formatted with the Built) on a catalog of each size in SIZES (a fresh one, with
    as many other vehicles carrying the shared code), after the same request on another car of the brand (the
    dealer's plan coverage is kept beside the session from then on, as on every request after a dealer's first)."""
    counts = []
    for size in (1, 1, *SIZES):
        built = [catalog_of(brand, size) for _vehicle in range(size)][-1]
        url = path.format(vehicle=built.vehicle_id, leaf=built.leaf_id, part=built.part_id)
        response, statements = statements_of(app, lambda url=url: client.get(url, headers=headers or {}))
        assert response.status_code == 200, (url, response.get_data(as_text=True)[:300])
        counts.append(len(statements))
    return counts[2:]


@pytest.fixture
def brand(billing_catalog) -> Brand:
    return billing_catalog.brands[0]


# Statements per request, the same on SQLite and PostgreSQL, once the dealer's session and plan coverage are kept
# (app.auth.session_cache, app.billing.subscriptions.queries): the vehicle, then the rows the answer shows, each in one
# query whatever their number.
HOT_REQUESTS = {
    # The tree's leaves hold maybes (their rows state no applicability: "not known", issue 40), so the dealer's
    # answers are read once, as on any drawing with maybes, to move the leaves' counts; the main area skips them
    # when no row of its own hangs on a fact.
    "category page": ("/vehicles/{vehicle}/categories/{leaf}", None, 7),
    "category fragment": ("/vehicles/{vehicle}/categories/{leaf}", HX, 4),
    "category API": ("/api/vehicles/{vehicle}/categories/{leaf}", None, 4),
    "vehicle page": ("/vehicles/{vehicle}", None, 3),
    "vehicle API": ("/api/vehicles/{vehicle}", None, 1),
    "search page": ("/vehicles/{vehicle}?q=filtre", None, 6),
    "search fragment": ("/vehicles/{vehicle}?q=filtre", HX, 4),
    "search API": ("/api/categories/search/{vehicle}?q=filtre", None, 4),
    "where-used panel": ("/vehicles/{vehicle}/parts/{part}/where-used", HX, 5),
    "where-used API": ("/api/parts/1K0129620D/where-used", None, 3),
}


@pytest.mark.parametrize("name", list(HOT_REQUESTS))
def test_a_hot_request_sends_its_pinned_statements_whatever_the_catalog_size(app, client, dealer, brand, name):
    path, headers, pinned = HOT_REQUESTS[name]

    small, large = counts_by_size(app, client, path, headers, brand)

    assert small == large, f"{name}: {small} statements on the small catalog, {large} on the larger one"
    assert small == pinned, f"{name}: {small} statements"


# --- a decode answered from the cache ------------------------------------------------------------------------------

# The dealer's session and plan coverage are kept by the process after the warm-up decode: no statement for them.
DECODE_FROM_CACHE = 2
DECODE_PAGE_FROM_CACHE = 3


def _grow_history(dealer, brand: Brand, size: int) -> None:
    for _vehicle in range(size):
        built = catalog_of(brand, 1)
        db.session.add(UserVehicle(shop_id=dealer.shop_id, user_id=dealer.id, vehicle_id=built.vehicle_id))
    db.session.commit()


def test_a_decode_from_the_cache_sends_its_pinned_statements(app, client, dealer, brand, decode_vin, upstreams):
    assert decode_vin(VIN_BMW).status_code == 200  # decoded and cached
    IN_FLIGHT.wait_idle(timeout=10)  # the race's slower sources have answered too
    asked = upstreams.vin_calls()
    counts = []
    for size in SIZES:
        _grow_history(dealer, brand, size)
        decode_vin(VIN_BMW)  # the warm-up: the session kept again after the history's writes
        response, statements = statements_of(app, lambda: decode_vin(VIN_BMW))
        assert response.status_code == 200, response.get_json()
        counts.append(len(statements))

    assert counts[0] == counts[1], counts
    assert counts[0] == DECODE_FROM_CACHE, counts
    assert upstreams.vin_calls() == asked  # answered from the cache: no upstream asked again


def test_the_search_page_decode_from_the_cache_sends_its_pinned_statements(
    app, client, dealer, brand, decode_vin, upstreams
):
    assert decode_vin(VIN_BMW).status_code == 200
    token = csrf_token_from(client.get("/vin").get_data(as_text=True))
    counts = []
    for size in SIZES:
        _grow_history(dealer, brand, size)
        client.post("/vin/decode", data={"vin": VIN_BMW, "csrf_token": token})  # the warm-up, as above
        response, statements = statements_of(
            app, lambda: client.post("/vin/decode", data={"vin": VIN_BMW, "csrf_token": token})
        )
        assert response.status_code == 303, response.get_data(as_text=True)[:300]  # to the vehicle, decoded here
        counts.append(len(statements))

    assert counts[0] == counts[1], counts
    assert counts[0] == DECODE_PAGE_FROM_CACHE, counts


def test_postgresql_connections_run_without_jit(app):
    """The catalog's recursive reads are estimated past jit_above_cost on a fleet, and compiling them cost 30-50 ms of
    a 1 ms query: the app's PostgreSQL connections run without JIT (app.config.POSTGRESQL_OPTIONS)."""
    if db.engine.dialect.name != "postgresql":
        pytest.skip("a PostgreSQL setting")
    assert db.session.connection().exec_driver_sql("SHOW jit").scalar() == "off"


@pytest.mark.parametrize(
    ("url", "connect_args"),
    [("sqlite:///x.sqlite3", None), ("postgresql+psycopg2://h/db", {"options": settings.POSTGRESQL_OPTIONS})],
)
def test_only_postgresql_engines_get_the_connection_options(url, connect_args):
    options = settings.engine_options(url, {"json_deserializer": len})
    assert options.get("connect_args") == connect_args
    assert options["json_deserializer"] is len
