"""Response security policy (CSP and headers), Flask's signed cookie session, the view markers (open without a
session, role asked for) and the constant-time token check."""

from __future__ import annotations

import base64
import copy
import functools
import hashlib
import hmac
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar
from urllib.parse import urlsplit

from flask import Flask, Request, Response, current_app, redirect, request
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface
from flask_talisman import Talisman
from itsdangerous import BadSignature, URLSafeTimedSerializer
from markupsafe import Markup
from werkzeug.datastructures import Headers

from app.core.errors import is_api_request
from app.extensions import csrf

# Runs before first paint so a dark-theme user never sees a light flash; allowed by hash, not 'unsafe-inline'.
THEME_SCRIPT = (
    "(function(){try{var t=localStorage.getItem('theme');"
    "if(t==='dark'||t==='light'){document.documentElement.setAttribute('data-theme',t);}}catch(e){}})();"
)


def script_hash(source: str) -> str:
    digest = hashlib.sha256(source.encode()).digest()
    return f"'sha256-{base64.b64encode(digest).decode()}'"


def _sources(*values: str) -> list[str]:
    """Keep configured hosts only, in order, without repeats."""
    seen: list[str] = []
    for value in values:
        if value and value not in seen:
            seen.append(value)
    return seen


def _origin(url: str) -> str:
    """scheme://host[:port] of an absolute URL, "" for a site-relative one ('self' covers it).

    A CSP source with a path matches that path only (without a trailing slash, that exact file), so a STORAGE_URL
    such as https://s3.example.com/bucket must be listed as its origin for the objects under it to load.
    """
    parts = urlsplit(url)
    host = parts.netloc.rpartition("@")[2]  # never user:password@ into a response header
    return f"{parts.scheme}://{host}" if parts.scheme and host else ""


def content_security_policy(config: Mapping[str, Any]) -> dict[str, list[str]]:
    """The CSP of Authentication rule 11, built from the configured hosts."""
    storage = _origin(config.get("STORAGE_URL", ""))
    third_party = _sources(
        config.get("ANALYTICS_HOST", ""),
        config.get("LIVECHAT_HOST", ""),
        config.get("CAPTCHA_HOST", ""),
        config.get("ERROR_TRACKING_HOST", ""),
    )
    return {
        "default-src": ["'self'"],
        "base-uri": ["'self'"],
        "object-src": ["'none'"],
        "frame-ancestors": ["'none'"],
        # Chrome applies form-action to the redirect after a form post, so the hosted checkout must be listed.
        "form-action": _sources("'self'", config.get("CHECKOUT_ORIGIN", "")),
        "img-src": _sources("'self'", "data:", storage),
        "media-src": ["'self'", "data:"],
        "style-src": ["'self'"],
        "font-src": ["'self'"],
        # 'wasm-unsafe-eval': compiling WebAssembly only (the VIN scan's barcode reader), never eval() of scripts.
        "script-src": _sources("'self'", "'wasm-unsafe-eval'", script_hash(THEME_SCRIPT), *third_party),
        "connect-src": _sources(
            "'self'", storage, *third_party, config.get("LIVECHAT_WS_HOST", ""), *config.get("EXTRA_CONNECT_HOSTS", [])
        ),
        "frame-src": third_party or ["'none'"],
    }


def redirect_to_https() -> Response | None:
    """Send a plain-HTTP request to its HTTPS address: 301 for reads, 308 for the rest so a POST stays a POST."""
    forwarded_https = request.headers.get("X-Forwarded-Proto", "http") == "https"  # as Talisman trusted it
    if request.is_secure or forwarded_https or current_app.debug or not request.url.startswith("http://"):
        return None
    code = 301 if request.method in ("GET", "HEAD") else 308
    return redirect(request.url.replace("http://", "https://", 1), code=code)


class FixedPolicyTalisman(Talisman):
    """Talisman with the headers that are the same on every response worked out once, not parsed again from the
    policy on every response (a tenth of a small signed-in request), and without its hooks that do nothing here: the
    HTTPS redirect is ours (`redirect_to_https`) and no policy asks for a nonce. A view with its own Talisman options
    or a policy with a nonce is served by Talisman as before; HSTS still depends on each request."""

    def init_app(self, app: Flask, **options: Any) -> None:
        super().init_app(app, **options)
        self._fixed: list[tuple[str, str, str]] | None = None  # (lowered name, name, value)
        hooks = app.before_request_funcs.setdefault(None, [])
        if not self.force_https:
            hooks.remove(self._force_https)
            if self.session_cookie_secure and not app.debug:
                app.config["SESSION_COOKIE_SECURE"] = True  # what that hook did on every request
        if not self.content_security_policy_nonce_in:
            hooks.remove(self._make_nonce)

    def _set_response_headers(self, response: Response) -> Response:
        endpoint = request.endpoint
        view = current_app.view_functions.get(endpoint) if endpoint else None
        if self.content_security_policy_nonce_in or hasattr(view, "talisman_view_options"):
            return super()._set_response_headers(response)
        if self._fixed is None:
            self._fixed = self._fixed_headers()
        headers = response.headers
        own = {name.lower() for name in headers.keys()}  # noqa: SIM118 - Headers iterates as pairs
        # Values checked once when they were worked out; a header the view set itself stands (the shared quote's
        # stricter Referrer-Policy), where Talisman would overwrite it.
        headers.extend([(name, value) for lowered, name, value in self._fixed if lowered not in own])
        if self.strict_transport_security:
            self._set_hsts_headers(headers)
        return response

    def _fixed_headers(self) -> list[tuple[str, str, str]]:
        headers = Headers()
        options = self._get_local_options()
        self._set_feature_policy_headers(headers, options)
        self._set_permissions_policy_headers(headers, options)
        self._set_document_policy_headers(headers, options)
        self._set_frame_options_headers(headers, options)
        self._set_content_security_policy_headers(headers, options)
        self._set_referrer_policy_headers(headers)
        return [(name.lower(), name, value) for name, value in headers.items()]


def init_security_headers(app: Flask) -> None:
    # One Talisman per app: it keeps its options on the instance, so a shared one would give every app the last CSP.
    https = app.config["FORCE_HTTPS"]
    if https:
        # Ours, not Talisman's (302 to every method, which turns a POST into a GET), and first of all the hooks: the
        # form-token check would refuse a plain-HTTP POST, whose Secure cookies the browser did not send.
        app.before_request_funcs.setdefault(None, []).insert(0, redirect_to_https)
    app.extensions["talisman"] = FixedPolicyTalisman(
        app,
        force_https=False,
        strict_transport_security=https,
        session_cookie_secure=app.config["SESSION_COOKIE_SECURE"],
        content_security_policy=content_security_policy(app.config),
        frame_options="DENY",
        referrer_policy="strict-origin-when-cross-origin",
    )
    app.jinja_env.globals["theme_script"] = Markup(THEME_SCRIPT)  # noqa: S704 - a constant of ours, no input


# Signed cookie sessions whose contents a process keeps once verified (each entry is one cookie of up to 4 KB and
# its decoded contents: a few MB at most).
KEPT_COOKIE_SESSIONS = 512
_FLAT = (str, int, float, type(None))  # values a request can only replace, never change in place


@dataclass(frozen=True)
class _OpenedCookie:
    """A verified cookie's contents, when it was signed (its age is checked on every request) and whether a shallow
    copy keeps a request's changes out of them (no list or dict inside)."""

    data: dict
    signed_at: int
    flat: bool


@dataclass(frozen=True)
class _Signing:
    """The serializer of one set of keys and the cookies it has verified: new keys start with none kept."""

    keys: tuple
    serializer: URLSafeTimedSerializer | None
    opened: Callable[[str], _OpenedCookie]


class KeptSerializerSessionInterface(SecureCookieSessionInterface):
    """Flask's signed cookie session (it holds the form token), with its serializer made once per set of keys instead
    of on every request, and each cookie's signature verified and its JSON decoded once per process: the latest
    KEPT_COOKIE_SESSIONS cookies are kept with their contents, by the exact cookie string and per serializer (a new
    SECRET_KEY or fallback verifies every cookie again). A tampered cookie is another string, verified and refused
    (never kept); a kept cookie's age is checked against PERMANENT_SESSION_LIFETIME on every request, as
    itsdangerous checks it; each request gets its own copy of the contents, since it may change them."""

    def __init__(self, kept: int = KEPT_COOKIE_SESSIONS) -> None:
        self._kept = kept
        self._made: _Signing | None = None

    def get_signing_serializer(self, app: Flask) -> URLSafeTimedSerializer | None:
        return self._signing(app).serializer

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession | None:
        signing = self._signing(app)
        if signing.serializer is None:
            return None
        cookie = request.cookies.get(self.get_cookie_name(app))
        if not cookie:
            return self.session_class()
        try:
            opened = signing.opened(cookie)
        except BadSignature:
            return self.session_class()
        age = int(time.time()) - opened.signed_at
        if not 0 <= age <= app.permanent_session_lifetime.total_seconds():
            return self.session_class()  # expired (or signed in the future), as itsdangerous's max_age refuses it
        # The session class copies the top level itself; only nested lists and dicts need a deep copy.
        return self.session_class(opened.data if opened.flat else copy.deepcopy(opened.data))

    def _signing(self, app: Flask) -> _Signing:
        keys = (app.secret_key, tuple(app.config["SECRET_KEY_FALLBACKS"] or ()))
        made = self._made
        if made is None or made.keys != keys:
            serializer = super().get_signing_serializer(app)
            made = self._made = _Signing(keys, serializer, functools.lru_cache(self._kept)(_opener(serializer)))
        return made


def _opener(serializer: URLSafeTimedSerializer | None) -> Callable[[str], _OpenedCookie]:
    def open_cookie(cookie: str) -> _OpenedCookie:
        """Verify and decode a cookie (BadSignature if it is not one of ours; lru_cache keeps no exception)."""
        data, signed_at = serializer.loads(cookie, return_timestamp=True)
        return _OpenedCookie(data, int(signed_at.timestamp()), all(isinstance(v, _FLAT) for v in data.values()))

    return open_cookie


def init_form_csrf(app: Flask) -> None:
    """Pages and forms need Flask-WTF's token; /api calls are covered by the session-cookie origin rule instead."""
    app.session_interface = KeptSerializerSessionInterface()
    app.config["WTF_CSRF_CHECK_DEFAULT"] = False
    csrf.init_app(app)

    @app.before_request
    def _check_form_token() -> None:
        view = app.view_functions.get(request.endpoint) if request.endpoint else None
        if not is_api_request() and not getattr(view, "without_form_token", False):
            csrf.protect()


View = TypeVar("View", bound=Callable[..., Any])


def without_form_token(view: View) -> View:
    """A page POST that a browser's own scripts send without a form (the monitoring collector): no CSRF token."""
    view.without_form_token = True  # type: ignore[attr-defined]
    return view


def public(view: View) -> View:
    """Mark a view as reachable without a session; every unmarked view requires one."""
    view.is_public = True  # type: ignore[attr-defined]
    return view


def requires_role(role: str) -> Callable[[View], View]:
    """Mark a view as open to users of this role only (the session guard in app.auth.guards enforces it)."""

    def mark(view: View) -> View:
        view.required_role = role  # type: ignore[attr-defined]
        return view

    return mark


def person_only(view: View) -> View:
    """Mark a view as a person's own (their account, their session): a shop API key never reaches it, only a
    signed-in session (the guard in app.auth.guards refuses the key)."""
    view.person_only = True  # type: ignore[attr-defined]
    return view


def shop_role(role: str) -> Callable[[View], View]:
    """Declare the least role in their shop a member needs for this view ("clerk", "manager" or "owner"); the guard
    (app.auth.guards) refuses a view that is neither public, nor for the site's admins, nor declares one."""

    def mark(view: View) -> View:
        view.shop_role = role  # type: ignore[attr-defined]
        return view

    return mark


def token_is_valid(given: str | None, expected: str | None) -> bool:
    """Compare in constant time; an empty configured token matches nothing."""
    if not expected or not given:
        return False
    try:
        # Header values arrive decoded as Latin-1 (WSGI); encoding back gives the bytes the client sent.
        given_bytes = given.encode("latin-1")
    except UnicodeEncodeError:
        return False
    return hmac.compare_digest(given_bytes, expected.encode())
