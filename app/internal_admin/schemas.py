"""What the internal admin routes read and answer, for the OpenAPI document (the routes check their input
themselves)."""

from __future__ import annotations

from pydantic import Field

from app.billing.schemas import SubscriptionOut
from app.core.openapi import ApiModel
from app.internal_admin.guard import AUTH_HEADER, FOUNDER_ID_MAX_LENGTH, REASON_MAX_LENGTH


class InternalHeaders(ApiModel):
    token: str = Field(alias=AUTH_HEADER, description="Equal to INTERNAL_API_TOKEN; compared in constant time.")


class ActorBody(ApiModel):
    founder_id: str = Field(max_length=FOUNDER_ID_MAX_LENGTH)
    reason: str = Field(max_length=REASON_MAX_LENGTH)


class CacheCleared(ApiModel):
    cleared_keys: list[str] = Field(description="The VIN's resolve, negative-resolve and lock keys that existed.")
    total_keys_checked: int


class VehicleDeleted(ApiModel):
    vehicle_id: int
    brand_name: str
    model: str
    source: str
    cascaded_user_links: int


class ExtendTrialBody(ActorBody):
    days: int = Field(ge=1, le=90, description="Days added to the later of now and the current end date.")


class ChangePlanBody(ActorBody):
    new_plan_id: int = Field(ge=1, description="An active plan other than the current one.")


class BrandSetBody(ActorBody):
    brand_ids: list[int] = Field(description="Exactly the plan's brandCount distinct active brand ids.")


class TrialExtended(ApiModel):
    previous_end_date: str | None
    new_end_date: str
    days_added: int
    status: str


class InternalSubscription(SubscriptionOut):
    user_id: str | None = Field(description="Whose subscription it is (null once the account was deleted).")


class PlanChanged(InternalSubscription):
    brand_reassignment_needed: bool = Field(
        description="The new plan (not Full) takes another number of brands than the subscription holds: "
        "choose them with the brands call."
    )


class RefundBody(ActorBody):
    amount: int | None = Field(
        default=None,
        ge=1,
        le=2**31 - 1,
        description="Kuruş to refund, at most what is not yet refunded; omitted: all that is left.",
    )


class RefundHeaders(InternalHeaders):
    idempotency_key: str | None = Field(
        default=None,
        alias="Idempotency-Key",
        min_length=1,
        max_length=255,
        pattern=r"^[\x20-\x7e]+$",
        description="Optional; a retry with the same key returns the refund already made instead of refunding again.",
    )


class PaymentRefunded(ApiModel):
    payment_id: str
    refund_id: str
    amount: int = Field(description="Kuruş refunded by this call.")
    refunded_amount: int = Field(description="Kuruş refunded of the payment in all.")
    status: str = Field(description="refunded when everything was refunded, else partially_refunded.")
    currency: str


class StatusChanged(ApiModel):
    from_: str = Field(alias="from", examples=["active"])
    to: str = Field(examples=["suspended"])
    sessions_killed: int
    changed_at: str


class ReactivateBody(ApiModel):
    founder_id: str = Field(max_length=FOUNDER_ID_MAX_LENGTH)
    reason: str | None = Field(None, max_length=REASON_MAX_LENGTH)


class ImpersonateBody(ActorBody):
    ttl_minutes: int | None = Field(None, description="Clamped to 1-60; 15 when absent.")


class Impersonation(ApiModel):
    redirect_url: str = Field(description="The one-shot link (valid 60 s) that opens the session in a browser.")
    expires_at: str
    session_id_prefix: str
