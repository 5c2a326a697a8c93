"""JSON authentication routes under /api/auth."""

from __future__ import annotations

from flask import Blueprint, jsonify, redirect, request
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from app.accounts.models import User
from app.auth import services
from app.auth.captcha import CAPTCHA_HEADER, verify_captcha
from app.auth.guards import allow_inactive, current_session
from app.auth.schemas import (
    CaptchaHeaders,
    EmailBody,
    Exists,
    MaybeSignedIn,
    ResetPasswordBody,
    SignedIn,
    SignInBody,
    SignUpBody,
    StatusMessage,
    Success,
    VerifyEmailQuery,
)
from app.auth.serialisers import session_json, user_json
from app.auth.web import (
    end_current_session,
    lookup_throttle,
    open_session,
    sign_in_throttle_by_email,
    sign_in_throttle_by_ip,
    signed_in,
)
from app.core.db import writes_data
from app.core.i18n import safe_next_path
from app.core.openapi import StatusTrue, documented
from app.core.security import public
from app.core.validation import bool_field, json_body, text_field

bp = Blueprint("auth_api", __name__, url_prefix="/api/auth")

EMAIL = _l("E-mail")
PASSWORD = _l("Password")
NAME = _l("Name")
TOKEN = _l("Token")
REFERRAL_CODE = _l("Referral code")


def _signed_in(user: User, remember: bool, status: int = 200):
    row = open_session(user, remember)
    return signed_in(jsonify(user=user_json(user), session=session_json(row)), row), status


def _checked_credentials(data: dict) -> tuple[str, str]:
    """The e-mail and password of a sign-in or sign-up body, once the captcha (when configured) has passed."""
    email = text_field(data, "email", EMAIL, max_length=254)
    password = text_field(data, "password", PASSWORD, max_length=128)
    verify_captcha(request.headers.get(CAPTCHA_HEADER), request.remote_addr)
    return email, password


@bp.post("/sign-up/email")
@documented(
    SignedIn,
    status=201,
    body=SignUpBody,
    headers=CaptchaHeaders,
    errors=(409, 503),
    public=True,
    summary="Sign up with e-mail and password, and sign in",
)
@public
@sign_in_throttle_by_ip
@sign_in_throttle_by_email
def sign_up():
    data = json_body()
    name = text_field(data, "name", NAME, max_length=100)
    email, password = _checked_credentials(data)
    code = text_field(data, "referralCode", REFERRAL_CODE, max_length=16, required=False) or None
    user = services.sign_up(name=name, email=email, password=password, referral_code=code)
    return _signed_in(user, bool_field(data, "rememberMe", True), status=201)


@bp.post("/sign-in/email")
@documented(
    SignedIn,
    body=SignInBody,
    headers=CaptchaHeaders,
    errors=(401, 503),
    public=True,
    summary="Sign in with e-mail and password",
)
@public
@sign_in_throttle_by_ip
@sign_in_throttle_by_email
def sign_in():
    data = json_body()
    email, password = _checked_credentials(data)
    user = services.authenticate(email, password)
    return _signed_in(user, bool_field(data, "rememberMe", False))


@bp.post("/sign-out")
@documented(Success, public=True, summary="Sign out: end this session and clear its cookie")
@public
@allow_inactive
def sign_out():
    return end_current_session(jsonify(success=True))


@bp.get("/get-session")
@documented(MaybeSignedIn, public=True, summary="The signed-in user and session, or null")
@public
def get_session():
    row = current_session()
    if row is None:
        return jsonify(None)
    return jsonify(user=user_json(row.user), session=session_json(row))


@bp.post("/email-exists")
@documented(Exists, body=EmailBody, public=True, summary="Whether an account uses this e-mail")
@public
@lookup_throttle
def email_exists():
    email = text_field(json_body(), "email", EMAIL, max_length=254)
    return jsonify(exists=services.email_registered(email))


@bp.post("/forget-password")
@documented(StatusMessage, body=EmailBody, public=True, summary="Send a password reset link, if the account exists")
@public
@lookup_throttle
def forget_password():
    services.request_password_reset(text_field(json_body(), "email", EMAIL, max_length=254))
    return jsonify(status=True, message=_("If an account exists for this e-mail, a reset link is on its way."))


@bp.post("/reset-password")
@documented(StatusTrue, body=ResetPasswordBody, public=True, summary="Set a new password with a reset token")
@public
@lookup_throttle
def reset_password():
    data = json_body()
    token = text_field(data, "token", TOKEN, max_length=128)
    password = text_field(data, "newPassword", PASSWORD, max_length=128)
    services.reset_password(token, password)
    return jsonify(status=True)


@bp.get("/verify-email")
@documented(
    StatusTrue,
    query=VerifyEmailQuery,
    extra={303: None},
    public=True,
    summary="Verify an e-mail address with its token",
)
@public
@writes_data
def verify_email():
    services.verify_email(request.args.get("token", ""))
    callback = request.args.get("callbackURL")
    if callback:
        return redirect(safe_next_path(callback), code=303)
    return jsonify(status=True)


@bp.post("/send-verification-email")
@documented(StatusTrue, body=EmailBody, public=True, summary="Send the verification e-mail again")
@public
@lookup_throttle
def send_verification_email():
    user = services.find_user_for_verification(text_field(json_body(), "email", EMAIL, max_length=254))
    if user is not None:
        services.send_verification_email(user)
    return jsonify(status=True)
