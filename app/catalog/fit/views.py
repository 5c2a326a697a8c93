"""The fit answer's forms on a leaf's page (issue 30): the drawing's question answered or its answer cleared, and the
"only what fits" switch (Sadece uyanlar). Each is a form POST to the leaf it was sent from: HTMX gets that leaf's main
area again, with the change applied; without HTMX the browser is sent back to the leaf (303). A refused answer shows
the leaf again with the reason beside the question (its 4xx through core.htmx.swappable: HTMX gets 200, nothing is
kept).

The writes are app.catalog.fit.answers' (the API calls the same), the page is app.catalog.dealer_pages'.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, redirect, request
from flask_babel import gettext as _
from flask_login import current_user

from app.catalog import services
from app.catalog.dealer_pages import category_answer, refused_answer
from app.catalog.fit import answers
from app.catalog.page_links import dealer_links
from app.catalog.presenters import category_main
from app.core.errors import ApiError
from app.core.htmx import wants_fragment
from app.core.security import shop_role
from app.vehicles.models import Vehicle
from app.vehicles.services import get_vehicle

bp = Blueprint("catalog_fit_views", __name__, url_prefix="/vehicles/<int:vehicle_id>/categories/<int:category_id>/fit")

FACT_MAX_LENGTH = 80  # as FitAnswer.fact
VALUE_MAX_LENGTH = 200


@bp.post("/answer")
@shop_role("clerk")
def answer(vehicle_id: int, category_id: int) -> Response:
    """The drawing's question answered (a choice, a month or a number), or a colleague's answer taken over."""
    return _changed(
        vehicle_id,
        category_id,
        lambda vehicle: answers.answer(
            current_user.shop_id, current_user.id, vehicle, _fact(), answers.parse_value(_fact(), _value())
        ),
    )


@bp.post("/clear")
@shop_role("clerk")
def clear(vehicle_id: int, category_id: int) -> Response:
    """An answer taken back ("Değiştir"): its maybes are maybes again and the question is asked anew."""
    return _changed(
        vehicle_id, category_id, lambda vehicle: answers.clear_answer(current_user.shop_id, vehicle, _fact())
    )


@bp.post("/fitting-only")
@shop_role("clerk")
def fitting_only(vehicle_id: int, category_id: int) -> Response:
    """The "only what fits" switch turned on or off; it is the dealer's, so every leaf of every vehicle follows it."""
    wanted = request.form.get("fitting_only", "") == "1"
    return _changed(vehicle_id, category_id, lambda _vehicle: answers.set_fitting_only(current_user.id, wanted))


def _changed(vehicle_id: int, category_id: int, change: Callable[[Vehicle], Any]) -> Response:
    vehicle = get_vehicle(vehicle_id)
    try:
        services.open_vehicle(current_user, vehicle.id)
        found = services.category_in(vehicle, category_id)
    except ApiError as error:
        return refused_answer(vehicle, error)
    try:
        change(vehicle)
    except ApiError as error:
        notice, status, code = error.message, error.status, error.code
    else:
        if not wants_fragment():
            return redirect(dealer_links(vehicle.id).category(found.id), code=303)
        notice, status, code = None, 200, ""
    detail = services.category_detail(vehicle, found, current_user)
    main = category_main(vehicle, detail, fit_notice=notice)
    return category_answer(vehicle, found, detail, main, status=status, code=code)


def _fact() -> str:
    return answers.parse_fact(request.form.get("fact", "").strip()[:FACT_MAX_LENGTH])


def _value() -> Any:
    """The answer as the form sends it: a button's value (JSON: true, "MANUAL", 4), a month input's "YYYY-MM" or a
    number input's digits. What it may be for the fact is the services' to say (parse_value)."""
    form = request.form
    raw = next((form[name].strip() for name in ("value", "month", "number") if form.get(name, "").strip()), "")
    if not raw or len(raw) > VALUE_MAX_LENGTH:
        raise ApiError("invalid_value", _("Choose or enter an answer."), 400)
    if "value" in form and form["value"].strip():
        try:
            return json.loads(raw)
        except ValueError:
            raise ApiError("invalid_value", _("This answer could not be read."), 400) from None
    if "number" in form and form["number"].strip():
        if not raw.isdigit():
            raise ApiError("invalid_value", _("Enter a whole number."), 400)
        return int(raw)
    return raw
