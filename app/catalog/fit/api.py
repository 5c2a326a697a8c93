"""Fit answers in the API: a vehicle's facts, answers and question under /api/vehicles/<vehicleId>/fit, and the
dealer's "only what fits" switch under /api/fit/preference (signed in; a vehicle's brand must be in the plan)."""

from __future__ import annotations

from flask import Blueprint, jsonify
from flask_login import current_user

from app.catalog.fit import answers, shapes
from app.catalog.schemas import FitAnswerIn, FitAnswerResult, FitPreferenceIO, VehicleFit
from app.catalog.services import open_vehicle
from app.core.openapi import documented
from app.core.security import shop_role
from app.core.validation import json_body

bp = Blueprint("catalog_fit_api", __name__, url_prefix="/api")


@bp.get("/vehicles/<int:vehicle_id>/fit")
@shop_role("clerk")
@documented(VehicleFit, errors=(404,))
def vehicle_fit(vehicle_id: int):
    """The vehicle's facts, the answers given on it (yours and your colleagues') and the question for its maybes."""
    return jsonify(shapes.vehicle_fit(current_user.shop_id, open_vehicle(current_user, vehicle_id)))


@bp.put("/vehicles/<int:vehicle_id>/fit/answers/<fact>")
@shop_role("clerk")
@documented(FitAnswerResult, body=FitAnswerIn, errors=(404, 409))
def answer_question(vehicle_id: int, fact: str):
    """Answer a question about the vehicle (or change the answer): the maybes hanging on it resolve for you."""
    fact = answers.parse_fact(fact)
    value = answers.parse_value(fact, json_body().get("value"))
    return jsonify(
        answers.answer(current_user.shop_id, current_user.id, open_vehicle(current_user, vehicle_id), fact, value)
    )


@bp.delete("/vehicles/<int:vehicle_id>/fit/answers/<fact>")
@shop_role("clerk")
@documented(FitAnswerResult, errors=(404,))
def clear_answer(vehicle_id: int, fact: str):
    """Forget your answer: the maybes it settled are maybes again for you."""
    fact = answers.parse_fact(fact)
    return jsonify(answers.clear_answer(current_user.shop_id, open_vehicle(current_user, vehicle_id), fact))


@bp.get("/fit/preference")
@shop_role("clerk")
@documented(FitPreferenceIO)
def preference():
    """Your "only what fits" switch."""
    return jsonify(fittingOnly=answers.fitting_only(current_user.id))


@bp.put("/fit/preference")
@shop_role("clerk")
@documented(FitPreferenceIO, body=FitPreferenceIO)
def set_preference():
    """Show only what fits (or everything again), on every page and device."""
    value = json_body().get("fittingOnly")
    if not isinstance(value, bool):
        raise answers.invalid_preference()
    return jsonify(fittingOnly=answers.set_fitting_only(current_user.id, value))
