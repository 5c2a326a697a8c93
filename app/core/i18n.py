"""Locale selection: the user's choice (a cookie), then Accept-Language, then Turkish."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Flask, current_app, has_request_context, request
from flask_babel import get_locale

LOCALE_COOKIE = "lang"
LOCALE_COOKIE_MAX_AGE = 365 * 24 * 3600


def supported_locales() -> list[str]:
    return current_app.config["LANGUAGES"]


def select_locale() -> str:
    if not has_request_context():
        return current_app.config["BABEL_DEFAULT_LOCALE"]  # jobs and CLI commands speak Turkish
    choice = request.cookies.get(LOCALE_COOKIE)
    if choice in supported_locales():
        return choice
    return request.accept_languages.best_match(supported_locales(), default=current_app.config["BABEL_DEFAULT_LOCALE"])


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
