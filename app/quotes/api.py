"""The dealer's quotes under /api/quotes: create, list, read, lines added, changed and deleted, the settings, the
shared link made and revoked, a sent quote's new version. Another dealer's quote or line is not found (404); a change
of a sent quote is refused (409 quote_sent): it is made on a new version."""

from __future__ import annotations

from flask import Blueprint, jsonify
from flask_babel import gettext as _
from flask_login import current_user

from app.core.errors import ApiError
from app.core.openapi import StatusTrue, documented
from app.core.security import shop_role
from app.core.validation import is_id, json_body, optional_json_body
from app.quotes import presenters, services
from app.quotes.amounts import text
from app.quotes.schemas import (
    QuoteCreate,
    QuoteEdit,
    QuoteLineCreate,
    QuoteLineEdit,
    QuoteLink,
    QuoteList,
    QuoteOut,
    QuoteSettings,
    QuoteSettingsIn,
)

bp = Blueprint("quotes_api", __name__, url_prefix="/api/quotes")

EDITABLE = ("name", "quantity", "unitPrice")


@bp.get("")
@shop_role("clerk")
@documented(QuoteList, summary="The dealer's latest quotes, newest first")
def list_quotes():
    return jsonify(quotes=[presenters.quote_view(quote, lines) for quote, lines in services.quotes_of(current_user)])


@bp.post("")
@shop_role("clerk")
@documented(QuoteOut, status=201, body=QuoteCreate, errors=(404,), summary="A new draft quote")
def create():
    data = optional_json_body()
    vehicle_id = data.get("vehicleId")
    if vehicle_id is not None and not is_id(vehicle_id):
        raise ApiError("invalid_field", _("%(field)s must be a record id.", field="vehicleId"), 400)
    customer = text(data.get("customer"), _("Customer"), services.CUSTOMER_MAX_LENGTH)
    quote = services.create_quote(current_user, vehicle_id, customer)
    return _quote_answer(quote, 201)


@bp.get("/<int:quote_id>")
@shop_role("clerk")
@documented(QuoteOut, errors=(404,), summary="A quote with its lines and totals")
def get(quote_id: int):
    return _quote_answer(services.quote_of(current_user, quote_id))


@bp.patch("/<int:quote_id>")
@shop_role("clerk")
@documented(QuoteOut, body=QuoteEdit, errors=(404, 409), summary="This quote's KDV rate changed (its totals with it)")
def edit(quote_id: int):
    data = json_body()  # a body that cannot be read is refused whatever the quote
    quote = services.quote_of(current_user, quote_id)
    services.set_quote_rate(quote, data.get("kdvRate"))
    return _quote_answer(quote)


@bp.post("/<int:quote_id>/lines")
@shop_role("clerk")
@documented(
    QuoteOut,
    status=201,
    body=QuoteLineCreate,
    errors=(404, 409, 422),
    summary="A part, a supplier's offer (its cost kept, priced by the markup rules) or a free line added",
)
def add_line(quote_id: int):
    data = json_body()  # a body that cannot be read is refused whatever the quote
    quote = services.quote_of(current_user, quote_id)
    kind = data.get("kind", "part")
    if data.get("offer") is not None and kind == "part":
        _add_offer(quote, data)
    elif kind == "free":
        services.add_free_line(quote, data.get("name"), data.get("quantity"), data.get("unitPrice"))
    elif kind == "part":
        part_id = data.get("partId")
        if not is_id(part_id):
            raise ApiError("invalid_field", _("%(field)s must be a record id.", field="partId"), 400)
        services.add_part_line(current_user, quote, part_id, data.get("quantity"), data.get("unitPrice"))
    else:
        raise ApiError("invalid_field", _("%(field)s must be part or free.", field="kind"), 400)
    return _quote_answer(quote, 201)


def _add_offer(quote, data: dict) -> None:
    """A supplier's offer as a line (`offer`: the list's line id), named by the vehicle's part `partId` when given."""
    offer, part_id = data.get("offer"), data.get("partId")
    if not is_id(offer):
        raise ApiError("invalid_field", _("%(field)s must be a record id.", field="offer"), 400)
    if part_id is not None and not is_id(part_id):
        raise ApiError("invalid_field", _("%(field)s must be a record id.", field="partId"), 400)
    services.add_offer_line(current_user, quote, offer, part_id, data.get("quantity"))


@bp.patch("/<int:quote_id>/lines/<int:line_id>")
@shop_role("clerk")
@documented(QuoteOut, body=QuoteLineEdit, errors=(404, 409), summary="A line's quantity, unit price or name changed")
def edit_line(quote_id: int, line_id: int):
    data = json_body()  # a body that cannot be read is refused whatever the quote
    quote = services.quote_of(current_user, quote_id)
    line = services.line_of(quote, line_id)
    services.edit_line(quote, line, {key: data[key] for key in EDITABLE if key in data})
    return _quote_answer(quote)


@bp.delete("/<int:quote_id>/lines/<int:line_id>")
@shop_role("clerk")
@documented(QuoteOut, errors=(404, 409), summary="A line deleted")
def delete_line(quote_id: int, line_id: int):
    quote = services.quote_of(current_user, quote_id)
    services.delete_line(quote, services.line_of(quote, line_id))
    return _quote_answer(quote)


@bp.post("/<int:quote_id>/versions")
@shop_role("clerk")
@documented(
    QuoteOut,
    status=201,
    errors=(404,),
    summary="A sent quote's new version: a draft copy to change and send again (a draft already made is answered)",
)
def new_version(quote_id: int):
    quote = services.quote_of(current_user, quote_id)
    copy = services.new_version(quote)
    return _quote_answer(copy, 201)


@bp.post("/<int:quote_id>/share")
@shop_role("clerk")
@documented(QuoteLink, errors=(404,), summary="A new read-only link for the customer (7 days; an earlier one stops)")
def share(quote_id: int):
    quote = services.quote_of(current_user, quote_id)
    token = services.share(current_user, quote)
    url = presenters.shared_url(token)
    whatsapp = presenters.whatsapp_url(quote.sent_shop_name, quote, services.lines_of(quote), url)
    return jsonify(url=url, whatsappUrl=whatsapp, expiresAt=quote.expires_at.isoformat())


@bp.post("/<int:quote_id>/revoke")
@shop_role("clerk")
@documented(StatusTrue, errors=(404, 409), summary="The shared link stops working (410)")
def revoke(quote_id: int):
    services.revoke(services.quote_of(current_user, quote_id))
    return jsonify(status=True)


@bp.get("/settings")
@shop_role("clerk")
@documented(QuoteSettings, summary="The dealer's shop name, phone and KDV rate on his quotes")
def settings():
    return jsonify(_settings_view(services.profile_of(current_user.shop_id)))


@bp.put("/settings")
@shop_role("manager")
@documented(QuoteSettings, body=QuoteSettingsIn, summary="The dealer's quote settings changed")
def save_settings():
    return jsonify(_settings_view(services.save_profile(current_user.shop_id, json_body())))


def _settings_view(profile) -> dict:
    rate = services.kdv_rate_of(profile.shop_id)
    return {"shopName": profile.shop_name, "phone": profile.phone, "kdvRate": str(rate)}


def _quote_answer(quote, status: int = 200):
    return jsonify(presenters.quote_view(quote, services.lines_of(quote))), status
