"""Request guards, in the spec's order: authentication, impersonation read-only, roles.

Every route needs a signed-in, active user unless its view is marked `@public`. A role is asked for with
`@requires_role("admin")` (the site's) or `@shop_role("clerk" | "manager" | "owner")` (the least role in the member's
shop), both in app.core.security. Default deny: a view that is neither public nor declares a role is refused to
everyone (403 `forbidden`; the sign-in first, as on every route, for a browser signed out); `undeclared_endpoints`
lists such views, and a debug app logs them at start
(tests/core/test_role_walk.py fails on them).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, TypeVar

from flask import Flask, Response, current_app, g, has_request_context, redirect, request, url_for
from flask_babel import gettext as _
from flask_login import LoginManager, current_user

from app.auth.api_keys import INVALID, KeyPrincipal, key_principal, rate_limit_identity
from app.auth.models import AuthSession
from app.auth.services import ensure_active
from app.auth.session_cache import init_session_cache
from app.auth.sessions import COOKIE_NAME, find_live_session
from app.core import throttle
from app.core.db import SAFE_METHODS
from app.core.errors import ApiError, is_api_request
from app.core.openapi import documented_without_body
from app.core.uploads import upload_limit

log = logging.getLogger(__name__)
login_manager = LoginManager()

View = TypeVar("View", bound=Callable[..., Any])
_UNREAD = object()


def allow_inactive(view: View) -> View:
    """Let a suspended or banned user reach this view (sign-out), so they can leave."""
    view.allow_inactive = True  # type: ignore[attr-defined]
    return view


def current_session() -> AuthSession | None:
    """The session row behind this request's cookie, if any (loaded once per request); none for a request made with a
    shop API key, which the key alone authenticates."""
    session = g.get("auth_session", _UNREAD)
    if session is _UNREAD:
        session = None if key_principal() is not None else find_live_session(request.cookies.get(COOKIE_NAME))
        g.auth_session = session
    return session


@login_manager.request_loader
def _load_user(_request) -> Any:
    session = current_session()
    return session.user if session else None


def _request_user() -> Any:
    """The request's user from its session cookie, put where Flask-Login's `current_user` looks first (`g._login_user`,
    as its own loader does): its loader would add only what this app does not use (signals, the session-protection
    hash of the address and user agent, the remember cookie) before asking `_load_user` above."""
    user = g.get("_login_user")
    if user is None:
        principal = key_principal()
        if principal is INVALID:
            g._login_user = login_manager.anonymous_user()
            raise ApiError("invalid_api_key", _("This API key is not valid: it is unknown, revoked or expired."), 401)
        user = g._login_user = principal or _load_user(request) or login_manager.anonymous_user()
    return user


def _view() -> Callable | None:
    endpoint = request.endpoint
    return current_app.view_functions.get(endpoint) if endpoint else None


def _unauthenticated() -> Response:
    if is_api_request():
        raise ApiError("unauthorized", _("You need to sign in for this."), 401)
    login_url = url_for("auth_pages.login", next=request.full_path if request.query_string else request.path)
    if request.headers.get("HX-Request"):
        return Response(status=204, headers={"HX-Redirect": login_url})
    return redirect(login_url)


def guard() -> Response | None:
    view = _view()
    if view is None or request.endpoint == "static":
        return None  # 404/405 and static files are answered by their own handlers
    is_public = getattr(view, "is_public", False)
    role = getattr(view, "required_role", None)
    needed = getattr(view, "shop_role", None)
    user = _request_user()
    # 1. Authentication: a session is needed unless the route is public; an inactive user is refused everywhere.
    if user.is_authenticated and not getattr(view, "allow_inactive", False):
        ensure_active(user)
    if not is_public and not user.is_authenticated:
        return _unauthenticated()
    # 2. Impersonation read-only: looking is allowed, changing is not.
    session = current_session()
    if session is not None and session.impersonation_readonly and request.method not in SAFE_METHODS:
        raise ApiError("read_only_session", _("This is a read-only session: changes are not allowed."), 403)
    # 3. Roles: the site's (admin), else the member's in their shop; default deny: a view that says nothing about who
    # may use it is for no one.
    if not (is_public or role or needed):
        raise ApiError("forbidden", _("This address is closed: it does not say which role may use it."), 403)
    if isinstance(user, KeyPrincipal) and getattr(view, "person_only", False):
        raise ApiError("api_key_not_allowed", _("An API key cannot be used for this; sign in instead."), 403)
    if role is not None:
        if getattr(user, "role", None) != role:
            raise ApiError("forbidden", _("You are not allowed to do this."), 403)
        return None
    if needed is not None and user.is_authenticated and not user.has_shop_role(needed):
        raise ApiError("forbidden", _("Your role in the shop does not allow this."), 403)
    return None


def declared_access(view: Callable) -> str | None:
    """Who a view is declared for: "public", a site role ("admin"), a shop role ("clerk", "manager", "owner"), or
    None when it declares nothing (the guard then refuses it to everyone)."""
    if getattr(view, "is_public", False):
        return "public"
    return getattr(view, "required_role", None) or getattr(view, "shop_role", None)


def warn_of_undeclared(app: Flask) -> None:
    """A debug app names at start the views the guard refuses to everyone for want of a declared role."""
    if app.debug and (endpoints := undeclared_endpoints(app)):
        log.warning("Views with no declared role, refused to everyone: %s", ", ".join(endpoints))


def undeclared_endpoints(app: Flask) -> list[str]:
    """The endpoints whose views declare no access (static files are served before any guard)."""
    return sorted(
        endpoint
        for endpoint, view in app.view_functions.items()
        if endpoint != "static" and declared_access(view) is None
    )


def _same_site(url: str) -> bool:
    # The site as a browser serialises an Origin (RFC 6454: the host in ASCII, punycode for a Turkish domain name);
    # `request.host_url` is an IRI, whose host werkzeug decodes to Unicode, and costs a URL rebuild per request.
    asked = request._get_current_object()  # type: ignore[attr-defined]
    site = f"{asked.scheme}://{asked.host}"
    return url == site or url.startswith(site + "/")


def _has_no_body() -> bool:
    """HTTP/1.1 framing (RFC 9112, 6.3): no Transfer-Encoding and a Content-Length absent or 0 means no body."""
    return "Transfer-Encoding" not in request.headers and request.headers.get("Content-Length", "").strip() in {"", "0"}


def _json_or_nothing() -> bool:
    """A body must be JSON; an operation the OpenAPI document gives no body may also come with none and no type; a
    route that takes an upload (`app.core.uploads.takes_upload`) takes its multipart body.

    A browser sends JSON cross-site only after a CORS preflight, which this site never grants, while a form post
    always carries its form or text type, even empty: neither can pass here, whatever page it comes from. An upload
    can only be multipart, so for its route the same-site Origin (or Referer) is the whole check: what it answers
    (the VIN candidates of a photo) changes nothing and is never readable by the page that sent it.
    """
    if request.mimetype == "application/json":
        return True
    if request.mimetype == "multipart/form-data" and upload_limit(_view()) is not None:
        return True
    return not request.mimetype and _has_no_body() and documented_without_body(_view())


def cookie_api_csrf_check() -> None:
    """A state-changing /api call that carries the session cookie must come from this site, as JSON or with no body.

    Browsers name the calling page's origin in `Origin` on every cross-site POST, PUT, PATCH and DELETE (`null` when
    the page hides it), so a same-site Origin (or, from a browser that sends none, a same-site Referer) says where the
    call came from. A cookie call with neither is refused: an old browser posts a form without Origin and a page can
    drop the Referer, and a client that is not a browser can always name the site.
    """
    asked = request._get_current_object()  # type: ignore[attr-defined] - one pass through the context proxy
    if not is_api_request() or asked.method in SAFE_METHODS or COOKIE_NAME not in asked.cookies:
        return
    headers = asked.headers
    origin = headers.get("Origin") or headers.get("Referer") or ""
    if not _same_site(origin) or not _json_or_nothing():
        raise ApiError(
            "csrf_failed", _("Your form has expired or did not come from this site. Please reload the page."), 403
        )


def impersonation_banner() -> dict[str, Any]:
    """For every page: whose account a read-only impersonation session shows, and until when (None otherwise)."""
    session = current_session() if has_request_context() else None
    if session is None or not session.impersonation_readonly:
        return {"impersonation": None}
    user = session.user
    return {"impersonation": {"name": user.name, "email": user.email, "expires_at": session.expires_at}}


def site_account() -> dict[str, str] | None:
    """The signed-in dealer as the site's header shows them (its cache key: templates/core/_site_header.html), None
    when signed out."""
    if not current_user.is_authenticated:
        return None
    return {"name": current_user.name, "email": current_user.email}


def init_auth(app: Flask) -> None:
    login_manager.init_app(app)
    # Flask-Login's remember-me cookie is not used (sessions are ours, `auth.sessions`): its hook only looked into
    # Flask's cookie session on every response.
    app.after_request_funcs[None].remove(login_manager._update_remember_cookie)
    init_session_cache(app)
    app.context_processor(impersonation_banner)
    app.jinja_env.globals["site_account"] = site_account
    throttle.identify_callers_with(rate_limit_identity)
    app.before_request(cookie_api_csrf_check)
    app.before_request(guard)
