"""VIN decode and decoded vehicles under /api/vehicles."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, request
from flask_babel import lazy_gettext as _l
from flask_login import current_user

from app.core.db import reads_first
from app.core.errors import ApiError
from app.core.openapi import StatusTrue, documented
from app.core.redis_store import read_ahead
from app.core.security import shop_role
from app.core.validation import int_arg, json_body, text_field
from app.vehicles import answers, refusals, services
from app.vehicles.answers import read_pick, vehicle_view
from app.vehicles.cache import ahead_of_decode
from app.vehicles.decode import decode
from app.vehicles.schemas import DecodeAnswer, DecodeBody, History, HistoryQuery, ReportBody, Reported, VehicleOut
from app.vehicles.throttles import decode_throttle

bp = Blueprint("vehicles_api", __name__, url_prefix="/api/vehicles")

NOTE = _l("Note")


@bp.post("/decode")
@shop_role("clerk")
@documented(
    DecodeAnswer,
    body=DecodeBody,
    errors=(422, 503, 504),
    summary="Decode a VIN: the vehicle, or candidates to choose from",
)
@decode_throttle
@reads_first
def decode_route():
    data = json_body()
    member = current_user._get_current_object()  # the decode reads it often: not through the proxy each time
    try:
        pick = read_pick(data)
    except ApiError as refusal:
        refusals.record(member.id, data.get("vin"), refusal.code, shop_id=member.shop_id)
        raise
    return _answered(decode(member, data.get("vin"), pick))


@bp.post("/<int:vehicle_id>/choose-again")
@shop_role("clerk")
@documented(DecodeAnswer, errors=(404, 409, 422, 503, 504))
@decode_throttle
@reads_first
def choose_again(vehicle_id: int):
    """Not this vehicle: the VIN's candidates again, the caller's pick marked; a decode with a pick replaces it."""
    return _answered(decode(current_user, services.candidate_vin(vehicle_id), choose_again=True))


def _decode_cache_key() -> list[str]:
    body = request.get_json(silent=True)
    return ahead_of_decode(body.get("vin") if isinstance(body, dict) else None)


read_ahead("vehicles_api.decode_route", _decode_cache_key)


def _answered(answer: answers.DecodeAnswer) -> Response:
    error = services.answer_error(answer)
    if error is not None:
        raise error
    return jsonify(services.answer_payload(answer))


@bp.get("/<int:vehicle_id>")
@shop_role("clerk")
@documented(VehicleOut, errors=(404,), summary="A decoded vehicle")
def vehicle(vehicle_id: int):
    return jsonify(vehicle_view(services.get_vehicle(vehicle_id)))


@bp.get("/history")
@shop_role("clerk")
@documented(History, query=HistoryQuery, summary="The caller's decoded vehicles, last decoded first")
def history():
    page = int_arg(request.args, "page", 1)
    items, more = services.history(current_user, page)
    return jsonify(items=items, page=page, hasMore=more)


@bp.delete("/history/<int:vehicle_id>")
@shop_role("clerk")
@documented(StatusTrue, errors=(404,), summary="Remove a vehicle from the caller's history")
def forget(vehicle_id: int):
    services.forget(current_user, vehicle_id)
    return jsonify(status=True)


@bp.post("/report")
@shop_role("clerk")
@documented(Reported, status=201, body=ReportBody, summary="Report a VIN that was not recognised")
def report():
    data = json_body()
    note = text_field(data, "note", NOTE, max_length=1000, required=False)
    saved = services.report_vin(current_user, data.get("vin"), note)
    return jsonify(status=True, vin=saved.vin), 201
