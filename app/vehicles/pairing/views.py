"""The pairing pages: the counter PC's "Telefonla tara" (a QR code of the phone's link, then polls for the VIN) and the
phone's minimal scan page behind that link (no session needed: the link's token is all it holds)."""

from __future__ import annotations

import json
from typing import Any

import segno
from flask import Blueprint, Response, make_response, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_limiter import RateLimitExceeded
from flask_login import current_user
from markupsafe import Markup

from app.auth.guards import current_session
from app.core.errors import ApiError, error_response
from app.core.htmx import swappable, vary_on_htmx, wants_fragment
from app.core.security import public, shop_role
from app.vehicles.pairing import services
from app.vehicles.pairing.throttles import create_throttle, poll_throttle

bp = Blueprint("vehicles_pairing_views", __name__)


@bp.errorhandler(RateLimitExceeded)
def _throttled(_error: RateLimitExceeded) -> Response:
    """A throttled pairing says so in the panel; a throttled poll fails quietly (htmx swaps no 429) and polls again."""
    message = _("Too many pairings in a short time. Please wait a moment and try again.")
    if request.endpoint == "vehicles_pairing_views.poll":
        return error_response("rate_limited", message, 429)
    return _pairing_answer({"error": message}, 429, "rate_limited")


@bp.post("/vin/pairings")
@shop_role("clerk")
@create_throttle
def create():
    """A new pairing for this page (also "Yeniden eşleştir"): the QR code of the phone's link, and the poll."""
    try:
        pairing = services.create(_session_id())
    except ApiError as error:
        return _pairing_answer({"error": error.message}, error.status, error.code)
    return _pairing_answer(_shown(pairing), 200)


@bp.get("/vin/pairings/<pairing_id>")
@shop_role("clerk")
@poll_throttle
def poll(pairing_id: str):
    """The PC's poll: nothing yet (204, the QR code stays), the VIN the phone sent (the page decodes it), or why not."""
    try:
        vin = services.take_vin(pairing_id, _session_id())
    except ApiError as error:
        return _pairing_answer({"error": error.message}, error.status, error.code)
    if vin is None:
        if wants_fragment():
            return vary_on_htmx(Response(status=204))  # no swap: the QR code stays and the poll goes on
        return _pairing_answer({"waiting": url_for(".poll", pairing_id=pairing_id)}, 200)
    if not wants_fragment():
        return redirect(url_for("vehicles_views.search", vin=vin), code=303)
    response = _pairing_answer({"received": vin}, 200)
    response.headers["HX-Trigger"] = json.dumps({"vin-paired": {"vin": vin}})  # vin-scan.js fills the box, decodes
    return response


@bp.get("/vin/pair/<token>")
@public
def phone_page(token: str):
    """The phone's page behind the QR code: scan or type the VIN, and it goes to the counter PC's page."""
    try:
        services.check_token(token)
    except ApiError as error:
        return error_response(error.code, error.message, error.status)
    send_url = url_for("vehicles_pairing_api.send_vin", token=token)
    # Signed out, the photo goes through the link (its token, its limit); signed in, to the user's own reader.
    photo_url = photo_scan_url() or url_for("vehicles_pairing_api.scan_photo", token=token)
    return render_template("vehicles/pair_phone.html", send_url=send_url, photo_url=photo_url)


@bp.app_template_global("vin_photo_scan_url")
def photo_scan_url() -> str:
    """Where the scan dialog sends a photo: the signed-in user's own reader; "" (signed out) hides the choice. The
    phone's pairing page passes its link's own photo route instead."""
    return url_for("vehicles_scan_api.scan_photo") if current_user.is_authenticated else ""


def _session_id() -> str:
    session = current_session()
    if session is None:  # the guard lets no signed-out request reach the PC's routes
        raise ApiError("unauthorized", _("You need to sign in for this."), 401)
    return session.id


def _shown(pairing: services.Pairing) -> dict[str, Any]:
    link = url_for(".phone_page", token=pairing.token, _external=True)
    qr = segno.make(link, error="m")
    title = _("QR code of the pairing link")
    svg = qr.svg_inline(scale=4, border=4, dark="#000", light="#fff", svgclass="pairing-qr", title=title)
    return {
        "link": link,
        "qr": Markup(svg),  # noqa: S704 - segno's SVG of our own link
        "poll_url": url_for(".poll", pairing_id=pairing.id),
        "minutes": services.TTL_SECONDS // 60,
    }


def _pairing_answer(context: dict[str, Any], status: int, code: str = "refused") -> Response:
    """The pairing panel for HTMX, else the VIN page around it; a refusal's status through core.htmx.swappable."""
    if wants_fragment():
        return swappable(make_response(render_template("vehicles/_pairing.html", pairing=context), status), code)
    page = render_template("vehicles/pairing.html", pairing=context)
    return swappable(make_response(page, status), code)
