"""The orders API (/api/orders): the quote lines waiting to be ordered per supplier, a supplier's open order filled
with them, an order sent by mail (once), its XLSX, and its marks (ordered, arrived). A manager's; another shop's order
is not found (404)."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify
from flask_login import current_user

from app.core.openapi import documented
from app.core.security import shop_role
from app.core.validation import json_body
from app.orders import presenters, services, sheet
from app.orders.models import SupplierOrder
from app.orders.schemas import OrderAddBody, OrderAdded, OrderList, OrderMarkBody, OrderOut, OrderSent, WaitingList

bp = Blueprint("orders_api", __name__, url_prefix="/api/orders")


def _shown(order: SupplierOrder) -> dict:
    return presenters.order_view(order, services.supplier_of(order), services.lines_of(order))


@bp.get("/waiting")
@shop_role("manager")
@documented(WaitingList)
def waiting_lines():
    """The quote lines with a supplier's offer chosen that are on no order yet, per supplier."""
    groups = services.waiting_lines(current_user)
    return jsonify(items=[presenters.waiting_view(group.supplier, group.lines) for group in groups])


@bp.get("")
@shop_role("manager")
@documented(OrderList)
def list_orders():
    """The shop's latest orders, open ones first."""
    shown = services.orders_of(current_user)
    return jsonify(items=[presenters.order_view(order, supplier, lines) for order, supplier, lines in shown])


@bp.post("")
@shop_role("manager")
@documented(OrderAdded, body=OrderAddBody, errors=(404,))
def add_to_order():
    """Put quote lines on their supplier's open order (a line already on an order is left where it is)."""
    data = json_body()
    supplier_id = services.supplier_id_of(data.get("supplierId"))
    line_ids = services.quote_line_ids(data.get("quoteLineIds"))
    added = services.add_to_order(current_user, supplier_id, line_ids)
    return jsonify(order=_shown(added.order), added=added.added)


@bp.get("/<int:order_id>")
@shop_role("manager")
@documented(OrderOut, errors=(404,))
def get_order(order_id: int):
    """An order with its lines and total."""
    return jsonify(_shown(services.order_of(current_user, order_id)))


@bp.post("/<int:order_id>/send")
@shop_role("manager")
@documented(OrderSent, errors=(404, 409))
def send_order(order_id: int):
    """Mail the supplier its order with the XLSX list, once (a second call sends nothing)."""
    order = services.order_of(current_user, order_id)
    mailed = services.send(current_user, order)
    return jsonify(order=_shown(order), mailed=mailed)


@bp.get("/<int:order_id>/xlsx")
@shop_role("manager")
@documented(None, errors=(404,), extra={})
def order_xlsx(order_id: int):
    """The order's lines as an Excel (.xlsx) file."""
    data, name = services.xlsx(services.order_of(current_user, order_id))
    response = Response(data, content_type=sheet.CONTENT_TYPE)
    response.headers.set("Content-Disposition", "attachment", filename=name)
    return response


@bp.post("/<int:order_id>/mark")
@shop_role("manager")
@documented(OrderOut, body=OrderMarkBody, errors=(404, 409))
def mark_order(order_id: int):
    """Mark the order ordered (after its mail, or when its list went another way) or arrived."""
    data = json_body()
    order = services.order_of(current_user, order_id)
    services.mark(current_user, order, data.get("status"))
    return jsonify(_shown(order))
