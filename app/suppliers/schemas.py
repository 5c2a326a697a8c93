"""The suppliers API's models for the OpenAPI document (the routes read and answer by hand; app.core.openapi)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from app.core.openapi import ApiModel
from app.shelf.schemas import ShelfImportOut, ShelfRowError

Currency = Literal["TRY", "EUR", "USD", "GBP"]


class SupplierBody(ApiModel):
    """A supplier's terms; on a change, a field left out keeps its value (a secret left out stays as it is)."""

    name: str | None = Field(None, max_length=120, examples=["Başbuğ Otomotiv"])
    currency: Currency | None = None
    discount_percent: str | float | None = Field(None, description="The general discount, 0 to 100.")
    delivery_promise: str | None = Field(None, max_length=200, examples=["14:00'e kadar sipariş, 17:00 teslim"])
    order_cutoff: str | None = Field(None, description="Orders until this time (HH:MM) go out today.")
    order_email: str | None = Field(None, max_length=254)
    source: Literal["upload", "url"] | None = Field(None, description="The list is uploaded, or pulled from `url`.")
    url: str | None = Field(None, max_length=2000, description="HTTP(S); private addresses are refused.")
    auth_kind: Literal["none", "basic", "token"] | None = None
    auth_user: str | None = Field(None, description="Basic authentication's user name.")
    auth_header: str | None = Field(None, description="The token's header name, e.g. X-Api-Key.")
    auth_secret: str | None = Field(None, description="The password or token: stored encrypted, never shown back.")
    pull_interval_minutes: int | None = Field(None, ge=15, le=10080)


class BrandDiscountBody(ApiModel):
    discount_percent: str | float = Field(description="The discount on the brand, 0 to 100.")


class BrandDiscount(ApiModel):
    brand: str
    discount_percent: str


class SupplierOut(ApiModel):
    id: int
    name: str
    currency: Currency
    discount_percent: str
    brand_discounts: list[BrandDiscount]
    delivery_promise: str | None
    order_cutoff: str | None
    order_email: str | None
    source: Literal["upload", "url"]
    url: str | None
    auth_kind: Literal["none", "basic", "token"]
    auth_user: str | None
    auth_header: str | None
    has_secret: bool = Field(description="Whether a password or token is kept (it is never shown).")
    pull_interval_minutes: int | None
    last_refreshed_at: str | None = Field(description="When the list in use was imported.")
    last_pull_at: str | None
    last_pull_error: str | None = Field(description="Why the last pull failed; the list in use stayed.")
    active_import_id: int | None
    created_at: str


class SupplierList(ApiModel):
    items: list[SupplierOut]


class SupplierUploadForm(ApiModel):
    file: bytes = Field(
        json_schema_extra={"format": "binary", "contentMediaType": "application/octet-stream"},
        description="The list: CSV (UTF-8 or Windows-1254), Excel .xlsx or XML (one element per line), at most 50 MB.",
    )


class SupplierMappingBody(ApiModel):
    """Each field's column, 0-based (null: not in the file); an own code or OEM column is required."""

    own_code: int | None = Field(None, ge=0, description="The supplier's own code.")
    oem: int | None = Field(None, ge=0, description="An OEM number column.")
    oe: int | None = Field(None, ge=0, description="Free text of OE numbers (several, with makes).")
    ean: int | None = Field(None, ge=0)
    brand: int | None = Field(None, ge=0)
    name: int | None = Field(None, ge=0)
    price: int | None = Field(None, ge=0)
    currency: int | None = Field(None, ge=0)
    stock: int | None = Field(None, ge=0, description='A count, or words such as "Var" / "Yok".')


class SupplierImportOut(ShelfImportOut):
    file_kind: Literal["csv", "xlsx", "xml"]
    origin: Literal["upload", "pull"]
    errors: list[ShelfRowError]
    mapping: SupplierMappingBody | None


class SupplierPreviewOut(SupplierImportOut):
    header: list[str]
    header_row: int | None
    rows: list[list[str]]
    guessed_mapping: SupplierMappingBody
    suggested_mapping: SupplierMappingBody = Field(
        description="The supplier's remembered mapping when its columns exist in this file, else the guessed one."
    )


class PullQueued(ApiModel):
    queued: bool = Field(description="False when a pull of this supplier is already waiting or running.")


class OfferOut(ApiModel):
    """A supplier's line offered for a number, priced as the shop buys it."""

    supplier_id: int
    supplier_name: str
    line_id: int = Field(description="The list line: send it to put this offer on a quote.")
    number: str = Field(description="The folded number the line answers to: the asked one or an equivalent's.")
    via: str | None = Field(description="For an equivalent, its link's source (catalog, supplier, shelf, member).")
    match: str = Field(description="What the number matched on the line: own, oem, oe or ean.")
    own_code: str | None
    brand: str | None
    name: str | None
    list_price: str | None = Field(description="As the list gives it, in `currency`.")
    currency: str
    discount_percent: str = Field(description="The supplier's discount applied (its brand's when set).")
    net: str | None = Field(description="TRY after the discount, without KDV; null without a price or a rate.")
    price: str | None = Field(description="TRY as the shop reads prices: `net`, with KDV when `withKdv`.")
    with_kdv: bool
    rate: str | None = Field(description="The TCMB rate a foreign price was converted by.")
    rate_date: str | None
    rate_stale: bool = Field(description="The rate is older than two working days.")
    stock: int | None
    stock_text: str | None
    in_stock: bool | None = Field(description="Null when the list does not say.")
    delivery: str | None = Field(description="The supplier's delivery promise as written.")
    arrives_on: str | None = Field(description="The day an order placed now arrives by the cut-off.")
    cheapest: bool
    fastest: bool


class PageOffersOut(ApiModel):
    """The offers of a page's numbers from the caller's shop's suppliers."""

    day: str = Field(description="The Istanbul day the offers were priced on.")
    by_number: dict[str, list[OfferOut]] = Field(description="Folded number to its offers, best first.")


class MarkupRuleBody(ApiModel):
    """A scope's markup: a scope's rule set again takes the new value."""

    supplier_id: int | None = Field(None, description="One supplier of the shop; null for any supplier.")
    brand: str | None = Field(None, max_length=80, description="One brand; null for any brand.")
    kind: Literal["percent", "fixed"] = "percent"
    value: str | float = Field(description='A percent from 0 to 1000, or TRY added from 0 to 1,000,000 ("12,5").')


class MarkupRuleOut(ApiModel):
    id: int
    supplier_id: int | None
    supplier_name: str | None
    brand: str | None
    kind: Literal["percent", "fixed"]
    value: str
    scope: Literal["supplier_brand", "brand", "supplier", "default"] = Field(
        description="The most specific rule wins: supplier and brand, brand, supplier, the shop's default."
    )


class MarkupRuleList(ApiModel):
    items: list[MarkupRuleOut]


class OfferSettingsBody(ApiModel):
    with_kdv: bool | None = Field(None, description="Offers' prices shown with KDV (else net, as bought).")
    kdv_rate: str | float | None = Field(
        None, description="The shop's one KDV rate, 0 to 100 (percent): its offers' and its next quotes'."
    )


class OfferSettingsOut(ApiModel):
    with_kdv: bool
    kdv_rate: str


class OffersQuery(ApiModel):
    number: str = Field(max_length=60, description="A part number as typed: OEM, aftermarket, EAN.")


class NumberOffersOut(ApiModel):
    number: str = Field(description="The number, folded, upper case.")
    day: str = Field(description="The Istanbul day the offers were priced on.")
    offers: list[OfferOut] = Field(description="Best first: in stock, then cheapest.")


class SuggestionOut(ApiModel):
    """A known number close to one a line states: an offer only once a manager confirms it."""

    id: int
    own_code: str = Field(description="The supplier's code of the line (its identity across the list's refreshes).")
    brand: str | None
    name: str | None
    oem_code: str | None
    oe_text: str | None
    number: str = Field(description="The line's number as read (folded).")
    candidate: str = Field(description="The known catalog number it is close to (folded).")
    reason: Literal["similar_number", "brand_hint"]
    reason_text: str
    score: float = Field(description="Similarity in percent.")
    status: Literal["pending", "confirmed", "rejected"]


class SuggestionList(ApiModel):
    items: list[SuggestionOut]


class SuggestionDecisionsBody(ApiModel):
    ids: list[int] = Field(description="The suggestions to decide, 1 to 500 of them.")
    decision: Literal["confirm", "reject"]


class SuggestionDecisions(ApiModel):
    decided: int = Field(description="How many were decided now (another supplier's or a decided one is passed over).")
