"""Each shop's own choice among a VIN's candidates (issue 15, per shop since issue 41): what names a candidate, the
shop's current pick, and replacing it together with the shop's history (each recording the member who did it).

The vehicle a pick points at is shared (stored once per VIN and candidate, with its catalog tree); only the choice
is the shop's. A VIN's confirmed vehicle (a source answered with exactly one car) needs no pick and beats them all.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

import sqlalchemy as sa

from app.core.db import insert_for, utcnow
from app.extensions import db
from app.vehicles.models import UserVehicle, Vehicle, VehiclePick


def candidate_key(source: str, car_id: str | None, index: int) -> str:
    """A candidate's name among its VIN's: its source and its id there, else its place in the source's list."""
    return f"{source}:{car_id or f'#{index}'}"


def key_of(car: dict[str, Any], index: int) -> str:
    """The key of a candidate as a decode answer carries it (a `Car` as a dict)."""
    return candidate_key(car["source"], car.get("car_id"), index)


def own_pick(shop_id: uuid.UUID, vin: str) -> Vehicle | None:
    """The vehicle the shop chose for `vin`, if one of its members chose one."""
    return db.session.scalar(
        sa.select(Vehicle)
        .join(VehiclePick, VehiclePick.vehicle_id == Vehicle.id)
        .where(VehiclePick.shop_id == shop_id, VehiclePick.vin == vin)
    )


def own_key(shop_id: uuid.UUID, vin: str) -> str | None:
    """The candidate key of the shop's choice for `vin` (None when it has chosen none)."""
    vehicle = own_pick(shop_id, vin)
    return vehicle.candidate_key if vehicle is not None else None


def replace(shop_id: uuid.UUID, user_id: uuid.UUID, vin: str, vehicle_id: int) -> None:
    """Make `vehicle_id` the shop's pick for `vin` (chosen by member `user_id`), and let its history follow: the
    candidate chosen before leaves it and the new one goes to its top. Part of the caller's transaction; choosing the
    same car again only moves it up.

    The pick's upsert comes first: it locks the shop's row for this VIN, so two picks at once apply one after the
    other and the history ends with the pick that stays.
    """
    now = utcnow()
    pick = insert_for(db.session, VehiclePick).values(
        shop_id=shop_id, user_id=user_id, vin=vin, vehicle_id=vehicle_id, picked_at=now
    )
    db.session.execute(
        pick.on_conflict_do_update(
            index_elements=[VehiclePick.shop_id, VehiclePick.vin],
            set_={
                "vehicle_id": pick.excluded.vehicle_id,
                "user_id": pick.excluded.user_id,
                "picked_at": pick.excluded.picked_at,
            },
        )
    )
    other_candidates = sa.select(Vehicle.id).where(
        Vehicle.vin == vin, Vehicle.candidate_key != "", Vehicle.id != vehicle_id
    )
    db.session.execute(
        sa.delete(UserVehicle)
        .where(UserVehicle.shop_id == shop_id, UserVehicle.vehicle_id.in_(other_candidates))
        .execution_options(synchronize_session=False)
    )
    to_history_top(shop_id, user_id, vehicle_id, now)


def to_history_top(shop_id: uuid.UUID, user_id: uuid.UUID, vehicle_id: int, now: datetime) -> None:
    """Put the vehicle at the top of the shop's history (added when it is not there), member `user_id` its last
    decoder. Part of the caller's transaction."""
    dialect = db.session.get_bind().dialect.name
    if dialect not in _HISTORY_TOP:  # built once: an upsert's construction costs more than its run
        link = insert_for(db.session, UserVehicle).values(
            shop_id=sa.bindparam("shop_id"),
            user_id=sa.bindparam("user_id"),
            vehicle_id=sa.bindparam("vehicle_id"),
            last_decoded_at=sa.bindparam("now"),
        )
        _HISTORY_TOP[dialect] = link.on_conflict_do_update(
            index_elements=[UserVehicle.shop_id, UserVehicle.vehicle_id],
            set_={"user_id": link.excluded.user_id, "last_decoded_at": link.excluded.last_decoded_at},
        )
    # A plain write on the request's connection: the ORM session's bulk-insert path cost more Python than the upsert.
    parameters = {"shop_id": shop_id, "user_id": user_id, "vehicle_id": vehicle_id, "now": now}
    db.session.connection().execute(_HISTORY_TOP[dialect], parameters)


_HISTORY_TOP: dict[str, Any] = {}
