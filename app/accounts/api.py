"""The signed-in user's account under /api/account (a person's own: a shop API key never reaches it)."""

from __future__ import annotations

from flask import Blueprint, jsonify
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_login import current_user

from app.accounts import services
from app.accounts.schemas import ChangePasswordBody, DeleteAccountBody, PasswordChanged, SignInMethods
from app.auth.guards import current_session
from app.auth.services import change_password
from app.auth.sessions import clear_session_cookie
from app.core.errors import ApiError
from app.core.openapi import StatusTrue, documented
from app.core.security import person_only, shop_role
from app.core.validation import json_body, text_field

bp = Blueprint("accounts_api", __name__, url_prefix="/api/account")

CURRENT_PASSWORD = _l("Current password")
NEW_PASSWORD = _l("New password")
CONFIRMATION = _l("Confirmation")


@bp.get("/connections")
@documented(SignInMethods, summary="The caller's sign-in methods")
@person_only
@shop_role("clerk")
def connections():
    return jsonify(services.sign_in_methods(current_user))


@bp.delete("/connections/<provider>")
@documented(SignInMethods, errors=(404, 409), summary="Unlink a social sign-in")
@person_only
@shop_role("clerk")
def unlink(provider: str):
    services.unlink_provider(current_user, provider)
    return jsonify(services.sign_in_methods(current_user))


@bp.post("/change-password")
@documented(PasswordChanged, body=ChangePasswordBody, summary="Change the password; other sessions end")
@person_only
@shop_role("clerk")
def change_password_route():
    data = json_body()
    current = text_field(data, "currentPassword", CURRENT_PASSWORD, max_length=128, required=False)
    new = text_field(data, "newPassword", NEW_PASSWORD, max_length=128)
    ended = change_password(current_user, current, new, keep_session_id=current_session().id)
    return jsonify(status=True, otherSessionsEnded=ended)


@bp.post("/delete")
@documented(StatusTrue, body=DeleteAccountBody)
@person_only
@shop_role("clerk")
def delete_account():
    """Delete the caller's account after they confirm with their password (or their e-mail, if they have none)."""
    confirmation = text_field(json_body(), "confirmation", CONFIRMATION, max_length=254)
    if not services.confirms_identity(current_user, confirmation):
        raise ApiError("confirmation_mismatch", _("The confirmation does not match. Nothing was deleted."), 400)
    services.delete_user(current_user._get_current_object())
    response = jsonify(status=True)
    clear_session_cookie(response)
    return response
