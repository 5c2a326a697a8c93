"""A shop's orders to its suppliers: the quote lines waiting to be ordered, the open order per supplier collecting
them, sending it (an e-mail with the XLSX, once), downloading it and marking it ordered and arrived.

Every order is read through its shop (`order_of`): another shop's id is "not found". A double click changes nothing
twice: a quote line is on one order at most (a unique column, the insert does nothing on a conflict), an order is sent
by one conditional UPDATE (open -> sent) and its mail has a once-key in the outbox, and a mark is a conditional UPDATE
from the states it may come from.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from flask_babel import force_locale
from flask_babel import gettext as _

from app.accounts.models import User
from app.core.db import insert_for, utcnow
from app.core.errors import ApiError
from app.core.validation import is_id
from app.extensions import db
from app.notifications.services import send_email
from app.notifications.transport import Attachment
from app.orders import sheet
from app.orders.models import OPEN_ONLY, SupplierOrder, SupplierOrderLine
from app.quotes.models import Quote, QuoteLine
from app.shops.models import Shop
from app.suppliers import services as suppliers
from app.suppliers.models import Supplier

log = logging.getLogger(__name__)

LINES_PER_ADD_MAX = 200
WAITING_MAX = 500
ORDERS_SHOWN = 50
MAIL_TEMPLATE = "supplier_order"
# The states a mark may come from: "ordered" after the mail, or straight from open when the list went another way.
MARK_FROM = {"ordered": ("open", "sent"), "arrived": ("ordered",)}


@dataclass(frozen=True)
class Waiting:
    """A supplier and its quote lines that are on no order yet."""

    supplier: Supplier
    lines: list[QuoteLine]


@dataclass(frozen=True)
class Added:
    order: SupplierOrder
    added: int


# --- reading ------------------------------------------------------------------------------------------------------


def order_of(member: User, order_id: int) -> SupplierOrder:
    """The order `order_id` of the member's shop; another shop's, or none, is not found."""
    order = db.session.get(SupplierOrder, order_id) if is_id(order_id) else None
    if order is None or order.shop_id != member.shop_id:
        raise ApiError("order_not_found", _("No such order was found."), 404)
    return order


def lines_of(order: SupplierOrder) -> list[SupplierOrderLine]:
    query = sa.select(SupplierOrderLine).where(SupplierOrderLine.order_id == order.id).order_by(SupplierOrderLine.id)
    return list(db.session.scalars(query))


def supplier_of(order: SupplierOrder) -> Supplier:
    return db.session.get(Supplier, order.supplier_id)


def orders_of(member: User, limit: int = ORDERS_SHOWN) -> list[tuple[SupplierOrder, Supplier, list[SupplierOrderLine]]]:
    """The shop's latest orders, open ones first, each with its supplier and lines."""
    rows = db.session.execute(
        sa.select(SupplierOrder, Supplier)
        .join(Supplier, Supplier.id == SupplierOrder.supplier_id)
        .where(SupplierOrder.shop_id == member.shop_id)
        .order_by((SupplierOrder.status == "open").desc(), SupplierOrder.id.desc())
        .limit(limit)
    ).all()
    lines: dict[int, list[SupplierOrderLine]] = {order.id: [] for order, _supplier in rows}
    if lines:
        query = (
            sa.select(SupplierOrderLine)
            .where(SupplierOrderLine.order_id.in_(lines.keys()))
            .order_by(SupplierOrderLine.id)
        )
        for line in db.session.scalars(query):
            lines[line.order_id].append(line)
    return [(order, supplier, lines[order.id]) for order, supplier in rows]


def _not_on_an_order() -> sa.ColumnElement[bool]:
    return ~sa.exists().where(SupplierOrderLine.quote_line_id == QuoteLine.id)


def waiting_lines(member: User) -> list[Waiting]:
    """The shop's quote lines with a supplier's offer chosen and on no order yet, grouped per supplier (by name)."""
    rows = db.session.execute(
        sa.select(QuoteLine, Supplier)
        .join(Quote, Quote.id == QuoteLine.quote_id)
        .join(Supplier, Supplier.id == QuoteLine.supplier_id)
        .where(Quote.shop_id == member.shop_id, Supplier.shop_id == member.shop_id, _not_on_an_order())
        .order_by(Supplier.name, Supplier.id, QuoteLine.quote_id, QuoteLine.sort_order, QuoteLine.id)
        .limit(WAITING_MAX)
    ).all()
    groups: dict[int, Waiting] = {}
    for line, supplier in rows:
        groups.setdefault(supplier.id, Waiting(supplier, [])).lines.append(line)
    return list(groups.values())


# --- writing ------------------------------------------------------------------------------------------------------


def quote_line_ids(value: Any) -> list[int]:
    """The ids a request names (a list of 1 to LINES_PER_ADD_MAX ids), without repeats; anything else is a 400."""
    if not isinstance(value, list) or not value or len(value) > LINES_PER_ADD_MAX or not all(map(is_id, value)):
        raise ApiError(
            "invalid_quote_lines",
            _("Choose from 1 to %(max)d quote lines to order.", max=LINES_PER_ADD_MAX),
            400,
        )
    return list(dict.fromkeys(value))


def supplier_id_of(value: Any) -> int:
    if not is_id(value):
        raise ApiError("invalid_supplier", _("Choose the supplier to order from."), 400)
    return value


def add_to_order(member: User, supplier_id: int, line_ids: Iterable[int]) -> Added:
    """Put the quote lines on the supplier's open order (started when there is none). A line already on an order is
    left where it is, so a second click adds nothing; the lines must be the shop's, with this supplier's offer."""
    supplier = suppliers.get_supplier(member, supplier_id)
    wanted = list(line_ids)
    lines = list(
        db.session.scalars(
            sa.select(QuoteLine)
            .join(Quote, Quote.id == QuoteLine.quote_id)
            .where(QuoteLine.id.in_(wanted), Quote.shop_id == member.shop_id, QuoteLine.supplier_id == supplier.id)
            .order_by(QuoteLine.quote_id, QuoteLine.sort_order, QuoteLine.id)
        )
    )
    if len(lines) != len(wanted):
        raise ApiError("quote_line_not_found", _("Some of these quote lines were not found for this supplier."), 404)
    pending = [line for line in lines if _order_holding(line.id) is None]
    if not pending:  # all ordered already (a double click): the order the first click put them on
        return Added(db.session.get(SupplierOrder, _order_holding(lines[0].id)), 0)
    order = _open_order(member, supplier)
    added = sum(_added(order, line) for line in pending)
    log.info("order %s: %s lines added of %s", order.id, added, len(wanted))
    return Added(order, added)


def _order_holding(quote_line_id: int) -> int | None:
    return db.session.scalar(
        sa.select(SupplierOrderLine.order_id).where(SupplierOrderLine.quote_line_id == quote_line_id)
    )


def _open_order(member: User, supplier: Supplier) -> SupplierOrder:
    """The supplier's open order, started by this member when there is none (two at once start one)."""
    db.session.execute(
        insert_for(db.session, SupplierOrder)
        .values(
            shop_id=member.shop_id, supplier_id=supplier.id, status="open", created_by=member.id, created_at=utcnow()
        )
        .on_conflict_do_nothing(index_elements=["shop_id", "supplier_id"], index_where=sa.text(OPEN_ONLY))
    )
    return db.session.scalars(
        sa.select(SupplierOrder).where(
            SupplierOrder.shop_id == member.shop_id,
            SupplierOrder.supplier_id == supplier.id,
            SupplierOrder.status == "open",
        )
    ).one()


def _added(order: SupplierOrder, line: QuoteLine) -> bool:
    inserted = db.session.scalar(
        insert_for(db.session, SupplierOrderLine)
        .values(
            order_id=order.id,
            quote_line_id=line.id,
            quote_id=line.quote_id,
            oem_code=line.oem_code,
            offer_code=line.offer_code,
            brand=line.offer_brand,
            name=line.name,
            quantity=line.quantity,
            unit_cost=line.unit_cost,
            created_at=utcnow(),
        )
        .on_conflict_do_nothing(index_elements=["quote_line_id"])
        .returning(SupplierOrderLine.id)
    )
    return inserted is not None


def xlsx(order: SupplierOrder) -> tuple[bytes, str]:
    """The order's XLSX file and its name."""
    return sheet.workbook(lines_of(order)), f"siparis-{order.id}.xlsx"


def send(member: User, order: SupplierOrder) -> bool:
    """Mail the supplier its order with the XLSX, once: the order turns from open to sent in one conditional UPDATE
    and the mail has the order's once-key, so a second click sends nothing (False). A sent order is frozen."""
    supplier = supplier_of(order)
    if order.status == "sent":
        return False
    if order.status != "open":
        raise _not_now(order)
    if not supplier.order_email:
        raise ApiError(
            "no_order_email",
            _("This supplier has no order e-mail address: add it to the supplier, or download the list."),
            409,
        )
    now = utcnow()
    taken = db.session.execute(
        sa.update(SupplierOrder)
        .where(SupplierOrder.id == order.id, SupplierOrder.status == "open")
        .values(status="sent", sent_at=now, sent_to=supplier.order_email)
        .execution_options(synchronize_session=False)
    ).rowcount
    db.session.refresh(order)
    if not taken:
        if order.status == "sent":
            return False
        raise _not_now(order)
    lines = lines_of(order)
    with force_locale("tr"):  # the supplier reads Turkish, whatever the manager's interface language
        data = sheet.workbook(lines)
    message = send_email(
        supplier.order_email,
        MAIL_TEMPLATE,
        locale="tr",
        reply_to=member.email,
        dedupe_key=f"supplier-order-{order.id}-{int(order.created_at.timestamp())}",
        attachments=(Attachment(f"siparis-{order.id}.xlsx", sheet.CONTENT_TYPE, data),),
        supplier=supplier.name,
        shop=db.session.get(Shop, member.shop_id).name,
        order_id=order.id,
        line_count=len(lines),
    )
    return message is not None


def mark(member: User, order: SupplierOrder, status: Any) -> SupplierOrder:
    """Mark the order ordered (after the mail, or straight from open when the list went another way) or arrived."""
    if status not in MARK_FROM:
        raise ApiError("invalid_status", _("An order can be marked only as ordered or arrived."), 400)
    stamp = {"ordered": "ordered_at", "arrived": "arrived_at"}[status]
    taken = db.session.execute(
        sa.update(SupplierOrder)
        .where(SupplierOrder.id == order.id, SupplierOrder.status.in_(MARK_FROM[status]))
        .values(status=status, **{stamp: utcnow()})
        .execution_options(synchronize_session=False)
    ).rowcount
    db.session.refresh(order)
    if not taken:
        raise _not_now(order, status)
    log.info("order %s marked %s by %s", order.id, status, member.id)
    return order


def _not_now(order: SupplierOrder, wanted: str | None = None) -> ApiError:
    labels = status_labels()
    if wanted is None:
        message = _("This order is %(status)s: it cannot be sent again.", status=labels[order.status])
    else:
        message = _(
            "This order is %(status)s: it cannot be marked %(wanted)s.",
            status=labels[order.status],
            wanted=labels[wanted],
        )
    return ApiError("order_state", message, 409)


def status_labels() -> dict[str, str]:
    return {"open": _("open"), "sent": _("sent"), "ordered": _("ordered"), "arrived": _("arrived")}
