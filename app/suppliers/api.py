"""The suppliers API (/api/suppliers): a manager's suppliers and their terms, brand discounts, the list's upload,
mapping and import, a pull now, the shop's markup rules and offer settings. Another shop's supplier or rule
is not found (404)."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, request
from flask_babel import gettext as _
from flask_login import current_user
from werkzeug.exceptions import RequestEntityTooLarge

from app.core.errors import error_response
from app.core.openapi import StatusTrue, documented
from app.core.security import shop_role
from app.core.uploads import takes_upload
from app.core.validation import json_body
from app.equivalents.services import checked_number, link_key
from app.shelf import imports as shelf_imports
from app.suppliers import imports, markup, pulls, services, suggestions
from app.suppliers.currency.services import istanbul_today
from app.suppliers.offers import offers_for_codes, settings_of
from app.suppliers.presenters import (
    import_shown,
    offer_settings_view,
    offer_view,
    preview_shown,
    rule_view,
    suggestion_view,
    supplier_view,
)
from app.suppliers.schemas import (
    BrandDiscountBody,
    MarkupRuleBody,
    MarkupRuleList,
    MarkupRuleOut,
    NumberOffersOut,
    OfferSettingsBody,
    OfferSettingsOut,
    OffersQuery,
    PullQueued,
    SuggestionDecisions,
    SuggestionDecisionsBody,
    SuggestionList,
    SuggestionOut,
    SupplierBody,
    SupplierImportOut,
    SupplierList,
    SupplierMappingBody,
    SupplierOut,
    SupplierPreviewOut,
    SupplierUploadForm,
)
from app.suppliers.throttles import upload_throttle

bp = Blueprint("suppliers_api", __name__, url_prefix="/api/suppliers")


@bp.errorhandler(RequestEntityTooLarge)
def _too_large(_error: RequestEntityTooLarge) -> Response:
    refusal = shelf_imports.too_large()
    return error_response(refusal.code, refusal.message, refusal.status)


@bp.get("/offers")
@shop_role("clerk")
@documented(NumberOffersOut, query=OffersQuery)
def offers_by_number():
    """The shop's suppliers' offers for a number (OEM, aftermarket, EAN) and its direct equivalents, best first: the
    price in TRY after the discount, KDV as the shop set, stock and delivery; the cheapest and the fastest marked."""
    number = link_key(checked_number(request.args.get("number"), _("The number")))
    found = offers_for_codes(current_user.shop_id, [number]).get(number, ())
    return jsonify(number=number.upper(), day=istanbul_today().isoformat(), offers=[offer_view(o) for o in found])


@bp.get("")
@shop_role("manager")
@documented(SupplierList)
def list_suppliers():
    """The shop's suppliers by name."""
    return jsonify(items=[supplier_view(supplier) for supplier in services.suppliers_of(current_user)])


@bp.post("")
@shop_role("manager")
@documented(SupplierOut, status=201, body=SupplierBody, errors=(409,))
def create_supplier():
    """Add a supplier."""
    supplier = services.create(current_user, json_body())
    return jsonify(supplier_view(supplier)), 201


@bp.get("/<int:supplier_id>")
@shop_role("manager")
@documented(SupplierOut, errors=(404,))
def get_supplier(supplier_id: int):
    """A supplier's terms and the state of its list."""
    return jsonify(supplier_view(services.get_supplier(current_user, supplier_id)))


@bp.patch("/<int:supplier_id>")
@shop_role("manager")
@documented(SupplierOut, body=SupplierBody, errors=(404, 409))
def update_supplier(supplier_id: int):
    """Change a supplier's terms (the fields given)."""
    data = json_body()
    supplier = services.update(services.get_supplier(current_user, supplier_id), data)
    return jsonify(supplier_view(supplier))


@bp.delete("/<int:supplier_id>")
@shop_role("manager")
@documented(StatusTrue, errors=(404,))
def delete_supplier(supplier_id: int):
    """Delete a supplier, its discounts and its lists."""
    services.delete(services.get_supplier(current_user, supplier_id))
    return jsonify(status=True)


@bp.put("/<int:supplier_id>/discounts/<brand>")
@shop_role("manager")
@documented(SupplierOut, body=BrandDiscountBody, errors=(404,))
def set_brand_discount(supplier_id: int, brand: str):
    """Set the supplier's discount on a brand (in place of its general discount)."""
    data = json_body()
    supplier = services.get_supplier(current_user, supplier_id)
    services.set_brand_discount(current_user, supplier, brand, data.get("discountPercent"))
    return jsonify(supplier_view(supplier))


@bp.delete("/<int:supplier_id>/discounts/<brand>")
@shop_role("manager")
@documented(SupplierOut, errors=(404,))
def delete_brand_discount(supplier_id: int, brand: str):
    """Remove the supplier's discount on a brand."""
    supplier = services.get_supplier(current_user, supplier_id)
    services.delete_brand_discount(supplier, brand)
    return jsonify(supplier_view(supplier))


@bp.post("/<int:supplier_id>/imports")
@shop_role("manager")
@takes_upload(shelf_imports.MAX_UPLOAD_BYTES)
@documented(SupplierPreviewOut, status=201, form=SupplierUploadForm, errors=(404, 409, 413, 415, 422))
@upload_throttle
def create_supplier_import(supplier_id: int):
    """Upload the supplier's list: its header, first rows and the mapping to confirm; nothing is imported yet."""
    supplier = services.get_supplier(current_user, supplier_id)  # another shop's: 404 before anything of the body
    filename, data = shelf_imports.uploaded_file(request)
    record, shown = imports.store_file(supplier, filename, data, current_user)
    return jsonify(preview_shown(supplier, record, shown)), 201


@bp.get("/<int:supplier_id>/imports/<int:import_id>")
@shop_role("manager")
@documented(SupplierImportOut, errors=(404,))
def get_supplier_import(supplier_id: int, import_id: int):
    """An import's status, progress and row errors."""
    supplier = services.get_supplier(current_user, supplier_id)
    return jsonify(import_shown(imports.get_import(supplier, import_id)))


@bp.put("/<int:supplier_id>/imports/<int:import_id>/mapping")
@shop_role("manager")
@documented(SupplierImportOut, status=202, body=SupplierMappingBody, errors=(404, 409))
def start_supplier_import(supplier_id: int, import_id: int):
    """Confirm the columns and start the import: it runs in the background (poll the import)."""
    mapping = shelf_imports.internal_mapping(json_body())
    supplier = services.get_supplier(current_user, supplier_id)
    record = imports.get_import(supplier, import_id)
    imports.start(current_user, supplier, record, mapping)
    return jsonify(import_shown(record)), 202


@bp.post("/<int:supplier_id>/pull")
@shop_role("manager")
@documented(PullQueued, status=202, errors=(404, 409))
def pull_supplier_list(supplier_id: int):
    """Pull the supplier's list from its URL now (in the background); the list in use stays until it is imported."""
    supplier = services.get_supplier(current_user, supplier_id)
    return jsonify(queued=pulls.pull_now(supplier)), 202


@bp.get("/<int:supplier_id>/suggestions")
@shop_role("manager")
@documented(SuggestionList, errors=(404,))
def list_suggestions(supplier_id: int):
    """The supplier's pending suggestions: known numbers close to one its lines state, best first."""
    supplier = services.get_supplier(current_user, supplier_id)
    pending = suggestions.pending_of(supplier.id)
    return jsonify(items=[suggestion_view(suggestion, line) for suggestion, line in pending])


@bp.post("/<int:supplier_id>/suggestions/<int:suggestion_id>/confirm")
@shop_role("manager")
@documented(SuggestionOut, errors=(404, 409))
def confirm_suggestion(supplier_id: int, suggestion_id: int):
    """Confirm a suggestion: the line answers to the known number (an offer there), list after list."""
    return _decided(supplier_id, suggestion_id, "confirmed")


@bp.post("/<int:supplier_id>/suggestions/<int:suggestion_id>/reject")
@shop_role("manager")
@documented(SuggestionOut, errors=(404, 409))
def reject_suggestion(supplier_id: int, suggestion_id: int):
    """Reject a suggestion: never asked again, never an offer."""
    return _decided(supplier_id, suggestion_id, "rejected")


@bp.post("/<int:supplier_id>/suggestions/decide")
@shop_role("manager")
@documented(SuggestionDecisions, body=SuggestionDecisionsBody, errors=(404,))
def decide_suggestions(supplier_id: int):
    """Confirm or reject many of the supplier's pending suggestions at once."""
    body = json_body()
    supplier = services.get_supplier(current_user, supplier_id)
    ids, status = suggestions.checked_decisions(body.get("ids"), body.get("decision"))
    return jsonify(decided=suggestions.decide_many(supplier.id, ids, current_user.id, status))


def _decided(supplier_id: int, suggestion_id: int, status: str) -> Response:
    """Decide the supplier's suggestion (`status`: confirmed or rejected); the suggestion as it is then."""
    supplier = services.get_supplier(current_user, supplier_id)
    suggestion = suggestions.get_suggestion(supplier.id, suggestion_id)
    return jsonify(suggestion_view(suggestions.decide(suggestion, current_user.id, status)))


@bp.get("/markup-rules")
@shop_role("manager")
@documented(MarkupRuleList)
def list_markup_rules():
    """The shop's markup rules from an offer's cost to its sale price, the default first."""
    names = markup.supplier_names(current_user.shop_id)
    return jsonify(items=[rule_view(rule, names) for rule in markup.rules_of(current_user.shop_id)])


@bp.post("/markup-rules")
@shop_role("manager")
@documented(MarkupRuleOut, body=MarkupRuleBody, errors=(404,))
def set_markup_rule():
    """Set a scope's markup (a supplier, a brand, both or neither): a scope's rule set again takes the new value."""
    rule = markup.set_rule(current_user, json_body())
    return jsonify(rule_view(rule, markup.supplier_names(current_user.shop_id)))


@bp.delete("/markup-rules/<int:rule_id>")
@shop_role("manager")
@documented(StatusTrue, errors=(404,))
def delete_markup_rule(rule_id: int):
    """Remove a markup rule."""
    markup.delete_rule(markup.get_rule(current_user, rule_id))
    return jsonify(status=True)


@bp.get("/offer-settings")
@shop_role("manager")
@documented(OfferSettingsOut)
def get_offer_settings():
    """How the shop's offers show prices: with or without KDV, and the KDV rate."""
    return jsonify(offer_settings_view(settings_of(current_user.shop_id)))


@bp.put("/offer-settings")
@shop_role("manager")
@documented(OfferSettingsOut, body=OfferSettingsBody)
def save_offer_settings():
    """Change how the shop's offers show prices (the fields given)."""
    return jsonify(offer_settings_view(markup.save_settings(current_user.shop_id, json_body())))
