"""The orders API's models for the OpenAPI document (the routes read and answer by hand; app.core.openapi)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from app.core.openapi import ApiModel

OrderStatus = Literal["open", "sent", "ordered", "arrived"]


class WaitingLine(ApiModel):
    id: int = Field(description="The quote line's id.")
    quote_id: int
    oem_code: str | None
    offer_code: str | None = Field(description="The supplier's own code.")
    brand: str | None
    name: str
    quantity: str
    unit_cost: str | None = Field(description="Net TRY, without KDV.")


class WaitingSupplier(ApiModel):
    supplier_id: int
    supplier_name: str
    order_email: str | None
    lines: list[WaitingLine]


class WaitingList(ApiModel):
    items: list[WaitingSupplier]


class OrderLineOut(ApiModel):
    id: int
    quote_line_id: int | None
    quote_id: int | None
    oem_code: str | None
    offer_code: str | None
    brand: str | None
    name: str
    quantity: str
    unit_cost: str | None
    total: str | None


class OrderOut(ApiModel):
    id: int
    supplier_id: int
    supplier_name: str
    status: OrderStatus
    created_at: str
    sent_at: str | None
    sent_to: str | None
    ordered_at: str | None
    arrived_at: str | None
    total: str = Field(description="Net TRY, without KDV.")
    lines: list[OrderLineOut]


class OrderList(ApiModel):
    items: list[OrderOut]


class OrderAddBody(ApiModel):
    """Quote lines of one supplier to put on its open order; a line already on an order stays where it is."""

    supplier_id: int = Field(ge=1)
    quote_line_ids: list[int] = Field(min_length=1, max_length=200)


class OrderAdded(ApiModel):
    order: OrderOut
    added: int = Field(description="How many lines this request added (0 when all were on an order already).")


class OrderSent(ApiModel):
    order: OrderOut
    mailed: bool = Field(description="Whether this request wrote the mail (false: it was sent before).")


class OrderMarkBody(ApiModel):
    status: Literal["ordered", "arrived"]
