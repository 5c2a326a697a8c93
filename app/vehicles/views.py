"""The dealer's VIN search page: decode with live stage progress, candidate picker, errors, history; the vehicle page
and its "not this vehicle" for a vehicle reached by a candidate pick.

With HTMX, POST /vin/decode starts the decode in a background thread (app.vehicles.background) and answers with a
progress fragment that polls GET /vin/decode/<token> until the outcome: a redirect to the vehicle, the candidate
picker, or a message. Without JavaScript the POST decodes in the request and answers with the whole page.
"""

from __future__ import annotations

import logging
import time
from contextlib import suppress
from datetime import datetime
from typing import Any

from flask import Blueprint, Response, current_app, flash, redirect, render_template, request, url_for
from flask_babel import format_decimal, get_locale
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_limiter import RateLimitExceeded
from flask_login import current_user

from app.analytics.services import capture
from app.core import throttle
from app.core.errors import ApiError, error_response
from app.core.htmx import swappable, vary_on_htmx, wants_fragment
from app.core.redis_store import UNAVAILABLE, read_ahead
from app.core.security import shop_role
from app.core.validation import int_arg, text_field
from app.extensions import db, limiter, redis_store
from app.vehicles import background, refusals, services
from app.vehicles.answers import DecodeAnswer, Pick, normalize_vin, read_pick
from app.vehicles.browse_link import browse_make
from app.vehicles.cache import ahead_of_decode
from app.vehicles.decode import decode
from app.vehicles.models import Vehicle
from app.vehicles.progress import STAGES, Progress, ProgressRecord
from app.vehicles.throttles import decode_throttle

log = logging.getLogger(__name__)
bp = Blueprint("vehicles_views", __name__)

STAGE_LABELS = {
    "cache": _l("Cache"),
    "catapi": _l("Catalog API"),
    "scrape": _l("Web catalog"),
    "portal": _l("Dealer portal"),
    "vin_api": _l("Generic VIN decoder"),
}
STATE_LABELS = {
    "pending": _l("Queued"),
    "running": _l("Searching…"),
    "waiting": _l("Waiting for the same VIN's search"),
    "hit": _l("Found"),
    "miss": _l("Not cached"),
    "one": _l("Vehicle found"),
    "candidates": _l("Several vehicles"),
    "none": _l("No result"),
    "failure": _l("Did not answer"),
    "skipped": _l("Skipped"),
}
# Candidate parameters worth telling two cars apart by (year and engine are shown anyway); others keep their name.
PARAMETER_LABELS = {
    "body": _l("Body"),
    "gearbox": _l("Gearbox"),
    "modelcode": _l("Model code"),
    "fuel": _l("Fuel"),
    "drive": _l("Drive"),
    "market": _l("Market"),
}
SHOWN_PARAMETERS = {"year", "engine"}
REPORTABLE = {"vin_not_recognised"}
RETRYABLE = {
    "decode_timeout",
    "decode_expired",
    "internal_error",
    "sources_unavailable",
    "decode_busy",
    "decode_unavailable",
}
INFORMATIVE = {"identified_no_catalog", "brand_unsupported"}  # shown as a notice, not as an error
BROWSABLE = {"identified_no_catalog", "brand_unsupported", "vin_not_recognised"}  # offer the make's catalog
PLAN_LIMITED = {"subscription_required", "brand_not_in_plan"}  # the answer links to the plans
NOTE = _l("Note")
# A decode whose outcome has not arrived this long after its budget has lost its thread (a restarted worker).
STALE_GRACE_SECONDS = 10


# Polling every 300 ms from a counter behind one shop address would trip the per-address default limit. Searches
# share the API's decode budget (decode_throttle).
poll_throttle = limiter.limit("600 per minute", key_func=throttle.user_or_address, scope="vin-decode-poll")


@bp.errorhandler(RateLimitExceeded)
def _throttled(_error: RateLimitExceeded) -> Response:
    """A throttled search says so in the result area; a throttled poll fails quietly and the next one tries again."""
    message = _("Too many searches in a short time. Please wait a moment and try again.")
    if request.endpoint == "vehicles_views.start_decode" and wants_fragment():
        return _answer(error_result("", "rate_limited", message), status=429)
    return error_response("rate_limited", message, 429)


# --- page or fragment -------------------------------------------------------------------------------------------


def _answer(result: dict[str, Any] | None, vin: str = "", status: int = 200) -> Response:
    """The result area alone for HTMX, else the page around it; a refusal's status through core.htmx.swappable."""
    code = (result or {}).get("code") or "refused"
    if wants_fragment():
        return swappable(Response(render_template("vehicles/_result.html", result=result), status=status), code)
    return swappable(Response(_search_page(vin, result), status=status), code)


def _search_page(vin: str, result: dict[str, Any] | None) -> str:
    page = int_arg(request.args, "page", 1)
    return render_template("vehicles/search.html", vin=vin, result=result, **_history(page))


def _history(page: int) -> dict[str, Any]:
    items, more = services.history(current_user, page)
    for item in items:
        item["decodedAt"] = datetime.fromisoformat(item["lastDecodedAt"])
    return {"history": items, "page": page, "has_more": more}


# --- results ------------------------------------------------------------------------------------------------------


def progress_result(progress: Progress) -> dict[str, Any]:
    stages = [
        {
            "name": name,
            "label": STAGE_LABELS[name],
            "state": progress.state(name),
            "state_label": _state(progress, name),
        }
        for name in STAGES
    ]
    return {
        "state": "progress",
        "vin": progress.vin,
        "picked": bool(progress.pick),
        "stages": stages,
        "elapsed": format_decimal(progress.elapsed_seconds(), format="0.0"),
        "poll_url": url_for(".decode_progress", token=progress.token),
    }


def _state(progress: Progress, stage: str) -> str:
    state = progress.state(stage)
    return str(STATE_LABELS.get(state, state))


def outcome_result(vin: str, outcome: dict[str, Any]) -> dict[str, Any]:
    if outcome["kind"] == "candidates":
        candidates = [{**car, "facts": _facts(car)} for car in outcome["candidates"]]
        return {"state": "candidates", "vin": vin, "source": outcome["source"], "candidates": candidates}
    return error_result(vin, outcome["code"], outcome["message"])


def _facts(car: dict[str, Any]) -> list[tuple[str, str]]:
    """What tells this candidate apart, labelled for the dealer: its parameters, else the source's criteria text."""
    facts = [
        (str(PARAMETER_LABELS.get(name.lower(), name)), value)
        for name, value in sorted((car.get("parameters") or {}).items())
        if name.lower() not in SHOWN_PARAMETERS and value
    ]
    if not facts and car.get("criteria"):
        facts.append((str(_("Details")), car["criteria"]))
    return facts


def error_result(vin: str, code: str, message: str) -> dict[str, Any]:
    return {
        "state": "error",
        "vin": vin,
        "code": code,
        "message": message,
        "informative": code in INFORMATIVE,
        "reportable": code in REPORTABLE and bool(vin),
        "retryable": code in RETRYABLE and bool(vin),
        "plan_limited": code in PLAN_LIMITED,
        "browse": browse_make(vin) if code in BROWSABLE and vin else None,
    }


def _expired() -> dict[str, Any]:
    return error_result("", "decode_expired", _("This search is no longer available. Please search the VIN again."))


def _progress_unavailable() -> dict[str, Any]:
    message = _("The progress of this search cannot be shown right now. Please search the VIN again in a moment.")
    return error_result("", "progress_unavailable", message)


def _timed_out(vin: str) -> dict[str, Any]:
    error = services.answer_error(DecodeAnswer("aborted"))
    return error_result(vin, error.code, error.message)


# --- analytics ----------------------------------------------------------------------------------------------------


def _event(event: str, properties: dict[str, Any]) -> None:
    """Report a page event for the signed-in user; a VIN is never sent, only its maker code (WMI)."""
    capture(str(current_user.id), event, properties)


def _report_outcome(vin: str, outcome: dict[str, Any], elapsed_seconds: float) -> None:
    properties = {"wmi": vin[:3], "elapsed_ms": int(elapsed_seconds * 1000)}
    if outcome["kind"] == "vehicle":
        _event("vin_decode_success", {**properties, "source": outcome["source"], "brand": outcome["brand"]})
    elif outcome["kind"] == "candidates":
        count = len(outcome["candidates"])
        _event("vin_decode_candidates", {**properties, "source": outcome["source"], "count": count})
    else:
        _event("vin_decode_error", {**properties, "code": outcome["code"]})


# --- routes -------------------------------------------------------------------------------------------------------


@bp.get("/vin")
@shop_role("clerk")
def search():
    return _search_page(request.args.get("vin", "").strip()[:40], None)


read_ahead("vehicles_views.start_decode", lambda: ahead_of_decode(request.form.get("vin")))


@bp.post("/vin/decode")
@shop_role("clerk")
@decode_throttle
def start_decode():
    form = request.form
    raw_vin = form.get("vin", "")
    try:
        vin = normalize_vin(raw_vin)
    except ApiError as error:
        _event("search_input_validation_failed", {"code": error.code, "length": len(raw_vin.strip())})
        refusals.record(current_user.id, raw_vin, error.code, shop_id=current_user.shop_id)
        return _answer(error_result("", error.code, error.message), raw_vin, error.status)
    try:
        pick = _pick_from(form)
    except ApiError as error:
        refusals.record(current_user.id, vin, error.code, shop_id=current_user.shop_id)
        return _answer(error_result(vin, error.code, error.message), vin, error.status)
    if pick.source:
        _event("candidate_selected", {"wmi": vin[:3], "source": pick.source})
    if form.get("retry"):
        _event("vin_decode_retry_clicked", {"wmi": vin[:3]})
    _event("vin_decoded", {"wmi": vin[:3], "pick": pick.source or "none", "retry": bool(form.get("retry"))})
    if not wants_fragment():
        return _decode_here(vin, pick)
    # The request's own work (the events above) is committed before the thread starts, so the two never hold the
    # database at the same time; the after-request commit then finds nothing to do.
    db.session.commit()
    started = background.start_decode(str(current_user.id), vin, pick, str(get_locale()))
    if started is None:  # Redis does not answer, so there would be nothing to poll: decode within this request
        return _decode_here(vin, pick)
    if started.progress is None:
        return _answer(_expired(), vin)
    return _answer(progress_result(started.progress), vin)


def _pick_from(form: Any) -> Pick:
    """The candidate chosen on the picker, checked by the same rules as the API's."""
    car_id = form.get("catapiCarId") or None
    index: Any = form.get("scrapeCarIndex") or None
    if index is not None:
        try:
            index = int(index)
        except ValueError:
            index = -1  # read_pick refuses it with its message
    return read_pick({"catapiCarId": car_id, "scrapeCarIndex": index})


def _decode_here(vin: str, pick: Pick, choose_again: bool = False) -> Response:
    """No JavaScript: decode within the request and answer with the page (or go straight to the vehicle)."""
    started = time.monotonic()
    try:
        outcome = background.outcome_of(decode(current_user, vin, pick, choose_again=choose_again))
    except ApiError as error:
        return _answer(error_result(vin, error.code, error.message), vin, error.status)
    _report_outcome(vin, outcome, time.monotonic() - started)
    if outcome["kind"] == "vehicle":
        return _open_vehicle(outcome["vehicleId"])
    return _answer(outcome_result(vin, outcome), vin)


def _open_vehicle(vehicle_id: int) -> Response:
    """Go to the decoded vehicle's page: HTMX is told to load it whole, a plain form post is redirected."""
    target = url_for("catalog_views.vehicle_page", vehicle_id=vehicle_id)
    if wants_fragment():
        return vary_on_htmx(Response(_("Opening the vehicle…"), headers={"HX-Redirect": target}))
    return vary_on_htmx(redirect(target, code=303))


@bp.get("/vin/decode/<token>")
@shop_role("clerk")
@poll_throttle
def decode_progress(token: str):
    """One poll. While the decode runs this reads only Redis; the outcome is reported to analytics once."""
    record = ProgressRecord.find(redis_store.client, str(current_user.id), token)
    try:
        progress = record.read() if record else None
    except UNAVAILABLE:
        log.warning("decode progress %s unreadable: redis unavailable", token[:6])
        return _answer(_progress_unavailable(), status=503)
    if record is None or progress is None:
        return _answer(_expired(), status=404)
    if not progress.done:
        budget = float(current_app.config["DECODE_BUDGET_SECONDS"])
        if progress.elapsed_seconds() > budget + STALE_GRACE_SECONDS:
            return _answer(_timed_out(progress.vin), progress.vin, 504)
        return _answer(progress_result(progress), progress.vin)
    outcome = progress.outcome or {}
    if redis_store.optional("decode report claim", lambda _client: record.claim_report(), False):
        _report_outcome(progress.vin, outcome, progress.elapsed_seconds())
    if outcome["kind"] == "vehicle":
        return _open_vehicle(outcome["vehicleId"])
    # 200 even for a refusal: the page itself is fine, and an error status would roll back the analytics event.
    return _answer(outcome_result(progress.vin, outcome), progress.vin)


@bp.post("/vin/report")
@shop_role("clerk")
def report():
    """Save the dealer's report that a VIN was not recognised."""
    vin = request.form.get("vin", "")
    try:
        note = text_field(request.form, "note", NOTE, max_length=1000, required=False)
        saved = services.report_vin(current_user, vin, note)
    except ApiError as error:
        vin = _valid_vin_or_empty(vin)  # the form and the Location header never carry more than a VIN
        if wants_fragment():
            html = render_template("vehicles/_report.html", vin=vin, report_error=error.message)
            return swappable(Response(html, status=error.status), error.code)
        flash(error.message, "error")
        return redirect(url_for(".search", vin=vin or None), code=303)
    if wants_fragment():
        return vary_on_htmx(Response(render_template("vehicles/_report.html", vin=saved.vin, reported=True)))
    flash(_("Thank you. We saved your report and will look into this VIN."), "success")
    return redirect(url_for(".search", vin=saved.vin), code=303)


def _valid_vin_or_empty(raw: str) -> str:
    try:
        return normalize_vin(raw)
    except ApiError:
        return ""


@bp.post("/vin/history/<int:vehicle_id>/delete")
@shop_role("clerk")
def forget(vehicle_id: int):
    """Remove a vehicle from the dealer's history; removing one already gone changes nothing."""
    with suppress(ApiError):  # a second click, or another tab removed it first: the list below shows the truth
        services.forget(current_user, vehicle_id)
    page = int_arg(request.form, "page", 1)
    if wants_fragment():
        return vary_on_htmx(Response(render_template("vehicles/_history.html", **_history(page))))
    flash(_("The vehicle was removed from your history."), "success")
    return redirect(url_for(".search", page=page if page > 1 else None), code=303)


@bp.post("/vehicles/<int:vehicle_id>/choose-again")
@shop_role("clerk")
@decode_throttle
def choose_again(vehicle_id: int):
    """Not this vehicle: the search page with the VIN's candidates again, the dealer's pick marked; choosing one
    there replaces the pick."""
    try:
        vin = services.candidate_vin(vehicle_id)
    except ApiError as error:
        return _answer(error_result("", error.code, error.message), status=error.status)
    return _decode_here(vin, Pick(), choose_again=True)


@bp.app_template_global("vehicle_choice")
def vehicle_choice(vehicle: Vehicle) -> dict[str, Any] | None:
    """For the vehicle page: how a vehicle reached by a candidate pick was chosen (None for a confirmed one)."""
    choice = services.candidate_choice(current_user, vehicle)
    if choice is None:
        return None
    return {**choice, "facts": _facts(choice)}
