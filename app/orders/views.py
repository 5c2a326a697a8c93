"""The order pages (/dukkan/siparisler): the quote lines waiting per supplier with a form to put the chosen ones on
the supplier's open order, and each order with its lines and its buttons (send by mail, download the XLSX, mark ordered,
mark arrived). Every form answers 303 back to the page; a refusal re-renders the page with its message and status."""

from __future__ import annotations

from flask import Blueprint, Response, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_login import current_user

from app.core.errors import ApiError
from app.core.security import shop_role
from app.orders import presenters, services, sheet

bp = Blueprint("orders_views", __name__, url_prefix="/dukkan/siparisler")


@bp.get("")
@shop_role("manager")
def orders():
    """The lines waiting per supplier and the shop's orders."""
    return _page()


@bp.post("")
@shop_role("manager")
def add():
    try:
        supplier_id = services.supplier_id_of(_form_id(request.form.get("supplier_id")))
        line_ids = services.quote_line_ids([_form_id(value) for value in request.form.getlist("quote_line_ids")])
        added = services.add_to_order(current_user, supplier_id, line_ids)
    except ApiError as error:
        return _page(error)
    flash(_("Lines put on the order list: %(count)d.", count=added.added), "success")
    return redirect(url_for(".orders", _anchor=f"siparis-{added.order.id}"), code=303)


@bp.post("/<int:order_id>/gonder")
@shop_role("manager")
def send(order_id: int):
    order = services.order_of(current_user, order_id)
    try:
        mailed = services.send(current_user, order)
    except ApiError as error:
        return _page(error)
    sent = _("The order was sent to %(address)s.", address=order.sent_to) if mailed else _("It was sent before.")
    flash(sent, "success")
    return redirect(url_for(".orders", _anchor=f"siparis-{order.id}"), code=303)


@bp.get("/<int:order_id>/siparis.xlsx")
@shop_role("manager")
def download(order_id: int) -> Response:
    data, name = services.xlsx(services.order_of(current_user, order_id))
    response = Response(data, content_type=sheet.CONTENT_TYPE)
    response.headers.set("Content-Disposition", "attachment", filename=name)
    return response


@bp.post("/<int:order_id>/durum")
@shop_role("manager")
def mark(order_id: int):
    order = services.order_of(current_user, order_id)
    try:
        services.mark(current_user, order, request.form.get("status"))
    except ApiError as error:
        return _page(error)
    flash(_("The order is marked %(status)s.", status=services.status_labels()[order.status]), "success")
    return redirect(url_for(".orders", _anchor=f"siparis-{order.id}"), code=303)


def _form_id(value: str | None) -> int | str | None:
    """A form's id as a number when it is one (the service refuses anything else)."""
    text = (value or "").strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 12 else text


def _page(error: ApiError | None = None) -> tuple[str, int]:
    page = render_template(
        "orders/orders.html",
        waiting=services.waiting_lines(current_user),
        orders=services.orders_of(current_user),
        labels=services.status_labels(),
        line_total=sheet.line_total,
        order_total=presenters.order_total,
        error=error.message if error else None,
    )
    return page, error.status if error else 200
