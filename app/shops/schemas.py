"""What the /api/shop routes read and answer, for the OpenAPI document (routes check their input themselves)."""

from __future__ import annotations

from pydantic import Field

from app.core.openapi import ApiModel

ROLE = Field(examples=["clerk", "manager", "owner"])


class Member(ApiModel):
    id: str
    name: str
    email: str
    role: str = ROLE
    branch_id: int | None
    branch_name: str | None


class MemberList(ApiModel):
    items: list[Member]


class RoleBody(ApiModel):
    role: str = ROLE


class DeleteShopBody(ApiModel):
    confirmation: str = Field(description="The shop's name, typed by its owner to confirm.", examples=["Kadıköy Oto"])


class InvitationItem(ApiModel):
    id: int
    email: str
    role: str = ROLE
    branch_id: int | None
    created_at: str
    expires_at: str


class InvitationList(ApiModel):
    items: list[InvitationItem]
    seats_in_use: int = Field(description="Members plus pending invitations.")


class InviteMemberBody(ApiModel):
    email: str = Field(max_length=254, examples=["tezgah@example.com"])
    role: str = ROLE
    branch_id: int | None = Field(None, description="The branch the person starts in; the inviter's by default.")


class InvitationPreviewQuery(ApiModel):
    token: str


class InvitationPreview(ApiModel):
    shop_name: str
    email: str
    role: str = ROLE
    action: str = Field(
        description="create: make an account; sign_in: sign in first; move: join, the empty shop goes away; choose: "
        "join only by leaving the current shop's data behind; refused / other_account: cannot join (see reason).",
        examples=["create", "sign_in", "move", "choose", "refused", "other_account"],
    )
    reason: str | None


class AcceptInvitationBody(ApiModel):
    token: str
    name: str | None = Field(None, max_length=100, description="For a new account.")
    password: str | None = Field(None, max_length=128, description="For a new account.")
    leave_data_behind: bool = Field(False, description="A signed-in person whose shop has data confirms leaving it.")


class Joined(ApiModel):
    status: bool
    shop_id: str
    role: str = ROLE
    branch_id: int | None


class BranchItem(ApiModel):
    id: int
    name: str
    address: str | None
    phone: str | None


class BranchList(ApiModel):
    items: list[BranchItem]
    current_branch_id: int | None = Field(description="The branch the caller works in.")


class BranchBody(ApiModel):
    name: str | None = Field(None, max_length=80, examples=["Kadıköy"])
    address: str | None = Field(None, max_length=300)
    phone: str | None = Field(None, max_length=40)


class DeleteBranchQuery(ApiModel):
    move_to: int | None = Field(None, description="The branch its members move to; the first other one by default.")


class ChooseBranchBody(ApiModel):
    branch_id: int


class ActivityQuery(ApiModel):
    member: str | None = None
    kind: str | None = None
    branch: int | None = None
    since: str | None = Field(None, examples=["2026-11-01"])
    until: str | None = Field(None, examples=["2026-11-30"])
    page: int = Field(1, ge=1)


class ActivityItem(ApiModel):
    id: int
    member_id: str | None
    member_name: str | None
    branch_id: int | None
    branch_name: str | None
    kind: str = Field(examples=["member_removed", "decode", "quote_sent", "list_import"])
    detail: str
    created_at: str


class ActivityList(ApiModel):
    items: list[ActivityItem]
    page: int
    has_more: bool
