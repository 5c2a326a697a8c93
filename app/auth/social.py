"""Social sign-in through one OpenID Connect provider (authlib), started from the API or the sign-in pages.

The flow: a start route remembers where to return and sends the browser to the provider; the provider sends it back
to the callback, which checks state, nonce and the signed id_token, then signs the user in or names the refusal in
`/login?social_error=<code>`.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import requests
from authlib.integrations.base_client import MismatchingStateError, OAuthError
from authlib.integrations.flask_client import FlaskOAuth2App, OAuth
from flask import Blueprint, Response, current_app, jsonify, redirect, request, url_for
from flask import session as browser_session
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from joserfc.errors import JoseError

from app.auth.oidc import sign_in_with_provider
from app.auth.schemas import SocialSignInBody, SocialStart
from app.auth.web import open_session, sign_in_throttle_by_ip, signed_in
from app.core.db import begin_writes, mark_refusal
from app.core.errors import ApiError
from app.core.i18n import safe_next_path
from app.core.openapi import documented
from app.core.security import public
from app.core.validation import json_body, text_field
from app.extensions import db
from app.referrals.services import CODE_PATTERN

log = logging.getLogger(__name__)

bp = Blueprint("auth_social", __name__)

SCOPE = "openid email profile"
PROVIDER_TIMEOUT_SECONDS = 10
RETURN_PATH_KEY = "social_return_path"
REFERRAL_CODE_KEY = "social_referral_code"
PROVIDER_LABELS = {"google": "Google"}
PROVIDER = _l("Provider")
CALLBACK_URL = _l("Callback URL")
REFERRAL_CODE = _l("Referral code")


class SocialSignInError(Exception):
    """The provider's answer could not be trusted; `code` goes to the sign-in page."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


@dataclass(frozen=True)
class SocialProvider:
    name: str
    label: str


def configured_provider() -> SocialProvider | None:
    """The provider offered on this site, or None when no client id is configured."""
    if not current_app.config.get("OIDC_CLIENT_ID"):
        return None
    name = current_app.config["OIDC_PROVIDER"]
    return SocialProvider(name=name, label=PROVIDER_LABELS.get(name, name.title()))


@bp.app_context_processor
def _social_provider_for_templates() -> dict:
    return {"social_provider": configured_provider()}


def _oauth_registry() -> OAuth:
    """One registry per app, built on first use: tests run several apps with different provider settings."""
    app = current_app._get_current_object()
    registry = app.extensions.get("authlib.integrations.flask_client")
    if registry is None:
        registry = OAuth(app)  # stores itself in app.extensions
        registry.register(
            app.config["OIDC_PROVIDER"],
            client_id=app.config["OIDC_CLIENT_ID"],
            client_secret=app.config["OIDC_CLIENT_SECRET"],
            server_metadata_url=app.config["OIDC_DISCOVERY_URL"],
            client_kwargs={
                "scope": SCOPE,
                "code_challenge_method": "S256",
                "default_timeout": PROVIDER_TIMEOUT_SECONDS,
            },
        )
    return registry


def _provider_client(provider: str) -> FlaskOAuth2App:
    configured = configured_provider()
    if configured is None or provider != configured.name:
        raise ApiError("provider_unavailable", _("This sign-in method is not available."), 404)
    return _oauth_registry().create_client(provider)


def _redirect_uri(provider: str) -> str:
    # From the configured address, never the Host header: the provider only accepts the registered URI anyway.
    return f"{current_app.config['BASE_URL']}/api/auth/callback/{provider}"


def _authorization_url(provider: str, return_path: str | None) -> str:
    """Remember where to return, keep state, nonce and PKCE verifier in the session, and give the provider URL."""
    client = _provider_client(provider)
    redirect_uri = _redirect_uri(provider)
    try:
        authorization = client.create_authorization_url(redirect_uri)
    except requests.RequestException as error:
        log.warning("%s discovery failed: %s", provider, type(error).__name__)
        raise ApiError(
            "provider_unreachable", _("The sign-in provider could not be reached. Please try again."), 502
        ) from None
    client.save_authorize_data(redirect_uri=redirect_uri, **authorization)
    browser_session[RETURN_PATH_KEY] = safe_next_path(return_path)
    return authorization["url"]


@bp.post("/api/auth/sign-in/social")
@documented(
    SocialStart,
    body=SocialSignInBody,
    errors=(404, 502),
    public=True,
    summary="Start a social sign-in: the provider's address",
)
@public
@sign_in_throttle_by_ip
def start_from_api() -> Response:
    data = json_body()
    provider = text_field(data, "provider", PROVIDER, max_length=32)
    return_path = text_field(data, "callbackURL", CALLBACK_URL, max_length=2000, required=False)
    _remember_referral_code(text_field(data, "referralCode", REFERRAL_CODE, max_length=16, required=False))
    return jsonify(url=_authorization_url(provider, return_path), redirect=True)


@bp.post("/login/social")
@public
@sign_in_throttle_by_ip
def start_from_page() -> Response:
    provider = request.form.get("provider", "")
    _remember_referral_code(request.form.get("ref"))
    return redirect(_authorization_url(provider, request.form.get("next")), code=302)


@bp.get("/api/auth/callback/<provider>")
@documented(None, status=303, errors=(404,), public=True, summary="The provider's return: sign in and redirect")
@public
def callback(provider: str) -> Response:
    client = _provider_client(provider)
    return_path = browser_session.pop(RETURN_PATH_KEY, "/")
    referral_code = browser_session.pop(REFERRAL_CODE_KEY, None)
    try:
        claims = _verified_claims(client)  # the provider's token endpoint: no database lock is held while it answers
        begin_writes(db.session)
        user = sign_in_with_provider(provider, claims, referral_code)
    except (SocialSignInError, ApiError) as refusal:
        mark_refusal()  # the redirect below is a refusal: nothing is kept
        log.info("social sign-in with %s refused: %s", provider, refusal.code)
        return redirect(url_for("auth_pages.login", social_error=refusal.code), code=303)
    row = open_session(user, remember=True)
    return signed_in(redirect(return_path, code=303), row)


def _remember_referral_code(code: str | None) -> None:
    """A referral code given when a social sign-up starts, applied if the provider's return creates the user."""
    if code and CODE_PATTERN.fullmatch(code.strip()):
        browser_session[REFERRAL_CODE_KEY] = code.strip()


def _verified_claims(client: FlaskOAuth2App) -> dict:
    """Exchange the code; authlib checks the state against the session and the id_token's signature and nonce."""
    error = request.args.get("error")
    if error:
        raise SocialSignInError("cancelled" if error == "access_denied" else "provider_error")
    try:
        token = client.authorize_access_token()
    except MismatchingStateError:
        raise SocialSignInError("invalid_state") from None
    except (OAuthError, JoseError, requests.RequestException, ValueError) as failure:
        log.warning("%s token exchange failed: %s", client.name, type(failure).__name__)
        raise SocialSignInError("token_failed") from None
    claims = token.get("userinfo")
    if not claims:
        raise SocialSignInError("token_failed")
    return dict(claims)
