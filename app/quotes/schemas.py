"""What the quotes API (app.quotes.api) reads and answers, for the OpenAPI document."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from app.core.openapi import ApiModel

Amount = str | float | int

AMOUNT = 'A decimal string ("1250.50"), also read as a clerk types it ("1.250,50"), or a JSON number.'


class QuoteCreate(ApiModel):
    vehicle_id: int | None = Field(default=None, description="A vehicle the plan opens; its title and VIN are kept.")
    customer: str | None = Field(default=None, max_length=120)


class QuoteLineCreate(ApiModel):
    kind: Literal["part", "free"] = "part"
    offer: int | None = Field(
        default=None,
        description="kind part: a supplier's offer (its list's line id): its cost kept, its price by the markup rules.",
    )
    part_id: int | None = Field(
        default=None, description="kind part: a part row of the quote's vehicle (with an offer: optional, its name)."
    )
    name: str | None = Field(default=None, max_length=300, description="kind free: what the line is (labour...).")
    quantity: Amount | None = Field(default=None, description="Above 0, at most 100,000; a part's row gives it.")
    unit_price: Amount | None = Field(
        default=None, description=f"0 to 1,000,000,000 lira; a part's comes from the shelf list. {AMOUNT}"
    )


class QuoteLineEdit(ApiModel):
    name: str | None = Field(default=None, max_length=300)
    quantity: Amount | None = None
    unit_price: Amount | None = Field(default=None, description=f"null clears it. {AMOUNT}")


class QuoteEdit(ApiModel):
    kdv_rate: Amount = Field(description="This quote's KDV rate, 0 to 100 (percent); the settings' is for new quotes.")


class QuoteSettingsIn(ApiModel):
    shop_name: str | None = Field(default=None, max_length=120)
    phone: str | None = Field(default=None, max_length=40)
    kdv_rate: Amount = Field(
        description="0 to 100 (percent): the shop's one KDV rate, of its next quotes and its offers' prices."
    )


class QuoteSettings(ApiModel):
    shop_name: str | None
    phone: str | None
    kdv_rate: str


class QuoteMargin(ApiModel):
    """The dealer's cost and margin: never on the customer's link."""

    cost: str = Field(description="quantity × unit cost (net TRY, without KDV).")
    amount: str = Field(description="The total (without KDV) less the cost.")
    percent: str | None = Field(description="The margin's percent of the total; null for a total of 0.")


class QuoteLineOffer(ApiModel):
    supplier_id: int | None
    supplier_name: str | None
    line_id: int | None = Field(description="The supplier list's line; gone once a newer list replaces it.")
    brand: str | None
    code: str | None = Field(description="The supplier's own code.")
    unit_cost: str | None = Field(description="Net TRY after the supplier's discount, without KDV.")


class QuoteLineOut(ApiModel):
    id: int
    kind: Literal["part", "free"]
    part_id: int | None
    category_id: int | None = Field(description="The drawing the part was added from.")
    oem_code: str | None
    name: str
    quantity: str
    unit_price: str | None = Field(description="Lira, two decimals; null until the dealer sets it.")
    total: str | None = Field(description="quantity × unit price, rounded half up to kuruş.")
    offer: QuoteLineOffer | None = Field(description="The supplier's offer the line was priced from, as it was then.")
    margin: QuoteMargin | None = Field(description="The line's cost and margin; null without a cost or a price.")


class QuoteShare(ApiModel):
    state: Literal["none", "active", "revoked", "expired"]
    shared_at: str | None
    expires_at: str | None
    revoked_at: str | None
    first_opened_at: str | None


class QuoteTotals(ApiModel):
    net: str
    kdv: str
    gross: str
    unpriced: int = Field(description="Lines without a price: not in the totals.")


class QuoteBranch(ApiModel):
    name: str | None
    address: str | None
    phone: str | None


class QuoteOut(ApiModel):
    id: int
    vehicle_id: int | None
    vin: str | None
    vehicle_title: str
    customer: str | None
    status: Literal["draft", "sent", "opened"] = Field(description="A sent (or opened) quote is frozen.")
    version: int = Field(description="1 for a first quote; a new version of a sent quote counts on.")
    version_of: int | None = Field(description="The first quote of the series this is a version of.")
    branch: QuoteBranch = Field(description="The branch the quote comes from; as it was sent once sent.")
    share: QuoteShare
    kdv_rate: str
    lines: list[QuoteLineOut]
    totals: QuoteTotals
    margin: QuoteMargin | None = Field(description="The cost and margin of the lines with a cost and a price.")
    created_at: str
    updated_at: str


class QuoteList(ApiModel):
    quotes: list[QuoteOut]


class QuoteLink(ApiModel):
    url: str = Field(description="The read-only page for the customer, no account needed; shown only now.")
    whatsapp_url: str = Field(description="https://wa.me/?text= with a short Turkish summary and the link.")
    expires_at: str
