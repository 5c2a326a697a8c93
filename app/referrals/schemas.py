"""What the /api/referrals routes read and answer, for the OpenAPI document (routes check their input themselves)."""

from __future__ import annotations

from pydantic import Field

from app.core.openapi import ApiModel


class Milestone(ApiModel):
    every: int = Field(description="Every n-th qualified referral reaches it.")
    days: int = Field(description="Credit days it gives.")
    progress: int = Field(description="Qualified referrals since it was last reached.")
    remaining: int = Field(description="Qualified referrals still needed to reach it again.")


class ReferralStats(ApiModel):
    code: str
    share_url: str
    qualified: int
    pending: int
    reward_days_total: int = Field(description="Credit days earned from referrals so far.")
    banked_days: int = Field(description="Credit days waiting for the next trial or activation.")
    milestones: list[Milestone]


class ReferralItem(ApiModel):
    referee_name: str
    masked_email: str
    status: str = Field(examples=["pending", "qualified"])
    created_at: str
    qualified_at: str | None


class ReferralList(ApiModel):
    items: list[ReferralItem]
    page: int
    has_more: bool


class ReferralListQuery(ApiModel):
    page: int = Field(1, ge=1)


class ApplyReferralBody(ApiModel):
    code: str = Field(max_length=16, examples=["K7M2QX9A"])


class AppliedReferral(ApiModel):
    status: str = Field(examples=["pending", "qualified"])
    referrer_name: str


class InviteBody(ApiModel):
    email: str = Field(max_length=254, examples=["komsu.bayi@example.com"])


class Invited(ApiModel):
    status: bool
    already_invited: bool = Field(description="This address was invited by the caller before; it was not mailed again.")
