"""Public pages: the landing page and the language switch."""

from flask import Blueprint, current_app, redirect, render_template, request
from flask_login import current_user

from app.accounts.services import remember_language
from app.core.i18n import LOCALE_COOKIE, LOCALE_COOKIE_MAX_AGE, safe_next_path
from app.core.security import public
from app.site import livechat

bp = Blueprint("site", __name__)
bp.app_context_processor(livechat.page_widget)


@bp.get("/")
@public
def landing():
    return render_template("site/landing.html")


@bp.post("/language")
@public
def set_language():
    """Remember the visitor's language choice (on the account too, when signed in) and return to the page they were
    on."""
    response = redirect(safe_next_path(request.form.get("next")), code=303)
    choice = request.form.get("lang", "")
    if choice in current_app.config["LANGUAGES"]:
        remember_language(current_user, choice)
        response.set_cookie(
            LOCALE_COOKIE,
            choice,
            max_age=LOCALE_COOKIE_MAX_AGE,
            samesite="Lax",
            secure=current_app.config["SESSION_COOKIE_SECURE"],
            httponly=True,
        )
    return response
