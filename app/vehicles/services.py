"""Reading decoded vehicles, the user's decode history, reports of unrecognised VINs, what a decode answer means to
the dealer, and how a vehicle reached by a candidate pick was chosen."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from flask_babel import gettext as _

from app.accounts.models import User
from app.core.errors import ApiError
from app.extensions import db
from app.vehicles import picks
from app.vehicles.answers import DecodeAnswer, candidate_view, normalize_vin, vehicle_view
from app.vehicles.models import UserVehicle, Vehicle, VinRequest

HISTORY_PAGE_SIZE = 20


def answer_error(answer: DecodeAnswer) -> ApiError | None:
    """The refusal a decode answer stands for, or None for a vehicle or candidate list."""
    if answer.kind == "no_catalog":
        message = _(
            "This VIN belongs to a %(vehicle)s. There is no catalog for this vehicle yet; your request has been saved.",
            vehicle=answer.identified,
        )
        return ApiError("identified_no_catalog", message, 422)
    if answer.kind == "brand_unsupported":
        message = _("This VIN belongs to a %(vehicle)s; this brand is not supported yet.", vehicle=answer.identified)
        return ApiError("brand_unsupported", message, 422)
    if answer.kind == "unknown":
        return ApiError(
            "vin_not_recognised", _("This VIN was not recognised, or its brand is not supported. Check the VIN."), 422
        )
    if answer.kind == "aborted":
        return ApiError("decode_timeout", _("The catalog sources did not answer in time. Please try again."), 504)
    return _unavailable_error(answer)


# Seconds a client is told to wait before trying again (Retry-After), by answer kind.
RETRY_AFTER_SECONDS = {"busy": 5, "store_down": 15, "unavailable": 30}


def _unavailable_error(answer: DecodeAnswer) -> ApiError | None:
    """A decode that could not run now: every source failed (the request is saved, the make named when the WMI table
    knows it), no decode slot was free, or Redis is down."""
    kind = answer.kind
    if kind == "unavailable":
        message = _sources_unavailable_message(answer.identified)
        return ApiError("sources_unavailable", message, 503, RETRY_AFTER_SECONDS[kind])
    if kind == "busy":
        message = _("Too many VIN searches are running right now. Please try again in a few seconds.")
        return ApiError("decode_busy", message, 503, RETRY_AFTER_SECONDS[kind])
    if kind == "store_down":
        message = _("New VINs cannot be searched right now. Please try again shortly; stored vehicles still open.")
        return ApiError("decode_unavailable", message, 503, RETRY_AFTER_SECONDS[kind])
    return None


def _sources_unavailable_message(make: str | None) -> str:
    if make:
        return _(
            "This VIN belongs to a %(make)s vehicle. The vehicle catalogs cannot be reached right now; your request "
            "has been saved. Please try again in a few minutes.",
            make=make,
        )
    return _(
        "The vehicle catalogs cannot be reached right now; your request has been saved. Please try again in a few "
        "minutes."
    )


def answer_payload(answer: DecodeAnswer) -> dict[str, Any]:
    if answer.kind == "candidates":
        return {
            "result": "candidates",
            "source": answer.source,
            "candidates": [candidate_view(car, index, answer.chosen) for index, car in enumerate(answer.cars)],
        }
    return {"result": "vehicle", "vehicle": answer.vehicle}


# Built once: Session.get builds its statement on every call, a quarter of a cached vehicle read's cost.
_VEHICLE_BY_ID = sa.select(Vehicle).where(Vehicle.id == sa.bindparam("vehicle_id"))


def get_vehicle(vehicle_id: int) -> Vehicle:
    if (Vehicle, (vehicle_id,), None) in db.session.identity_map:  # read before in this request: no SQL
        vehicle = db.session.get(Vehicle, vehicle_id)
    else:
        vehicle = db.session.scalar(_VEHICLE_BY_ID, {"vehicle_id": vehicle_id})
    if vehicle is None:
        raise ApiError("vehicle_not_found", _("No vehicle with this id was found."), 404)
    return vehicle


def candidate_vin(vehicle_id: int) -> str:
    """The VIN of a vehicle reached by a candidate pick, whose candidates can be chosen from again ("not this
    vehicle"); a VIN's confirmed vehicle has none to choose from."""
    vehicle = get_vehicle(vehicle_id)
    if vehicle.confirmed:
        message = _("This vehicle was identified from its VIN for certain; there are no other vehicles to choose from.")
        raise ApiError("vehicle_confirmed", message, 409)
    return vehicle.vin


def candidate_choice(user: User, vehicle: Vehicle) -> dict[str, Any] | None:
    """For the page of a vehicle reached by a candidate pick: whether it is the shop's own pick, and what told the
    candidate apart; None for a VIN's confirmed vehicle."""
    if vehicle.confirmed or not vehicle.vin:  # a VIN's own car, or a car reached by browsing
        return None
    own = picks.own_pick(user.shop_id, vehicle.vin)
    raw = vehicle.raw_data or {}
    return {
        "yours": own is not None and own.id == vehicle.id,
        "parameters": raw.get("parameters") or {},
        "criteria": raw.get("criteria"),
    }


def history(user: User, page: int = 1) -> tuple[list[dict[str, Any]], bool]:
    """The user's shop's decoded vehicles (any member's), last decoded first, one page at a time; and whether more
    pages follow."""
    rows = db.session.execute(
        sa.select(Vehicle, UserVehicle.last_decoded_at)
        .join(UserVehicle, UserVehicle.vehicle_id == Vehicle.id)
        .where(UserVehicle.shop_id == user.shop_id)
        .order_by(UserVehicle.last_decoded_at.desc(), Vehicle.id.desc())
        .offset((page - 1) * HISTORY_PAGE_SIZE)
        .limit(HISTORY_PAGE_SIZE + 1)
    ).all()
    items = [{**vehicle_view(vehicle), "lastDecodedAt": at.isoformat()} for vehicle, at in rows[:HISTORY_PAGE_SIZE]]
    return items, len(rows) > HISTORY_PAGE_SIZE


def forget(user: User, vehicle_id: int) -> None:
    """Remove a vehicle from the shop's history (the shared vehicle stays for everyone else)."""
    link = db.session.get(UserVehicle, (user.shop_id, vehicle_id))
    if link is None:
        raise ApiError("vehicle_not_found", _("This vehicle is not in your history."), 404)
    db.session.delete(link)  # decoding it again inserts the link anew, at the top


def report_vin(user: User, raw_vin: Any, note: str) -> VinRequest:
    """Save a user's report that a VIN was not recognised; reporting the same VIN again updates the note."""
    vin = normalize_vin(raw_vin)
    report = db.session.scalar(
        sa.select(VinRequest).where(VinRequest.user_id == user.id, VinRequest.vin == vin, VinRequest.kind == "report")
    )
    if report is None:
        report = VinRequest(user_id=user.id, vin=vin, kind="report")
        db.session.add(report)
    report.note = note or None
    db.session.flush()
    return report
