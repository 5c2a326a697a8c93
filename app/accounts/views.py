"""The account page and its actions: the HTML counterpart of app.accounts.api, calling the same services."""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, url_for
from flask_babel import gettext as _
from flask_login import current_user

from app.accounts import services
from app.accounts.forms import ChangePasswordForm, DeleteAccountForm
from app.auth.guards import current_session
from app.auth.services import change_password, send_verification_email
from app.auth.sessions import clear_session_cookie
from app.auth.web import lookup_throttle
from app.core.errors import ApiError
from app.core.security import shop_role

bp = Blueprint("accounts_pages", __name__)

INVALID_FORM = 400
PROVIDER_NAMES = {"google": "Google", "apple": "Apple", "facebook": "Facebook", "microsoft": "Microsoft"}


def provider_name(provider: str) -> str:
    return PROVIDER_NAMES.get(provider, provider.capitalize())


def _account_page(status: int = 200, **sections) -> tuple[str, int]:
    """The page with fresh forms, except the section being answered, which keeps its input and error."""
    context = {
        "password_form": ChangePasswordForm(formdata=None),
        "delete_form": DeleteAccountForm(formdata=None),
        "errors": {},
        **sections,
    }
    methods = services.sign_in_methods(current_user)
    return render_template("accounts/account.html", methods=methods, provider_name=provider_name, **context), status


def _back_to_account(message: str):
    flash(message, "success")
    return redirect(url_for(".account"), code=303)


@bp.get("/account")
@shop_role("clerk")
def account():
    return _account_page()


@bp.post("/account/verification-email")
@shop_role("clerk")
@lookup_throttle
def resend_verification():
    send_verification_email(current_user)
    return _back_to_account(_("We sent a new confirmation link to %(email)s.", email=current_user.email))


@bp.post("/account/connections/<provider>/unlink")
@shop_role("clerk")
def unlink(provider: str):
    try:
        services.unlink_provider(current_user, provider)
    except ApiError as error:
        return _account_page(error.status, errors={"methods": error.message})
    return _back_to_account(_("%(provider)s sign-in was removed.", provider=provider_name(provider)))


@bp.post("/account/password")
@shop_role("clerk")
def save_password():
    form = ChangePasswordForm()
    if not form.validate():
        return _account_page(INVALID_FORM, password_form=form)
    try:
        change_password(
            current_user, form.current_password.data, form.new_password.data, keep_session_id=current_session().id
        )
    except ApiError as error:
        return _account_page(error.status, password_form=form, errors={"password": error.message})
    return _back_to_account(_("Your password has been saved. Other devices were signed out."))


@bp.post("/account/delete")
@shop_role("clerk")
def delete_account():
    form = DeleteAccountForm()
    if not form.validate():
        return _account_page(INVALID_FORM, delete_form=form)
    if not services.confirms_identity(current_user, form.confirmation.data):
        message = _("The confirmation does not match. Nothing was deleted.")
        return _account_page(INVALID_FORM, delete_form=form, errors={"delete": message})
    try:
        services.delete_user(current_user._get_current_object())
    except ApiError as refusal:  # the last owner of a shop with members (app.shops.closing)
        return _account_page(refusal.status, delete_form=form, errors={"delete": refusal.message})
    flash(_("Your account has been deleted. Goodbye!"), "success")
    response = redirect("/", code=303)
    clear_session_cookie(response)
    return response
