"""The bridge between a decoded VIN and a car reached by browsing: a vehicle whose tree is not stored yet takes a copy
of the stored tree of another vehicle row of the same car (the same source and the same upstream car: catapi's car
id, the web catalog's code), instead of fetching it from the upstream again.

A VIN decoded after a dealer browsed to its car opens with that car's stored catalog at once, and a browsed car that
a decoded VIN already stored does the same. Copied are the categories (with their drilled and fetched marks), the
part rows, the schema pictures (the same stored files) and their hotspots; whatever the other row had not stored
yet is fetched as usual, by the page or the prefetch walk. Each copied row's fit is judged again by the target's own
facts (a VIN tells more than a browsed listing), and its leaf's fit counts with it.
"""

from __future__ import annotations

import logging
from typing import Any

import sqlalchemy as sa

from app.catalog import store
from app.catalog.fit import services as fit
from app.catalog.fit.facts import VehicleFacts
from app.catalog.models import Category, Hotspot, Part, SchemaPicture
from app.core.db import begin_writes, insert_for
from app.extensions import db
from app.vehicles.models import Vehicle

log = logging.getLogger(__name__)

CAR_KEYS = {"catapi": "carId", "scrape": "catalog_code"}  # what names the upstream car in a vehicle's raw data
PART_BATCH = 1000


def copy_same_car_tree(vehicle: Vehicle) -> bool:
    """Copy the stored tree of another vehicle row of the same car into `vehicle` (which has none); whether it did."""
    source_id = _same_car_with_tree(vehicle)
    if source_id is None:
        return False
    begin_writes(db.session)
    parts, counts = _judged_parts(source_id, fit.vehicle_facts(vehicle))
    categories = _copy_categories(source_id, vehicle.id, store.catalog_vehicle_of(vehicle.id), counts)
    _copy_parts(parts, vehicle.id, categories)
    _copy_pictures(source_id, categories)
    log.info("vehicle %s: copied the stored tree of vehicle %s (%d categories)", vehicle.id, source_id, len(categories))
    return True


def _same_car_with_tree(vehicle: Vehicle) -> int | None:
    key = CAR_KEYS.get(vehicle.source)
    car = (vehicle.raw_data or {}).get(key) if key else None
    if not car:
        return None
    has_roots = sa.exists().where(Category.vehicle_id == Vehicle.id, Category.parent_id.is_(None))
    return db.session.scalar(
        sa.select(Vehicle.id)
        .where(
            Vehicle.id != vehicle.id,
            Vehicle.source == vehicle.source,
            Vehicle.raw_data[key].as_string() == str(car),
            has_roots,
        )
        .order_by(Vehicle.id)
        .limit(1)
    )


def _copy_categories(
    source_id: int, target_id: int, catalog_vehicle_id: int | None, fit_counts: dict[int, dict[str, int]]
) -> dict[int, int]:
    """Each stored category again under the target, parents before children, a fetched leaf with its `fit_counts`
    for the target; old id -> new id."""
    table = Category.__table__
    rows = db.session.execute(sa.select(table).where(table.c.vehicle_id == source_id).order_by(table.c.id)).all()
    by_id = {row.id: row for row in rows}
    copied: dict[int, int] = {}
    for row in sorted(rows, key=lambda item: (_depth(item, by_id), item.id)):
        values = _columns(row, table, skip={"id"})
        values.update(vehicle_id=target_id, catalog_vehicle_id=catalog_vehicle_id, parent_id=copied.get(row.parent_id))
        if row.is_leaf and row.parts_fetched_at is not None:
            values.update(fit_counts.get(row.id) or fit.leaf_counts(()))
        copied[row.id] = _inserted(table, values) or _stored_category(values)
    return copied


def _inserted(table: sa.Table, values: dict[str, Any]) -> int | None:
    """The new row's id; None when the row is there already (another request copying or fetching at once)."""
    statement = insert_for(db.session, table).values(values).on_conflict_do_nothing().returning(table.c.id)
    return db.session.execute(statement).scalar()


def _stored_category(values: dict[str, Any]) -> int:
    parent = values["parent_id"]
    return db.session.scalar(
        sa.select(Category.id).where(
            Category.vehicle_id == values["vehicle_id"],
            Category.parent_id.is_(None) if parent is None else Category.parent_id == parent,
            Category.external_id == values["external_id"],
        )
    )


def _judged_parts(source_id: int, facts: VehicleFacts) -> tuple[list[dict[str, Any]], dict[int, dict[str, int]]]:
    """The source's part rows, each with its fit judged again by the target's `facts`, and each leaf's fit counts
    (by the source's category id)."""
    table = Part.__table__
    rows = db.session.execute(sa.select(table).where(table.c.vehicle_id == source_id).order_by(table.c.id)).all()
    judge = fit.Judge(facts)
    parts = [{**_columns(row, table, skip={"id"}), **judge.stored(row.applicability)} for row in rows]
    statuses: dict[int, list[str]] = {}
    for part in parts:
        statuses.setdefault(part["category_id"], []).append(part["fit_status"])
    return parts, {category_id: fit.leaf_counts(found) for category_id, found in statuses.items()}


def _copy_parts(parts: list[dict[str, Any]], target_id: int, categories: dict[int, int]) -> None:
    table = Part.__table__
    copies = [
        {**part, "vehicle_id": target_id, "category_id": categories[part["category_id"]]}
        for part in parts
        if part["category_id"] in categories
    ]
    for start in range(0, len(copies), PART_BATCH):
        db.session.execute(insert_for(db.session, table).on_conflict_do_nothing(), copies[start : start + PART_BATCH])


def _copy_pictures(source_id: int, categories: dict[int, int]) -> None:
    pictures, spots = SchemaPicture.__table__, Hotspot.__table__
    rows = db.session.execute(
        sa.select(pictures).join(Category.__table__).where(Category.vehicle_id == source_id).order_by(pictures.c.id)
    ).all()
    for row in rows:
        values = {**_columns(row, pictures, skip={"id"}), "category_id": categories[row.category_id]}
        picture_id = _inserted(pictures, values)
        if picture_id is None:
            continue  # copied by another request meanwhile, with its hotspots
        hotspots = db.session.execute(sa.select(spots).where(spots.c.schema_picture_id == row.id)).all()
        if hotspots:
            db.session.execute(
                sa.insert(spots),
                [{**_columns(spot, spots, skip={"id"}), "schema_picture_id": picture_id} for spot in hotspots],
            )


def _columns(row: sa.Row, table: sa.Table, skip: set[str]) -> dict[str, Any]:
    return {column.name: getattr(row, column.name) for column in table.columns if column.name not in skip}


def _depth(row: sa.Row, by_id: dict[int, sa.Row]) -> int:
    depth = 0
    while row.parent_id is not None and row.parent_id in by_id:
        row, depth = by_id[row.parent_id], depth + 1
    return depth
