"""What the subscription and payment routes read and answer, for the OpenAPI document (the routes check their input
themselves)."""

from __future__ import annotations

from typing import Any

from pydantic import Field, RootModel

from app.core.openapi import ApiModel

BRAND_IDS_HELP = "Brand ids: as many as the plan's brandCount (none for Full)."


class PlanChoiceBody(ApiModel):
    plan_key: str = Field(max_length=32, examples=["single"])
    billing_period: str = Field(max_length=10, examples=["monthly", "yearly"])
    brand_ids: list[int] = Field(default_factory=list, description=BRAND_IDS_HELP)
    seats: int | None = Field(
        default=None,
        ge=1,
        le=100,
        description="Seats (members) to buy, at least the plan's included; by default the shop's current seats.",
    )


class DowngradeBody(ApiModel):
    plan_key: str = Field(max_length=32, examples=["single"])
    brand_ids: list[int] = Field(default_factory=list, description=BRAND_IDS_HELP)


class Prices(ApiModel):
    monthly: int = Field(description="In kuruş.")
    yearly: int = Field(description="In kuruş.")


class PlanOut(ApiModel):
    id: int
    key: str
    name: str
    brand_count: int


class PlanChangeOut(ApiModel):
    kind: str = Field(
        description="new, upgrade, yearly (same plan, monthly to yearly), renewal (last 7 days), current, or "
        "downgrade (scheduled for the end of the period, not bought)."
    )
    purchasable: bool = Field(description="Whether the card checkout accepts it now.")
    price: int = Field(description="What the checkout charges, in kuruş, VAT included.")
    credit_days: int = Field(description="Days of the current paid period carried over to the new one.")
    effective_date: str | None = Field(description="When it takes effect: now, or the end of the paid period.")


class PlanChanges(ApiModel):
    monthly: PlanChangeOut
    yearly: PlanChangeOut


class SeatPrices(ApiModel):
    included: int = Field(description="Members the plan's price includes.")
    prices: Prices = Field(description="The price of each seat past the included ones.")


class PlanOffer(PlanOut):
    is_full: bool
    prices: Prices
    seats: SeatPrices
    monthly_equivalent_of_yearly: int
    vat_included: bool = Field(description="Prices include VAT (KDV).")
    is_current: bool = Field(description="The signed-in caller's live plan (false when signed out).")
    changes: PlanChanges | None = Field(description="For a signed-in caller: what buying it would mean and cost.")


class Plans(ApiModel):
    plans: list[PlanOffer]


class BrandOut(ApiModel):
    id: int
    name: str


class BrandOffer(BrandOut):
    slug: str


class Brands(ApiModel):
    brands: list[BrandOffer]


class ScheduledChange(ApiModel):
    plan: PlanOut
    brand_ids: list[int]
    effective_date: str | None


class SubscriptionOut(ApiModel):
    id: str
    status: str
    plan: PlanOut
    billing_period: str
    start_date: str | None
    end_date: str | None
    cancelled_at: str | None
    brands: list[BrandOut]
    scheduled_change: ScheduledChange | None


class MaybeSubscription(RootModel[SubscriptionOut | None]):
    """The live subscription, else the pending one, else the latest; null when there was never one."""


class CheckoutOut(ApiModel):
    url: str = Field(description="The hosted checkout page: send the browser there.")


class WebhookHeaders(ApiModel):
    stripe_signature: str = Field(alias="Stripe-Signature", description="The provider's signature over the raw body.")


class WebhookEvent(RootModel[dict[str, Any]]):
    """A card-provider event, exactly as the provider signed it."""


class WebhookReceived(ApiModel):
    received: bool


class PaymentItem(ApiModel):
    id: str
    plan_name: str | None
    status: str
    method: str
    amount: int = Field(description="In kuruş.")
    refunded_amount: int = Field(description="In kuruş; 0 when nothing was refunded.")
    currency: str
    billing_period: str | None
    created_at: str
    paid_at: str | None
    has_card_receipt: bool


class Receipt(ApiModel):
    receipt_url: str | None


class SeatsOut(ApiModel):
    seats: int = Field(description="Members the shop's plan lets work now (1 without a plan).")
    in_use: int = Field(description="The shop's members.")
    included: int | None = Field(description="Seats the plan's price includes (null without a plan).")
    seat_price: int | None = Field(description="One more seat for the rest of the period, in kuruş (null: none).")
    add_seat_url: str = Field(description="The page where the owner changes the seats.")


class SeatsBody(ApiModel):
    seats: int = Field(ge=1, le=100, description="The seat count wanted.")


class SeatChangeOut(ApiModel):
    subscription: SubscriptionOut
    seats: int = Field(description="The seats now (added seats count once paid).")
    checkout_url: str | None = Field(description="Where to pay for added seats; null when nothing is to pay.")
