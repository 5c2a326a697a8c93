"""VIN decode and decoded vehicles under /api/vehicles."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify, request
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_login import current_user

from app.core import throttle
from app.core.errors import ApiError
from app.core.openapi import StatusTrue, documented
from app.core.validation import ID_MAX, int_arg, json_body, text_field
from app.extensions import limiter
from app.vehicles import answers, refusals, services
from app.vehicles.answers import Pick, vehicle_view
from app.vehicles.decode import decode
from app.vehicles.schemas import DecodeAnswer, DecodeBody, History, HistoryQuery, ReportBody, Reported, VehicleOut

bp = Blueprint("vehicles_api", __name__, url_prefix="/api/vehicles")

NOTE = _l("Note")

# One budget per user for every decode, here and on the VIN search page (app.vehicles.views uses it too).
# Its refusals are logged as refused decodes (one row per client and window: app.vehicles.refusals).
decode_throttle = limiter.shared_limit(
    throttle.setting("DECODE_RATE_LIMIT"),
    scope="vin-decode",
    key_func=throttle.user_or_address,
    on_breach=refusals.log_throttled,
)


@bp.post("/decode")
@documented(
    DecodeAnswer,
    body=DecodeBody,
    errors=(422, 503, 504),
    summary="Decode a VIN: the vehicle, or candidates to choose from",
)
@decode_throttle
def decode_route():
    data = json_body()
    try:
        pick = read_pick(data)
    except ApiError as refusal:
        refusals.record(current_user.id, data.get("vin"), refusal.code)
        raise
    return _answered(decode(current_user, data.get("vin"), pick))


@bp.post("/<int:vehicle_id>/choose-again")
@documented(DecodeAnswer, errors=(404, 409, 422, 503, 504))
@decode_throttle
def choose_again(vehicle_id: int):
    """Not this vehicle: the VIN's candidates again, the caller's pick marked; a decode with a pick replaces it."""
    return _answered(decode(current_user, services.candidate_vin(vehicle_id), choose_again=True))


def _answered(answer: answers.DecodeAnswer) -> Response:
    error = services.answer_error(answer)
    if error is not None:
        raise error
    return jsonify(services.answer_payload(answer))


def read_pick(data: dict[str, Any]) -> Pick:
    car_id, index = data.get("catapiCarId"), data.get("scrapeCarIndex")
    if car_id is not None and index is not None:
        raise ApiError("invalid_candidate", _("Choose either a catalog car or a web catalog candidate, not both."))
    if car_id is not None and not _is_candidate_id(car_id):
        raise ApiError("invalid_candidate", _("catapiCarId must be a candidate's id."))
    if index is not None and not (isinstance(index, int) and not isinstance(index, bool) and 0 <= index <= ID_MAX):
        raise ApiError("invalid_candidate", _("scrapeCarIndex must be a candidate's number (0 or more)."))
    return Pick(catapi_car_id=None if car_id is None else str(car_id), scrape_car_index=index)


def _is_candidate_id(value: Any) -> bool:
    """A catalog car id as a candidate list gives it: text, or a whole number that fits a 64-bit integer."""
    if isinstance(value, int) and not isinstance(value, bool):
        return 0 <= value < 2**63
    return isinstance(value, str) and 0 < len(value) <= 255


@bp.get("/<int:vehicle_id>")
@documented(VehicleOut, errors=(404,), summary="A decoded vehicle")
def vehicle(vehicle_id: int):
    return jsonify(vehicle_view(services.get_vehicle(vehicle_id)))


@bp.get("/history")
@documented(History, query=HistoryQuery, summary="The caller's decoded vehicles, last decoded first")
def history():
    page = int_arg(request.args, "page", 1)
    items, more = services.history(current_user, page)
    return jsonify(items=items, page=page, hasMore=more)


@bp.delete("/history/<int:vehicle_id>")
@documented(StatusTrue, errors=(404,), summary="Remove a vehicle from the caller's history")
def forget(vehicle_id: int):
    services.forget(current_user, vehicle_id)
    return jsonify(status=True)


@bp.post("/report")
@documented(Reported, status=201, body=ReportBody, summary="Report a VIN that was not recognised")
def report():
    data = json_body()
    note = text_field(data, "note", NOTE, max_length=1000, required=False)
    saved = services.report_vin(current_user, data.get("vin"), note)
    return jsonify(status=True, vin=saved.vin), 201
