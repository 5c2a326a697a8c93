"""Signing in with an OpenID Connect identity: the linked user, a verified e-mail's user, or a new user."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

import sqlalchemy as sa
from flask_babel import gettext as _

from app.accounts.models import Account, User
from app.accounts.services import create_user, find_user_by_email, link_account, normalize_email
from app.auth.services import ensure_active
from app.core.errors import ApiError
from app.extensions import db
from app.notifications.services import send_email
from app.referrals import services as referrals

log = logging.getLogger(__name__)

NAME_MAX_LENGTH = 100


def sign_in_with_provider(provider: str, claims: Mapping[str, Any], referral_code: str | None = None) -> User:
    """Return the user behind a provider identity, linking or creating one; every refusal comes before any write."""
    subject = _text_claim(claims, "sub")
    if not subject:
        raise ApiError("invalid_claims", _("The sign-in provider did not send your account details."), 400)
    account = find_linked_account(provider, subject)
    if account is not None:
        ensure_active(account.user)
        return account.user
    email = _verified_email(claims)
    user = find_user_by_email(email)
    if user is None:
        user = _create_social_user(email, _display_name(claims, email), referral_code)
    else:
        _ensure_linkable(user)
    link_account(user, provider, subject, email)
    log.info("linked a %s identity to user %s", provider, user.id)
    return user


def find_linked_account(provider: str, subject: str) -> Account | None:
    return db.session.scalar(
        sa.select(Account).where(Account.provider == provider, Account.provider_account_id == subject)
    )


def _text_claim(claims: Mapping[str, Any], name: str) -> str:
    value = claims.get(name)
    return value.strip() if isinstance(value, str) else ""


def _verified_email(claims: Mapping[str, Any]) -> str:
    """The provider's e-mail address, only when the provider vouches for it: we link and create accounts by it."""
    email = normalize_email(_text_claim(claims, "email"))
    # Some providers send the flag as the string "true".
    verified = claims.get("email_verified") in (True, "true")
    if not email or not verified:
        raise ApiError(
            "email_not_verified",
            _("The sign-in provider has not verified your e-mail address, so we cannot use it."),
            403,
        )
    return email


def _ensure_linkable(user: User) -> None:
    # An unverified account may belong to someone who typed another person's address; linking would hand it over.
    if not user.email_verified:
        raise ApiError(
            "account_not_verified",
            _("An account with this e-mail exists but is not verified yet. Verify it first, then sign in."),
            409,
        )
    ensure_active(user)


def _display_name(claims: Mapping[str, Any], email: str) -> str:
    name = _text_claim(claims, "name") or email.partition("@")[0]
    return name[:NAME_MAX_LENGTH]


def _create_social_user(email: str, name: str, referral_code: str | None) -> User:
    user = create_user(email=email, name=name, password=None, email_verified=True)
    send_email(user.email, "welcome", locale=user.locale, name=user.name)
    if referral_code:
        _apply_referral(user, referral_code)
    return user


def _apply_referral(user: User, code: str) -> None:
    """The provider verified the e-mail, so the referral qualifies at once. A code that cannot be applied (unknown, the
    user's own) is dropped: the dealer cannot correct it on the provider's page, and the sign-up itself must work."""
    try:
        with db.session.begin_nested():
            referrals.apply(user, code)
    except ApiError as refusal:
        log.info("referral code at social sign-up not applied: %s", refusal.code)
