"""The shop under /api/shop: members, invitations, branches, the branch the caller works in, and the activity."""

from __future__ import annotations

import uuid

from flask import Blueprint, Response, jsonify, request
from flask_babel import lazy_gettext as _l
from flask_login import current_user

from app.auth.sessions import clear_session_cookie
from app.auth.web import open_session, signed_in
from app.billing.seats import seat_limit
from app.core.openapi import StatusTrue, documented
from app.core.security import person_only, public, shop_role
from app.core.validation import bool_field, int_arg, json_body, text_field
from app.shops import activity, branches, closing, invitations, members
from app.shops.filters import activity_filter
from app.shops.schemas import (
    AcceptInvitationBody,
    ActivityList,
    ActivityQuery,
    BranchBody,
    BranchItem,
    BranchList,
    ChooseBranchBody,
    DeleteBranchQuery,
    DeleteShopBody,
    InvitationItem,
    InvitationList,
    InvitationPreview,
    InvitationPreviewQuery,
    InviteMemberBody,
    Joined,
    Member,
    MemberList,
    RoleBody,
)

bp = Blueprint("shops_api", __name__, url_prefix="/api/shop")

EMAIL, NAME, PASSWORD, TOKEN = _l("E-mail"), _l("Name"), _l("Password"), _l("Link")


def _user():
    return current_user._get_current_object()


# --- the shop itself ----------------------------------------------------------------------------------------------


@bp.delete("")
@documented(
    StatusTrue,
    body=DeleteShopBody,
    errors=(400, 409),
    summary="Delete the shop and its data; every member is signed out and keeps an empty shop of their own",
)
@person_only
@shop_role("owner")
def delete_shop():
    closing.delete_shop(_user(), json_body().get("confirmation"))
    response = jsonify(status=True)
    clear_session_cookie(response)
    return response


# --- members -------------------------------------------------------------------------------------------------------


@bp.get("/members")
@documented(MemberList, summary="The caller's shop's members with their role and branch")
@shop_role("manager")
def list_members():
    return jsonify(items=members.members_of(current_user.shop_id))


@bp.patch("/members/<uuid:member_id>")
@documented(Member, body=RoleBody, errors=(404, 409), summary="Change a member's role; their sessions end")
@shop_role("manager")
def change_role(member_id: uuid.UUID):
    member = members.change_role(_user(), member_id, json_body().get("role"))
    return jsonify(_member(member.id))


@bp.delete("/members/<uuid:member_id>")
@documented(StatusTrue, errors=(404, 409), summary="Remove a member; their sessions end, their work stays")
@shop_role("manager")
def remove_member(member_id: uuid.UUID):
    members.remove_member(_user(), member_id)
    return jsonify(status=True)


def _member(member_id: uuid.UUID) -> dict:
    return next(item for item in members.members_of(current_user.shop_id) if item["id"] == str(member_id))


# --- invitations ---------------------------------------------------------------------------------------------------


@bp.get("/invitations")
@documented(InvitationList, summary="The shop's pending invitations and the seats in use")
@shop_role("manager")
def list_invitations():
    pending = invitations.pending_of(current_user.shop_id)
    return jsonify(
        items=[invitations.shaped(item) for item in pending], seatsInUse=invitations.seats_in_use(current_user.shop_id)
    )


@bp.post("/invitations")
@documented(InvitationItem, status=201, body=InviteMemberBody, errors=(404, 409), summary="Invite an address by e-mail")
@shop_role("manager")
def invite():
    data = json_body()
    invitation = invitations.invite(
        _user(),
        text_field(data, "email", EMAIL, max_length=254),
        data.get("role"),
        data.get("branchId"),
        seat_limit=seat_limit(current_user.shop_id),
    )
    return jsonify(invitations.shaped(invitation)), 201


@bp.post("/invitations/<int:invitation_id>/resend")
@documented(InvitationItem, errors=(404, 409), summary="Mail a new link (the old one no longer works)")
@shop_role("manager")
def resend(invitation_id: int):
    return jsonify(invitations.shaped(invitations.resend(_user(), invitation_id)))


@bp.delete("/invitations/<int:invitation_id>")
@documented(StatusTrue, errors=(404, 409), summary="Revoke a pending invitation")
@shop_role("manager")
def revoke(invitation_id: int):
    invitations.revoke(_user(), invitation_id)
    return jsonify(status=True)


@bp.get("/invitation")
@documented(InvitationPreview, query=InvitationPreviewQuery, public=True, summary="What an invitation link offers")
@public
def preview():
    return jsonify(invitations.preview(request.args.get("token", ""), current_user))


@bp.post("/invitation/accept")
@documented(Joined, body=AcceptInvitationBody, public=True, errors=(403, 409), summary="Accept an invitation")
@public
def accept():
    """Signed in: join with this account (leaveDataBehind when asked). Signed out: create the account (name, password)
    and sign in."""
    data = json_body()
    token = text_field(data, "token", TOKEN, max_length=100)
    if current_user.is_authenticated:
        user = invitations.accept_as_member(token, _user(), bool_field(data, "leaveDataBehind", False))
        return jsonify(_joined(user))
    name = text_field(data, "name", NAME, max_length=100)
    password = text_field(data, "password", PASSWORD, max_length=128)
    user = invitations.accept_as_new(token, name, password)
    return signed_in(_json(jsonify(_joined(user)), 201), open_session(user, remember=False))


def _joined(user) -> dict:
    return {"status": True, "shopId": str(user.shop_id), "role": user.shop_role, "branchId": user.branch_id}


def _json(response: Response, status: int) -> Response:
    response.status_code = status
    return response


# --- branches ------------------------------------------------------------------------------------------------------


@bp.get("/branches")
@documented(BranchList, summary="The shop's branches and the one the caller works in")
@shop_role("clerk")
def list_branches():
    items = [branches.shaped(branch) for branch in branches.branches_of(current_user.shop_id)]
    return jsonify(items=items, currentBranchId=current_user.branch_id)


@bp.post("/branches")
@documented(BranchItem, status=201, body=BranchBody, summary="Add a branch")
@shop_role("manager")
def add_branch():
    data = json_body()
    branch = branches.add_branch(_user(), data.get("name"), data.get("address"), data.get("phone"))
    return jsonify(branches.shaped(branch)), 201


@bp.patch("/branches/<int:branch_id>")
@documented(BranchItem, body=BranchBody, errors=(404,), summary="Rename a branch, change its address or phone")
@shop_role("manager")
def update_branch(branch_id: int):
    data = {key: value for key, value in json_body().items() if key in ("name", "address", "phone")}
    return jsonify(branches.shaped(branches.update_branch(_user(), branch_id, data)))


@bp.delete("/branches/<int:branch_id>")
@documented(BranchItem, query=DeleteBranchQuery, errors=(404, 409), summary="Delete a branch; its members move")
@shop_role("manager")
def delete_branch(branch_id: int):
    """Answers the branch the members moved to."""
    move_to = int_arg(request.args, "moveTo", 0) or None
    return jsonify(branches.shaped(branches.delete_branch(_user(), branch_id, move_to)))


@bp.put("/my-branch")
@documented(BranchItem, body=ChooseBranchBody, errors=(404,), summary="Choose the branch the caller works in")
@shop_role("clerk")
def choose_branch():
    return jsonify(branches.shaped(branches.choose_branch(_user(), json_body().get("branchId"))))


# --- activity ------------------------------------------------------------------------------------------------------


@bp.get("/activity")
@documented(ActivityList, query=ActivityQuery, summary="Who did what in the shop, newest first, filtered")
@shop_role("owner")
def list_activity():
    page = int_arg(request.args, "page", 1)
    items, more = activity.entries(current_user.shop_id, activity_filter(request.args), page)
    return jsonify(items=items, page=page, hasMore=more)


@bp.get("/activity.csv")
@documented(None, query=ActivityQuery, summary="The filtered activity as CSV (text/csv)")
@shop_role("owner")
def activity_csv():
    text = activity.as_csv(current_user.shop_id, activity_filter(request.args))
    return Response(text, mimetype="text/csv", headers={"Content-Disposition": activity.CSV_DISPOSITION})
