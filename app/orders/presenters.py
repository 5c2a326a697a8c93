"""What the orders API answers: waiting lines per supplier, and an order with its lines and total."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Any

from app.orders import sheet
from app.orders.models import SupplierOrder, SupplierOrderLine
from app.quotes.models import QuoteLine
from app.suppliers.models import Supplier


def _money(value: Decimal | None) -> str | None:
    return None if value is None else str(value)


def _iso(value: datetime | None) -> str | None:
    return None if value is None else value.isoformat()


def waiting_view(supplier: Supplier, lines: list[QuoteLine]) -> dict[str, Any]:
    return {
        "supplierId": supplier.id,
        "supplierName": supplier.name,
        "orderEmail": supplier.order_email,
        "lines": [
            {
                "id": line.id,
                "quoteId": line.quote_id,
                "oemCode": line.oem_code,
                "offerCode": line.offer_code,
                "brand": line.offer_brand,
                "name": line.name,
                "quantity": str(line.quantity),
                "unitCost": _money(line.unit_cost),
            }
            for line in lines
        ],
    }


def order_total(lines: list[SupplierOrderLine]) -> Decimal:
    return sum((total for line in lines if (total := sheet.line_total(line)) is not None), Decimal("0.00"))


def order_view(order: SupplierOrder, supplier: Supplier, lines: list[SupplierOrderLine]) -> dict[str, Any]:
    return {
        "id": order.id,
        "supplierId": supplier.id,
        "supplierName": supplier.name,
        "status": order.status,
        "createdAt": _iso(order.created_at),
        "sentAt": _iso(order.sent_at),
        "sentTo": order.sent_to,
        "orderedAt": _iso(order.ordered_at),
        "arrivedAt": _iso(order.arrived_at),
        "total": str(order_total(lines)),
        "lines": [
            {
                "id": line.id,
                "quoteLineId": line.quote_line_id,
                "quoteId": line.quote_id,
                "oemCode": line.oem_code,
                "offerCode": line.offer_code,
                "brand": line.brand,
                "name": line.name,
                "quantity": str(line.quantity),
                "unitCost": _money(line.unit_cost),
                "total": _money(sheet.line_total(line)),
            }
            for line in lines
        ],
    }
