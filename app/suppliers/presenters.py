"""What the API and the pages show of a supplier and its list imports: its terms and the state of its list, never
its secret."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Any

from flask_babel import gettext as _

from app.shelf import reading
from app.shelf.imports import public_mapping, status_of
from app.suppliers import imports, services
from app.suppliers.models import (
    MarkupRule,
    OfferSettings,
    Supplier,
    SupplierBrandDiscount,
    SupplierImport,
    SupplierLine,
    SupplierSuggestion,
)
from app.suppliers.offers import Offer


def _when(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment else None


def discount_shown(discount: SupplierBrandDiscount) -> dict[str, Any]:
    return {"brand": discount.brand, "discountPercent": str(discount.discount_percent)}


def supplier_view(supplier: Supplier) -> dict[str, Any]:
    """A supplier as the API answers it (camelCase); `hasSecret` says a password or token is kept, never which."""
    return {
        "id": supplier.id,
        "name": supplier.name,
        "currency": supplier.currency,
        "discountPercent": str(supplier.discount_percent),
        "brandDiscounts": [discount_shown(discount) for discount in services.brand_discounts(supplier)],
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
        "activeImportId": imports.active_import_id(supplier.id),
        "createdAt": _when(supplier.created_at),
    }


def import_shown(record: SupplierImport) -> dict[str, Any]:
    return {**status_of(record), "origin": record.origin}


def preview_shown(supplier: Supplier, record: SupplierImport, shown: reading.Preview) -> dict[str, Any]:
    """The upload's answer: the import, the file's header and first rows, and the mapping to confirm."""
    return {
        **import_shown(record),
        "header": shown.header,
        "headerRow": shown.header_row + 1 if shown.header_row is not None else None,
        "rows": shown.rows,
        "guessedMapping": public_mapping(imports.guessed_mapping(shown)),
        "suggestedMapping": public_mapping(imports.suggested_mapping(supplier, shown)),
    }


def offer_view(offer: Offer) -> dict[str, Any]:
    """An offer as the API and the pages read it (Offer.view)."""
    return offer.view


def offers_view(found: dict[str, tuple[Offer, ...]]) -> dict[str, list[dict[str, Any]]]:
    return {key: [offer_view(offer) for offer in offers] for key, offers in found.items()}


def rule_scope(rule: MarkupRule) -> str:
    """supplier_brand, brand, supplier or default: how specific the rule is (the most specific wins)."""
    if rule.supplier_id is not None:
        return "supplier_brand" if rule.brand_key else "supplier"
    return "brand" if rule.brand_key else "default"


def rule_view(rule: MarkupRule, names: dict[int, str]) -> dict[str, Any]:
    return {
        "id": rule.id,
        "supplierId": rule.supplier_id,
        "supplierName": names.get(rule.supplier_id) if rule.supplier_id is not None else None,
        "brand": rule.brand,
        "kind": rule.kind,
        "value": str(rule.value),
        "scope": rule_scope(rule),
    }


def offer_settings_view(settings: OfferSettings) -> dict[str, Any]:
    return {"withKdv": bool(settings.with_kdv), "kdvRate": str(Decimal(settings.kdv_rate).quantize(Decimal("0.01")))}


def suggestion_reason(reason: str) -> str:
    """Why a number is suggested, as a manager reads it."""
    if reason == "brand_hint":
        return _("The brand named before the number makes numbers of this shape, and the number is one edit away.")
    return _("The number is one edit away (a character changed, missing or two swapped).")


def suggestion_view(suggestion: SupplierSuggestion, line: SupplierLine | None = None) -> dict[str, Any]:
    """A suggestion as the API answers it, with its line in the list in use (blank when the list no longer has it)."""
    return {
        "id": suggestion.id,
        "ownCode": suggestion.own_code,
        "brand": line.brand if line else None,
        "name": line.name if line else None,
        "oemCode": line.oem_code if line else None,
        "oeText": line.oe_text if line else None,
        "number": suggestion.number_key.upper(),
        "candidate": suggestion.candidate_key.upper(),
        "reason": suggestion.reason,
        "reasonText": suggestion_reason(suggestion.reason),
        "score": suggestion.score,
        "status": suggestion.status,
    }
