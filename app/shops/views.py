"""The shop's pages (/dukkan): members, invitations, branches and the branch the member works in; the owner's activity
page and its CSV; the invitation link's page (/davet/<token>). The HTML counterpart of app.shops.api."""

from __future__ import annotations

import uuid
from collections.abc import Callable

from flask import Blueprint, Response, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_login import current_user

from app.auth.sessions import clear_session_cookie
from app.auth.web import open_session, signed_in
from app.billing.seats import seat_limit
from app.core.errors import ApiError
from app.core.security import public, shop_role
from app.core.validation import int_arg
from app.shops import activity, branches, closing, invitations, members, services
from app.shops.filters import activity_filter
from app.shops.labels import KIND_LABELS, ROLE_LABELS, kind_label, role_label

bp = Blueprint("shop_pages", __name__)


def _user():
    return current_user._get_current_object()


def _back() -> Response:
    return redirect(url_for(".shop"), code=303)


def _done(action: Callable[[], object], message: str) -> Response:
    """Run a change; flash its success or the service's refusal (which rolls the request back), back to the page."""
    try:
        action()
    except ApiError as error:
        flash(error.message, "error")
        return _back()
    flash(message, "success")
    return _back()


def _yours(find: Callable[[], object]) -> None:
    """The object the URL names must be the caller's shop's: another shop's (or none) answers the 404 page, as the
    API does, instead of a flashed refusal (any other refusal is the change's own, flashed by `_done`)."""
    try:
        find()
    except ApiError as error:
        if error.status == 404:
            raise


def _form_id(name: str) -> int | None:
    raw = (request.form.get(name) or "").strip()
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 10 else None


@bp.get("/dukkan")
@shop_role("clerk")
def shop():
    shop_id = current_user.shop_id
    manages = current_user.has_shop_role("manager")
    return render_template(
        "shops/shop.html",
        members=members.members_of(shop_id) if manages else [],
        pending=invitations.pending_of(shop_id) if manages else [],
        branches=branches.branches_of(shop_id),
        manages=manages,
        seats={"used": invitations.seats_in_use(shop_id), "limit": seat_limit(shop_id)} if manages else None,
        roles=ROLE_LABELS,
        role_label=role_label,
        shop_name=services.shop_name(shop_id) if current_user.has_shop_role("owner") else None,
    )


@bp.post("/dukkan/sil")
@shop_role("owner")
def delete_shop():
    try:
        closing.delete_shop(_user(), request.form.get("confirmation"))
    except ApiError as error:
        flash(error.message, "error")
        return _back()
    flash(_("The shop and its data have been deleted, and everyone who worked in it was signed out."), "success")
    response = redirect(url_for("auth_pages.login"), code=303)
    clear_session_cookie(response)
    return response


@bp.post("/dukkan/sube-sec")
@shop_role("clerk")
def choose_branch():
    return _done(lambda: branches.choose_branch(_user(), _form_id("branch_id")), _("Your branch is saved."))


# --- members -------------------------------------------------------------------------------------------------------


@bp.post("/dukkan/uyeler/<uuid:member_id>/role")
@shop_role("manager")
def change_role(member_id: uuid.UUID):
    role = request.form.get("role")
    _yours(lambda: members.member_of_shop(_user(), member_id))
    return _done(lambda: members.change_role(_user(), member_id, role), _("The role is changed; their sessions ended."))


@bp.post("/dukkan/uyeler/<uuid:member_id>/remove")
@shop_role("manager")
def remove_member(member_id: uuid.UUID):
    _yours(lambda: members.member_of_shop(_user(), member_id))
    return _done(lambda: members.remove_member(_user(), member_id), _("The member is removed from the shop."))


# --- invitations ---------------------------------------------------------------------------------------------------


@bp.post("/dukkan/davetler")
@shop_role("manager")
def invite():
    email = (request.form.get("email") or "").strip()[:254]
    role, branch_id = request.form.get("role"), _form_id("branch_id")
    return _done(
        lambda: invitations.invite(_user(), email, role, branch_id, seat_limit=seat_limit(current_user.shop_id)),
        _("The invitation is on its way to %(email)s.", email=email),
    )


@bp.post("/dukkan/davetler/<int:invitation_id>/resend")
@shop_role("manager")
def resend(invitation_id: int):
    _yours(lambda: invitations.invitation_of_shop(_user(), invitation_id))
    return _done(
        lambda: invitations.resend(_user(), invitation_id), _("A new link is sent; the old one no longer works.")
    )


@bp.post("/dukkan/davetler/<int:invitation_id>/revoke")
@shop_role("manager")
def revoke(invitation_id: int):
    _yours(lambda: invitations.invitation_of_shop(_user(), invitation_id))
    return _done(lambda: invitations.revoke(_user(), invitation_id), _("The invitation is revoked."))


# --- branches ------------------------------------------------------------------------------------------------------


def _branch_fields() -> dict[str, str]:
    return {name: request.form.get(name, "") for name in ("name", "address", "phone")}


@bp.post("/dukkan/subeler")
@shop_role("manager")
def add_branch():
    fields = _branch_fields()
    return _done(lambda: branches.add_branch(_user(), **fields), _("The branch is added."))


@bp.post("/dukkan/subeler/<int:branch_id>")
@shop_role("manager")
def update_branch(branch_id: int):
    fields = _branch_fields()
    _yours(lambda: branches.branch_of_shop(current_user.shop_id, branch_id))
    return _done(lambda: branches.update_branch(_user(), branch_id, fields), _("The branch is saved."))


@bp.post("/dukkan/subeler/<int:branch_id>/delete")
@shop_role("manager")
def delete_branch(branch_id: int):
    move_to = _form_id("move_to")
    _yours(lambda: branches.branch_of_shop(current_user.shop_id, branch_id))
    return _done(lambda: branches.delete_branch(_user(), branch_id, move_to), _("The branch is deleted."))


# --- activity ------------------------------------------------------------------------------------------------------


@bp.get("/dukkan/hareketler")
@shop_role("owner")
def activity_page():
    wanted = activity_filter(request.args)
    page = int_arg(request.args, "page", 1)
    items, more = activity.entries(current_user.shop_id, wanted, page)
    return render_template(
        "shops/activity.html",
        items=items,
        page=page,
        has_more=more,
        members=members.members_of(current_user.shop_id),
        branches=branches.branches_of(current_user.shop_id),
        kinds=KIND_LABELS,
        kind_label=kind_label,
        args=request.args,
        filters={key: value for key, value in request.args.items() if key != "page"},
    )


@bp.get("/dukkan/hareketler.csv")
@shop_role("owner")
def activity_csv():
    text = activity.as_csv(current_user.shop_id, activity_filter(request.args))
    return Response(text, mimetype="text/csv", headers={"Content-Disposition": activity.CSV_DISPOSITION})


# --- the invitation link -------------------------------------------------------------------------------------------


def _invitation_page(token: str, error: str | None = None, status: int = 200) -> tuple[str, int]:
    try:
        offer = invitations.preview(token, current_user)
    except ApiError as refusal:
        return render_template("shops/invitation.html", offer=None, error=refusal.message), refusal.status
    return render_template(
        "shops/invitation.html", offer=offer, token=token, error=error, role_label=role_label
    ), status


@bp.get("/davet/<token>")
@public
def invitation(token: str):
    return _invitation_page(token)


@bp.post("/davet/<token>")
@public
def accept_invitation(token: str):
    try:
        if current_user.is_authenticated:
            invitations.accept_as_member(token, _user(), request.form.get("leave_data_behind") == "yes")
            flash(_("Welcome to the shop."), "success")
            return redirect(url_for(".shop"), code=303)
        user = invitations.accept_as_new(
            token, (request.form.get("name") or "").strip()[:100], request.form.get("password") or ""
        )
    except ApiError as error:
        return _invitation_page(token, error.message, error.status)
    flash(_("Welcome to the shop."), "success")
    return signed_in(redirect(url_for(".shop"), code=303), open_session(user, remember=False))
