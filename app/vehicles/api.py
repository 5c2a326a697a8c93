"""VIN decode and decoded vehicles under /api/vehicles."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, request
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_login import current_user

from app.core.errors import ApiError
from app.core.validation import json_body, text_field
from app.vehicles import services
from app.vehicles.decode import Pick, decode, vehicle_view

bp = Blueprint("vehicles_api", __name__, url_prefix="/api/vehicles")

NOTE = _l("Note")


@bp.post("/decode")
def decode_route():
    data = json_body()
    answer = decode(current_user, data.get("vin"), read_pick(data))
    error = services.answer_error(answer)
    if error is not None:
        raise error
    return jsonify(services.answer_payload(answer))


def read_pick(data: dict[str, Any]) -> Pick:
    car_id, index = data.get("catapiCarId"), data.get("scrapeCarIndex")
    if car_id is not None and index is not None:
        raise ApiError("invalid_candidate", _("Choose either a catalog car or a web catalog candidate, not both."))
    if car_id is not None and not (isinstance(car_id, str | int) and not isinstance(car_id, bool) and str(car_id)):
        raise ApiError("invalid_candidate", _("catapiCarId must be a candidate's id."))
    if index is not None and not (isinstance(index, int) and not isinstance(index, bool) and index >= 0):
        raise ApiError("invalid_candidate", _("scrapeCarIndex must be a candidate's number (0 or more)."))
    return Pick(catapi_car_id=None if car_id is None else str(car_id), scrape_car_index=index)


@bp.get("/<int:vehicle_id>")
def vehicle(vehicle_id: int):
    return jsonify(vehicle_view(services.get_vehicle(vehicle_id)))


@bp.get("/history")
def history():
    page = request.args.get("page", 1, type=int)
    items, more = services.history(current_user, max(page or 1, 1))
    return jsonify(items=items, page=page, hasMore=more)


@bp.delete("/history/<int:vehicle_id>")
def forget(vehicle_id: int):
    services.forget(current_user, vehicle_id)
    return jsonify(status=True)


@bp.post("/report")
def report():
    data = json_body()
    note = text_field(data, "note", NOTE, max_length=1000, required=False)
    saved = services.report_vin(current_user, data.get("vin"), note)
    return jsonify(status=True, vin=saved.vin), 201
