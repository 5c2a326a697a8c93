"""Opening a browsed car: it becomes a catalog vehicle, stored once for every dealer, whose page is the same vehicle
page a decoded VIN has (tree, drawing beside the parts, search); its tree is walked in the background on first open.

The catalog vehicle keys its tree by a VIN-less vehicle row (vin empty, candidate_key `browse:<source>:<catalog>:<id>`,
unique), so the vehicle page, the prefetch jobs and the search serve it unchanged; its categories also carry its
catalog_vehicle_id. Two dealers opening the same car at once get the same rows (inserts do nothing on conflict).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa
from flask import url_for

from app.accounts.models import User
from app.billing.access import ensure_brand_access
from app.browse import catapi_flow, scrape_flow
from app.browse.upstream import brand_named, checked_id, ensure_brand_named
from app.core.db import begin_writes, insert_for, utcnow
from app.extensions import db
from app.vehicles.models import CatalogVehicle, Vehicle
from app.vehicles.picks import to_history_top
from app.vehicles.signals import announce_stored


@dataclass(frozen=True)
class BrowsedCar:
    source: str
    catalog: str
    external_id: str
    brand_name: str
    model: str
    name: str
    year: int | None
    engine: str | None
    parameters: dict[str, str] = field(default_factory=dict)
    raw: dict[str, Any] = field(default_factory=dict)  # what the source's tree reader needs (app.catalog.providers)

    @property
    def key(self) -> str:
        return f"browse:{self.source}:{self.catalog}:{self.external_id}"[:300]


def open_catapi_car(user: User, catalog: str, car_id: str) -> dict[str, Any]:
    catalog, car_id = checked_id(catalog, "catalog"), checked_id(car_id, "car")
    stored = _guarded_stored(user, "catapi", catalog, car_id)
    if stored is not None:
        return _opened(user, stored)
    car = catapi_flow.guarded_car(user, catalog, car_id)
    catalog_id = car.catalog_id or catalog
    raw = {"carId": car.car_id, "catalogId": catalog_id, "criteria": car.criteria, "parameters": car.parameters}
    name = car.raw.get("name") or car.model
    return open_car(
        user,
        BrowsedCar(
            "catapi",
            catalog_id,
            car.car_id or car_id,
            car.brand,
            car.model,
            name,
            car.year,
            car.engine,
            car.parameters,
            raw,
        ),
    )  # fmt: skip


def open_scrape_vehicle(user: User, brand: str, code: str) -> dict[str, Any]:
    brand, code = checked_id(brand, "brand"), checked_id(code, "vehicle")
    stored = _guarded_stored(user, "scrape", brand, code)
    if stored is not None:
        return _opened(user, stored)
    found = scrape_flow.guarded_vehicle(user, brand, code)
    raw = {"catalog_code": found.catalog_code, "catalogId": brand, "parameters": found.parameters}
    return open_car(
        user,
        BrowsedCar(
            "scrape",
            brand,
            found.catalog_code,
            found.brand,
            found.model,
            found.name,
            found.year,
            found.engine,
            found.parameters,
            raw,
        ),
    )  # fmt: skip


def open_car(user: User, car: BrowsedCar) -> dict[str, Any]:
    """The car's catalog vehicle, stored on first open (with its tree queued for the worker)."""
    stored = _stored(car.source, car.catalog, car.external_id)
    if stored is not None:
        return _opened(user, stored)
    return _opened(user, _store(car), durable=True)  # the new rows commit with the history link


def _guarded_stored(user: User, source: str, catalog: str, external_id: str) -> sa.Row | None:
    """A car opened before is served from storage, without asking its upstream again; the brand guard reads the brand
    its vehicle was stored with (the vehicle page's guard reads the same), or, for a make no plan sold then, looks its
    stored make up again."""
    stored = _stored(source, catalog, external_id)
    if stored is None:
        return None
    if stored.brand_id is None:
        ensure_brand_named(user, stored.brand_name)
    else:
        ensure_brand_access(user, stored.brand_id)
    return stored


def _opened(user: User, stored: sa.Row, durable: bool = False) -> dict[str, Any]:
    """The opened car goes to the top of the shop's history, where decoded VINs are (committed with the request)."""
    begin_writes(db.session, durable=durable)  # a history link alone is not durable, as a decode's
    to_history_top(user.shop_id, user.id, stored.vehicle_id, utcnow())
    return {
        "catalogVehicleId": stored.id,
        "vehicleId": stored.vehicle_id,
        "url": url_for("catalog_views.vehicle_page", vehicle_id=stored.vehicle_id),
    }


def _stored(source: str, catalog: str, external_id: str) -> sa.Row | None:
    """The stored car's id, vehicle, make and its vehicle's brand (plain values: they outlive the commits of the
    open), read on the request's connection: the ORM session's execute cost more Python than the query."""
    parameters = {"source": source, "catalog": catalog, "external_id": external_id}
    return db.session.connection().execute(STORED, parameters).first()


def _stored_query() -> sa.Select:
    car, vehicle = CatalogVehicle.__table__.c, Vehicle.__table__.c
    return (
        sa.select(car.id, car.vehicle_id, car.brand_name, vehicle.brand_id)
        .join_from(CatalogVehicle.__table__, Vehicle.__table__, vehicle.id == car.vehicle_id)
        .where(
            car.source == sa.bindparam("source"),
            car.catalog == sa.bindparam("catalog"),
            car.external_id == sa.bindparam("external_id"),
        )
    )


# Built once: every open of a stored car runs it.
STORED = _stored_query()


def _store(car: BrowsedCar) -> sa.Row:
    brand = brand_named(car.brand_name)
    begin_writes(db.session)
    inserted = db.session.execute(
        insert_for(db.session, Vehicle)
        .values(
            vin="",
            candidate_key=car.key,
            brand_id=brand.id if brand else None,
            brand_name=brand.name if brand else car.brand_name,
            model=car.model,
            year=car.year,
            engine=car.engine,
            source=car.source,
            raw_data=car.raw,
            created_at=utcnow(),
        )  # fmt: skip
        .on_conflict_do_nothing(index_elements=[Vehicle.vin, Vehicle.candidate_key])
        .returning(Vehicle.id)
    ).scalar()
    if inserted is not None:
        announce_stored(inserted)  # its tree is walked in the background once the open commits
    vehicle_id = db.session.scalar(sa.select(Vehicle.id).where(Vehicle.vin == "", Vehicle.candidate_key == car.key))
    db.session.execute(
        insert_for(db.session, CatalogVehicle)
        .values(
            source=car.source,
            catalog=car.catalog,
            external_id=car.external_id,
            brand_name=car.brand_name,
            model=car.model,
            name=car.name[:300],
            year=car.year,
            engine=car.engine,
            parameters=car.parameters,
            vehicle_id=vehicle_id,
            created_at=utcnow(),
        )  # fmt: skip
        .on_conflict_do_nothing(
            index_elements=[CatalogVehicle.source, CatalogVehicle.catalog, CatalogVehicle.external_id]
        )
    )
    return _stored(car.source, car.catalog, car.external_id)
