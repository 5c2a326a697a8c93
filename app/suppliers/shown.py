"""What the API and the pages show of a supplier: its terms and the state of its list, never its secret."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from app.suppliers.models import Supplier, SupplierBrandDiscount


def _when(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment else None


def discount_shown(discount: SupplierBrandDiscount) -> dict[str, Any]:
    return {"brand": discount.brand, "discountPercent": str(discount.discount_percent)}


def supplier_shown(
    supplier: Supplier, discounts: list[SupplierBrandDiscount], active_import_id: int | None
) -> dict[str, Any]:
    """A supplier as the API answers it (camelCase); `hasSecret` says a password or token is kept, never which."""
    return {
        "id": supplier.id,
        "name": supplier.name,
        "currency": supplier.currency,
        "discountPercent": str(supplier.discount_percent),
        "brandDiscounts": [discount_shown(discount) for discount in discounts],
        "deliveryPromise": supplier.delivery_promise,
        "orderCutoff": supplier.order_cutoff,
        "orderEmail": supplier.order_email,
        "source": supplier.source,
        "url": supplier.url,
        "authKind": supplier.auth_kind,
        "authUser": supplier.auth_user,
        "authHeader": supplier.auth_header,
        "hasSecret": bool(supplier.auth_secret),
        "pullIntervalMinutes": supplier.pull_interval_minutes,
        "lastRefreshedAt": _when(supplier.last_refreshed_at),
        "lastPullAt": _when(supplier.last_pull_at),
        "lastPullError": supplier.last_pull_error,
        "activeImportId": active_import_id,
        "createdAt": _when(supplier.created_at),
    }
