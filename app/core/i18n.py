"""Locale selection: Turkish unless someone asked for another language.

In order: `?lang=` on the request; the signed-in user's choice (saved on the account by the header switch); the
visitor's choice (a cookie); for /api only, the client's Accept-Language (a script asking for English); else Turkish.
Pages ignore Accept-Language: dealers' computers are often set to English and the product is Turkish first.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from babel.support import NullTranslations
from flask import Flask, current_app, g, has_request_context, request
from flask_babel import get_locale, get_translations

LOCALE_COOKIE = "lang"
LOCALE_COOKIE_MAX_AGE = 365 * 24 * 3600


def supported_locales() -> list[str]:
    return current_app.config["LANGUAGES"]


def select_locale() -> str:
    default = current_app.config["BABEL_DEFAULT_LOCALE"]
    if not has_request_context():
        return default  # jobs and CLI commands speak Turkish
    supported = supported_locales()
    for choice in (request.args.get("lang"), _account_choice(), request.cookies.get(LOCALE_COOKIE)):
        if choice in supported:
            return choice
    if request.path.startswith("/api/"):
        return request.accept_languages.best_match(supported, default=default)
    return default


def _account_choice() -> str | None:
    """The signed-in user's saved language, when the request has loaded its user already (the guards do, before
    anything is translated); never loads one just for this."""
    user = g.get("_login_user")
    return getattr(user, "locale", None)


def safe_next_path(target: str | None, fallback: str = "/") -> str:
    """Return `target` only when it is a path on this site, so a redirect can never leave it."""
    if not target:
        return fallback
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return fallback
    return target


def init_i18n(app: Flask) -> None:
    from app.config import PROJECT_ROOT
    from app.extensions import babel

    babel.init_app(
        app, locale_selector=select_locale, default_translation_directories=str(PROJECT_ROOT / "translations")
    )
    app.context_processor(lambda: {"current_locale": str(get_locale()), "languages": supported_locales()})
    app.jinja_env.install_gettext_callables(
        gettext=lambda text: request_translations().ugettext(text),
        ngettext=lambda text, plural, count: request_translations().ungettext(text, plural, count),
        newstyle=True,
        pgettext=lambda context, text: request_translations().upgettext(context, text),
        npgettext=lambda context, text, plural, count: request_translations().unpgettext(context, text, plural, count),
    )


def request_translations() -> NullTranslations:
    """The translations of the current locale, looked up once per locale and request: Flask-Babel's own template
    callables look them up again for every string, which was a tenth of a parts table's rendering. Kept beside the
    locale they belong to, so `force_locale` and `refresh` still switch them."""
    context = g.get("_flask_babel") if g else None
    cached = getattr(context, "request_translations", None)
    if cached is not None and cached[0] is getattr(context, "babel_locale", None):
        return cached[1]
    translations = get_translations()  # sets the locale on the request's Flask-Babel context, making one if need be
    context = g.get("_flask_babel") if g else None
    if context is not None and getattr(context, "babel_locale", None) is not None:
        context.request_translations = (context.babel_locale, translations)
    return translations
