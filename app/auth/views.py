"""Sign-in pages: the HTML counterpart of app.auth.api, calling the same services."""

from __future__ import annotations

from flask import Blueprint, Response, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_limiter.errors import RateLimitExceeded
from flask_login import current_user

from app.accounts.models import User
from app.auth import services
from app.auth.captcha import verify_captcha
from app.auth.forms import ForgotPasswordForm, LoginForm, RegisterForm, ResetPasswordForm, VerifyEmailForm
from app.auth.guards import allow_inactive
from app.auth.web import (
    end_current_session,
    lookup_throttle,
    open_session,
    sign_in_throttle_by_email,
    sign_in_throttle_by_ip,
    signed_in,
)
from app.core.errors import ApiError
from app.core.i18n import safe_next_path
from app.core.security import public

bp = Blueprint("auth_pages", __name__)

CAPTCHA_FIELD = "cf-turnstile-response"
# A form that fails its own checks (a missing field) is re-rendered with this status; service refusals bring theirs.
INVALID_FORM = 400


def _next_path(fallback: str = "/") -> str:
    return safe_next_path(request.args.get("next"), fallback)


def _next_param() -> str | None:
    """The ?next= to carry over into form actions and links, only when it is a path on this site."""
    return safe_next_path(request.args.get("next"), fallback="") or None


def _check_captcha() -> None:
    verify_captcha(request.form.get(CAPTCHA_FIELD), request.remote_addr)


def _sign_in_and_go(user: User, remember: bool, fallback: str = "/") -> Response:
    """Sign `user` in and go on to ?next=, else to `fallback`."""
    row = open_session(user, remember)
    return signed_in(redirect(_next_path(fallback), code=303), row)


# --- sign in -------------------------------------------------------------------------------------------------


def _login_page(form: LoginForm, error: str | None = None, status: int = 200) -> tuple[str, int]:
    if error is None and "social_error" in request.args:
        error = _("Social sign-in could not be completed. Please try again.")
    return render_template("auth/login.html", form=form, error=error, next_path=_next_param()), status


def _wrong_login(email: str, error: ApiError) -> ApiError:
    """Say precisely what was wrong: no such account, or the service's own reason."""
    if error.code == "invalid_credentials" and not services.email_registered(email):
        return ApiError("unknown_email", _("No account with this e-mail."), error.status)
    return error


@bp.get("/login")
@public
def login():
    if current_user.is_authenticated:
        return redirect(_next_path())
    return _login_page(LoginForm())


@bp.post("/login")
@public
@sign_in_throttle_by_ip
@sign_in_throttle_by_email
def submit_login():
    form = LoginForm()
    if not form.validate():
        return _login_page(form, status=INVALID_FORM)
    try:
        _check_captcha()
        user = services.authenticate(form.email.data, form.password.data)
    except ApiError as error:
        refusal = _wrong_login(form.email.data, error)
        return _login_page(form, refusal.message, refusal.status)
    return _sign_in_and_go(user, remember=form.remember.data)


# --- register ------------------------------------------------------------------------------------------------


def _register_page(form: RegisterForm, error: str | None = None, status: int = 200) -> tuple[str, int]:
    return render_template("auth/register.html", form=form, error=error, next_path=_next_param()), status


@bp.get("/register")
@public
def register():
    if current_user.is_authenticated:
        return redirect(_next_path())
    return _register_page(RegisterForm(referral_code=(request.args.get("ref") or "")[:16]))


@bp.post("/register")
@public
@sign_in_throttle_by_ip
@sign_in_throttle_by_email
def submit_register():
    form = RegisterForm()
    if not form.validate():
        return _register_page(form, status=INVALID_FORM)
    try:
        _check_captcha()
        user = services.sign_up(
            name=form.name.data.strip(),
            email=form.email.data,
            password=form.password.data,
            referral_code=(form.referral_code.data or "").strip() or None,
        )
    except ApiError as error:
        return _register_page(form, error.message, error.status)
    return _sign_in_and_go(user, remember=True, fallback=url_for("billing_pages.welcome"))


# --- sign out ------------------------------------------------------------------------------------------------


@bp.post("/logout")
@public
@allow_inactive
def logout():
    return end_current_session(redirect("/", code=303))


# --- forgotten password --------------------------------------------------------------------------------------


def _forgot_page(form: ForgotPasswordForm, error: str | None = None, status: int = 200) -> tuple[str, int]:
    return render_template("auth/forgot_password.html", form=form, error=error), status


@bp.get("/forgot-password")
@public
def forgot_password():
    return _forgot_page(ForgotPasswordForm())


@bp.post("/forgot-password")
@public
@lookup_throttle
def submit_forgot_password():
    form = ForgotPasswordForm()
    if not form.validate():
        return _forgot_page(form, status=INVALID_FORM)
    services.request_password_reset(form.email.data)
    # The same answer whether or not the address has an account, so the page cannot be used to probe for one.
    flash(_("If an account exists for this e-mail, a reset link is on its way."), "success")
    return redirect(url_for(".forgot_password"), code=303)


def _reset_page(form: ResetPasswordForm, error: str | None = None, status: int = 200) -> tuple[str, int]:
    return render_template("auth/reset_password.html", form=form, error=error), status


@bp.get("/reset-password")
@public
def reset_password():
    return _reset_page(ResetPasswordForm(token=request.args.get("token", "")))


@bp.post("/reset-password")
@public
@lookup_throttle
def submit_reset_password():
    form = ResetPasswordForm()
    if not form.validate():
        return _reset_page(form, status=INVALID_FORM)
    try:
        services.reset_password(form.token.data or "", form.password.data)
    except ApiError as error:
        return _reset_page(form, error.message, error.status)
    flash(_("Your password has been changed. Sign in with the new one."), "success")
    return redirect(url_for(".login"), code=303)


# --- e-mail verification -------------------------------------------------------------------------------------


def _verify_page(form: VerifyEmailForm, error: str | None = None, status: int = 200) -> tuple[str, int]:
    return render_template("auth/verify_email.html", form=form, error=error), status


@bp.get("/verify-email")
@public
def verify_email():
    # Only a button here: mail scanners that open the link must not spend the token, so the POST does.
    return _verify_page(VerifyEmailForm(token=request.args.get("token", "")))


@bp.post("/verify-email")
@public
def submit_verify_email():
    form = VerifyEmailForm()
    try:
        services.verify_email(form.token.data or "")
    except ApiError as error:
        return _verify_page(form, error.message, error.status)
    flash(_("Your e-mail address is confirmed. Thank you!"), "success")
    destination = "accounts_pages.account" if current_user.is_authenticated else ".login"
    return redirect(url_for(destination), code=303)


# --- throttling ----------------------------------------------------------------------------------------------

THROTTLED_FORMS = {
    "auth_pages.submit_login": (_login_page, LoginForm),
    "auth_pages.submit_register": (_register_page, RegisterForm),
    "auth_pages.submit_forgot_password": (_forgot_page, ForgotPasswordForm),
    "auth_pages.submit_reset_password": (_reset_page, ResetPasswordForm),
}


@bp.errorhandler(RateLimitExceeded)
def _throttled(_error: RateLimitExceeded):
    """Keep the visitor on the form they sent, with the reason, instead of a bare error page."""
    page, form_class = THROTTLED_FORMS[request.endpoint]
    return page(form_class(), _("Too many attempts. Please wait a minute and try again."), 429)
