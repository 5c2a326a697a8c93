"""The supplier pages (/dukkan/tedarikciler): the shop's suppliers and the form to add one, a supplier's terms, brand
discounts and list (upload, pull now, when it was last refreshed and whether the last pull failed), an upload's
mapping form and the import's progress (HTMX polls a fragment; without JavaScript a refresh link); the shop's markup
rules and offer settings (/dukkan/tedarikciler/kar-kurallari); a supplier's suggested matches to confirm or reject
(/dukkan/tedarikciler/<id>/oneriler)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, flash, make_response, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext
from flask_login import current_user
from werkzeug.exceptions import RequestEntityTooLarge

from app.core.errors import ApiError
from app.core.htmx import vary_on_htmx, wants_fragment
from app.core.security import shop_role
from app.core.uploads import takes_upload
from app.shelf import imports as shelf_imports
from app.shelf.imports import status_of
from app.suppliers import demo, imports, markup, pulls, services, suggestions
from app.suppliers.models import Supplier, SupplierImport
from app.suppliers.offers import settings_of
from app.suppliers.presenters import rule_scope, suggestion_view
from app.suppliers.rows import FIELDS
from app.suppliers.throttles import upload_throttle

bp = Blueprint("suppliers_views", __name__, url_prefix="/dukkan/tedarikciler")

POLL_SECONDS = 1
FIELD_LABELS = {
    "own_code": _l("Supplier's code"),
    "oem": _l("OEM number"),
    "oe": _l("OE numbers (free text)"),
    "ean": _l("EAN / barcode"),
    "brand": _l("Brand"),
    "name": _l("Name"),
    "price": _l("Price"),
    "currency": _l("Currency"),
    "stock": _l("Stock"),
}


@bp.errorhandler(RequestEntityTooLarge)
def _too_large(_error: RequestEntityTooLarge) -> Response:
    supplier = services.get_supplier(current_user, request.view_args.get("supplier_id", 0))
    return _supplier_page(supplier, shelf_imports.too_large())


@bp.get("")
@shop_role("manager")
def suppliers():
    """The shop's suppliers and the form to add one."""
    return _list_page()


@bp.post("/ornekler")
@shop_role("manager")
def add_demo():
    """`make run`'s demo distributors added to the shop, their lists pulled from the local sandbox."""
    demo.add_demo_suppliers(current_user)
    return redirect(url_for(".suppliers"), code=303)


@bp.post("")
@shop_role("manager")
def create():
    try:
        supplier = services.create(current_user, request.form)
    except ApiError as error:
        return _list_page(error)
    return redirect(url_for(".supplier", supplier_id=supplier.id), code=303)


@bp.get("/kar-kurallari")
@shop_role("manager")
def markup_rules():
    """The shop's markup rules (cost to sale price) and how its offers show prices."""
    return _markup_page()


@bp.post("/kar-kurallari")
@shop_role("manager")
def set_markup_rule():
    form = request.form
    data = {
        "supplierId": form.get("supplier_id"),
        "brand": form.get("brand", "").strip() or None,
        "kind": form.get("kind"),
        "value": form.get("value"),
    }
    try:
        markup.set_rule(current_user, data)
    except ApiError as error:
        return _markup_page(error)
    flash(_("The markup rule is saved."), "success")
    return redirect(url_for(".markup_rules"), code=303)


@bp.post("/kar-kurallari/<int:rule_id>/sil")
@shop_role("manager")
def delete_markup_rule(rule_id: int):
    markup.delete_rule(markup.get_rule(current_user, rule_id))
    flash(_("The markup rule is removed."), "success")
    return redirect(url_for(".markup_rules"), code=303)


@bp.post("/kar-kurallari/ayarlar")
@shop_role("manager")
def save_offer_settings():
    data = {"withKdv": request.form.get("with_kdv") == "1", "kdvRate": request.form.get("kdv_rate")}
    try:
        markup.save_settings(current_user.shop_id, data)
    except ApiError as error:
        return _markup_page(settings_error=error)
    flash(_("Your offer settings are saved."), "success")
    return redirect(url_for(".markup_rules"), code=303)


@bp.get("/<int:supplier_id>/oneriler")
@shop_role("manager")
def suggestions_page(supplier_id: int):
    """The supplier's lines close to a known number, each for the manager to confirm or reject."""
    found = services.get_supplier(current_user, supplier_id)
    pending = [suggestion_view(item, line) for item, line in suggestions.pending_of(found.id)]
    return render_template("suppliers/suggestions.html", supplier=found, pending=pending)


@bp.post("/<int:supplier_id>/oneriler/<int:suggestion_id>/onayla")
@shop_role("manager")
def confirm_suggestion(supplier_id: int, suggestion_id: int):
    return _decide(supplier_id, suggestion_id, "confirmed", _("Confirmed: the line is an offer for the number."))


@bp.post("/<int:supplier_id>/oneriler/<int:suggestion_id>/reddet")
@shop_role("manager")
def reject_suggestion(supplier_id: int, suggestion_id: int):
    return _decide(supplier_id, suggestion_id, "rejected", _("Rejected: it will not be suggested again."))


@bp.post("/<int:supplier_id>/oneriler/toplu")
@shop_role("manager")
def decide_suggestions(supplier_id: int):
    """The ticked suggestions confirmed or rejected at once."""
    found = services.get_supplier(current_user, supplier_id)
    try:
        ids, status = suggestions.checked_decisions(request.form.getlist("ids"), request.form.get("decision"))
    except ApiError as error:
        flash(error.message, "error")
    else:
        decided = suggestions.decide_many(found.id, ids, current_user.id, status)
        if status == "confirmed":
            done = ngettext("%(num)d suggestion confirmed.", "%(num)d suggestions confirmed.", decided)
        else:
            done = ngettext("%(num)d suggestion rejected.", "%(num)d suggestions rejected.", decided)
        flash(done, "success")
    return redirect(url_for(".suggestions_page", supplier_id=supplier_id), code=303)


def _decide(supplier_id: int, suggestion_id: int, status: str, done: str) -> Response:
    found = services.get_supplier(current_user, supplier_id)
    suggestion = suggestions.get_suggestion(found.id, suggestion_id)
    try:
        suggestions.decide(suggestion, current_user.id, status)
    except ApiError as error:
        flash(error.message, "error")
    else:
        flash(done, "success")
    return redirect(url_for(".suggestions_page", supplier_id=supplier_id), code=303)


@bp.get("/<int:supplier_id>")
@shop_role("manager")
def supplier(supplier_id: int):
    """A supplier's terms, brand discounts and list."""
    return _supplier_page(services.get_supplier(current_user, supplier_id))


@bp.post("/<int:supplier_id>")
@shop_role("manager")
def update(supplier_id: int):
    found = services.get_supplier(current_user, supplier_id)
    try:
        services.update(found, request.form)
    except ApiError as error:
        return _supplier_page(found, error)
    return redirect(url_for(".supplier", supplier_id=supplier_id), code=303)


@bp.post("/<int:supplier_id>/sil")
@shop_role("manager")
def delete(supplier_id: int):
    services.delete(services.get_supplier(current_user, supplier_id))
    return redirect(url_for(".suppliers"), code=303)


@bp.post("/<int:supplier_id>/iskontolar")
@shop_role("manager")
def set_discount(supplier_id: int):
    found = services.get_supplier(current_user, supplier_id)
    try:
        services.set_brand_discount(current_user, found, request.form.get("brand"), request.form.get("discountPercent"))
    except ApiError as error:
        return _supplier_page(found, error)
    return redirect(url_for(".supplier", supplier_id=supplier_id), code=303)


@bp.post("/<int:supplier_id>/iskontolar/<brand>/sil")
@shop_role("manager")
def delete_discount(supplier_id: int, brand: str):
    found = services.get_supplier(current_user, supplier_id)
    services.delete_brand_discount(found, brand)
    return redirect(url_for(".supplier", supplier_id=supplier_id), code=303)


@bp.post("/<int:supplier_id>/yukle")
@shop_role("manager")
@takes_upload(shelf_imports.MAX_UPLOAD_BYTES)
@upload_throttle
def upload(supplier_id: int):
    found = services.get_supplier(current_user, supplier_id)
    try:
        filename, data = shelf_imports.uploaded_file(request)
        record, _shown = imports.store_file(found, filename, data, current_user)
    except ApiError as error:
        return _supplier_page(found, error)
    return redirect(url_for(".show_import", supplier_id=supplier_id, import_id=record.id), code=303)


@bp.post("/<int:supplier_id>/cek")
@shop_role("manager")
def pull(supplier_id: int):
    found = services.get_supplier(current_user, supplier_id)
    try:
        pulls.pull_now(found)
    except ApiError as error:
        return _supplier_page(found, error)
    return redirect(url_for(".supplier", supplier_id=supplier_id), code=303)


@bp.get("/<int:supplier_id>/aktarim/<int:import_id>")
@shop_role("manager")
def show_import(supplier_id: int, import_id: int):
    """The import as far as it is: the mapping form, the progress or the result."""
    found = services.get_supplier(current_user, supplier_id)
    record = imports.get_import(found, import_id)
    if record.status == "uploaded":
        return _mapping_page(found, record, None)
    return _import_page(found, record)


@bp.post("/<int:supplier_id>/aktarim/<int:import_id>/eslestir")
@shop_role("manager")
def start(supplier_id: int, import_id: int):
    found = services.get_supplier(current_user, supplier_id)
    record = imports.get_import(found, import_id)
    chosen = {field: request.form.get(field, "") for field in FIELDS}
    try:
        imports.start(current_user, found, record, chosen)
    except ApiError as error:
        if error.code != "import_started":
            return _mapping_page(found, record, error, chosen)
    return redirect(url_for(".show_import", supplier_id=supplier_id, import_id=import_id), code=303)


@bp.get("/<int:supplier_id>/aktarim/<int:import_id>/ilerleme")
@shop_role("manager")
def progress(supplier_id: int, import_id: int):
    """The progress fragment HTMX polls (the whole import page without HTMX)."""
    found = services.get_supplier(current_user, supplier_id)
    record = imports.get_import(found, import_id)
    if not wants_fragment():
        return vary_on_htmx(make_response(_import_page(found, record)))
    fragment = render_template("shelf/_progress.html", **_import_context(found, record))
    return vary_on_htmx(make_response(fragment))


def _import_context(found: Supplier, record: SupplierImport) -> dict[str, Any]:
    return {
        "supplier": found,
        "record": record,
        "state": status_of(record),
        "poll_url": url_for(".progress", supplier_id=found.id, import_id=record.id),
        "refresh_url": url_for(".show_import", supplier_id=found.id, import_id=record.id),
        "poll_seconds": POLL_SECONDS,
    }


def _import_page(found: Supplier, record: SupplierImport) -> str:
    return render_template("suppliers/import.html", **_import_context(found, record))


def _list_page(error: ApiError | None = None) -> tuple[str, int]:
    page = render_template(
        "suppliers/suppliers.html",
        suppliers=services.suppliers_of(current_user),
        form=request.form if error else {},
        error=error.message if error else None,
        currencies=services.CURRENCIES,
        demo_suppliers=demo.available(),
    )
    return page, error.status if error else 200


def _supplier_page(found: Supplier, error: ApiError | None = None) -> tuple[str, int]:
    active_id = imports.active_import_id(found.id)
    recent = imports.imports_of(found)
    page = render_template(
        "suppliers/supplier.html",
        supplier=found,
        discounts=services.brand_discounts(found),
        active=next((record for record in recent if record.id == active_id), None),
        recent=recent,
        error=error.message if error else None,
        currencies=services.CURRENCIES,
        max_mb=shelf_imports.MAX_UPLOAD_BYTES // (1024 * 1024),
    )
    return page, error.status if error else 200


def _mapping_page(found: Supplier, record: SupplierImport, error: ApiError | None, chosen: dict | None = None):
    try:
        shown = imports.preview_of(record)
    except ApiError as refusal:
        return _supplier_page(found, refusal)
    mapping = chosen if chosen is not None else imports.suggested_mapping(found, shown)
    selected = {field: "" if mapping.get(field) in (None, "") else str(mapping[field]) for field in FIELDS}
    page = render_template(
        "suppliers/preview.html",
        supplier=found,
        record=record,
        preview=shown,
        mapping=selected,
        fields=FIELD_LABELS,
        error=error.message if error else None,
    )
    return page, error.status if error else 200


def _markup_page(error: ApiError | None = None, settings_error: ApiError | None = None) -> tuple[str, int]:
    shop_id = current_user.shop_id
    page = render_template(
        "suppliers/markup.html",
        rules=markup.rules_of(shop_id),
        names=markup.supplier_names(shop_id),
        suppliers=services.suppliers_of(current_user),
        settings=settings_of(shop_id),
        scope_of=rule_scope,
        form=request.form if error or settings_error else {},
        error=error.message if error else None,
        settings_error=settings_error.message if settings_error else None,
    )
    refusal = error or settings_error
    return page, refusal.status if refusal else 200
