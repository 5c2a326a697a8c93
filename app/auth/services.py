"""Sign-up, sign-in, e-mail verification and password reset with single-use hashed tokens."""

from __future__ import annotations

import hashlib
import logging
import secrets
from datetime import timedelta
from urllib.parse import urlencode

import sqlalchemy as sa
from flask import current_app
from flask_babel import gettext as _

from app.accounts.models import User
from app.accounts.services import (
    create_user,
    find_user_by_email,
    hash_password,
    normalize_email,
    password_matches,
    validate_password,
)
from app.auth.models import Verification
from app.auth.sessions import revoke_user_sessions
from app.core.db import utcnow
from app.core.errors import ApiError
from app.extensions import db
from app.notifications.services import send_email
from app.referrals import services as referrals

log = logging.getLogger(__name__)

VERIFICATION_LIFETIME = timedelta(hours=24)
RESET_LIFETIME = timedelta(hours=1)
# Checked against when the e-mail is unknown, so a wrong e-mail costs as long as a wrong password.
_DUMMY_HASH = hash_password(secrets.token_urlsafe(16))


def ensure_active(user: User) -> None:
    """Refuse a suspended or banned user with a message that says which."""
    if user.status == "suspended":
        raise ApiError("account_suspended", _("Your account has been suspended. Please contact support."), 403)
    if user.status == "banned":
        raise ApiError("account_banned", _("Your account has been closed. Please contact support."), 403)


def sign_up(*, name: str, email: str, password: str, referral_code: str | None = None) -> User:
    """Create an e-mail/password user (the referral of `referral_code`'s owner) and send the welcome and verification
    e-mails. A bad or own referral code is refused before anything is written."""
    if referral_code:
        referrals.ensure_not_self(referrals.referrer_for(referral_code), email)
    user = create_user(email=email, name=name, password=password)
    if referral_code:
        referrals.apply(user, referral_code)
    send_email(user.email, "welcome", locale=user.locale, name=user.name)
    send_verification_email(user)
    return user


def authenticate(email: str, password: str) -> User:
    user = find_user_by_email(email)
    if user is None:
        password_matches(User(password_hash=_DUMMY_HASH), password)
        raise ApiError("invalid_credentials", _("The e-mail or password is wrong."), 401)
    if not password_matches(user, password):
        raise ApiError("invalid_credentials", _("The e-mail or password is wrong."), 401)
    ensure_active(user)
    return user


def email_registered(email: str) -> bool:
    return find_user_by_email(email) is not None


def _token_hash(raw: str) -> str:
    return hashlib.sha256(raw.encode()).hexdigest()


def issue_token(user: User, purpose: str, lifetime: timedelta) -> str:
    """Store a new token's hash and return the token itself, which exists only in the e-mail."""
    raw = secrets.token_urlsafe(32)
    db.session.add(
        Verification(
            id=secrets.token_urlsafe(16),
            user_id=user.id,
            purpose=purpose,
            token_hash=_token_hash(raw),
            expires_at=utcnow() + lifetime,
        )
    )
    db.session.flush()
    return raw


def consume_token(raw: str, purpose: str) -> User:
    """Spend a token once: unknown, expired, already used or of another purpose are all the same refusal."""
    now = utcnow()
    spent = db.session.execute(
        sa.update(Verification)
        .where(
            Verification.token_hash == _token_hash(raw or ""),
            Verification.purpose == purpose,
            Verification.used_at.is_(None),
            Verification.expires_at > now,
        )
        .values(used_at=now)
        .returning(Verification.user_id)
    ).first()
    if spent is None:
        raise ApiError("invalid_token", _("This link is invalid, expired or already used."), 400)
    return db.session.get(User, spent.user_id)


def _link(path: str, token: str) -> str:
    return f"{current_app.config['BASE_URL']}{path}?{urlencode({'token': token})}"


def send_verification_email(user: User) -> None:
    if user.email_verified:
        return
    token = issue_token(user, "email_verification", VERIFICATION_LIFETIME)
    send_email(user.email, "verify_email", locale=user.locale, name=user.name, link=_link("/verify-email", token))


def find_user_for_verification(email: str) -> User | None:
    user = find_user_by_email(email)
    return user if user is not None and user.status == "active" and not user.email_verified else None


def verify_email(token: str) -> User:
    user = consume_token(token, "email_verification")
    user.email_verified = True
    db.session.flush()
    referrals.qualify(user)
    return user


def request_password_reset(email: str) -> None:
    """Mail a reset link when the address belongs to an active user; say nothing either way."""
    user = find_user_by_email(normalize_email(email))
    if user is None or user.status != "active":
        return
    token = issue_token(user, "password_reset", RESET_LIFETIME)
    send_email(user.email, "reset_password", locale=user.locale, name=user.name, link=_link("/reset-password", token))


def reset_password(token: str, new_password: str) -> User:
    """Set a new password from a reset link and sign the user out everywhere."""
    user = consume_token(token, "password_reset")
    user.password_hash = hash_password(validate_password(new_password, user.email))
    revoke_user_sessions(user.id)
    # Opening the link proved the mailbox is the user's.
    user.email_verified = True
    db.session.flush()
    return user


def change_password(user: User, current_password: str, new_password: str, keep_session_id: str | None) -> int:
    """Replace the password and end every other session; returns how many were ended."""
    if user.password_hash and not password_matches(user, current_password):
        raise ApiError("invalid_credentials", _("The current password is wrong."), 400)
    user.password_hash = hash_password(validate_password(new_password, user.email))
    db.session.flush()
    return revoke_user_sessions(user.id, keep=keep_session_id)
