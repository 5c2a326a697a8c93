"""Users: creation with a collision-safe referral code, linked sign-in methods, deletion."""

from __future__ import annotations

import logging
import re
import secrets
import uuid

import sqlalchemy as sa
from flask import current_app
from flask_babel import gettext as _
from flask_login import AnonymousUserMixin
from werkzeug.security import check_password_hash, generate_password_hash

from app.accounts.models import ROLES, SHOP_ROLES, Account, User
from app.accounts.signals import user_created, user_deleted, user_deleting
from app.core.errors import ApiError
from app.extensions import db

log = logging.getLogger(__name__)

# No 0/O or 1/I/L, so a code read aloud over the phone or copied by hand comes out right.
REFERRAL_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
REFERRAL_CODE_LENGTH = 8
REFERRAL_CODE_ATTEMPTS = 8

EMAIL_PATTERN = re.compile(r"^[^@\s]{1,64}@[^@\s]+\.[^@\s]{2,}$")
PASSWORD_MIN_LENGTH = 8
PASSWORD_MAX_LENGTH = 128


def normalize_email(raw: str) -> str:
    return raw.strip().lower()


def validate_email(email: str) -> str:
    if not EMAIL_PATTERN.match(email):
        raise ApiError("invalid_email", _("Enter a valid e-mail address."), 400)
    return email


def validate_password(password: str, email: str = "") -> str:
    """Length rules only (8 to 128 characters), and not the e-mail address itself; see docs/decisions.md."""
    if len(password) < PASSWORD_MIN_LENGTH:
        raise ApiError(
            "weak_password", _("The password must be at least %(min)d characters.", min=PASSWORD_MIN_LENGTH), 400
        )
    if len(password) > PASSWORD_MAX_LENGTH:
        raise ApiError(
            "weak_password", _("The password can be at most %(max)d characters.", max=PASSWORD_MAX_LENGTH), 400
        )
    if email and password.strip().lower() in {email, email.partition("@")[0]}:
        raise ApiError("weak_password", _("The password must not be your e-mail address."), 400)
    return password


def hash_password(password: str) -> str:
    return generate_password_hash(password, method="scrypt")


def password_matches(user: User | None, password: str) -> bool:
    if user is None or not user.password_hash:
        return False
    return check_password_hash(user.password_hash, password)


def find_user_by_email(email: str) -> User | None:
    return db.session.scalar(sa.select(User).where(User.email == normalize_email(email)))


def generate_referral_code() -> str:
    return "".join(secrets.choice(REFERRAL_ALPHABET) for _ in range(REFERRAL_CODE_LENGTH))


def create_user(
    *,
    email: str,
    name: str,
    password: str | None = None,
    role: str = "user",
    email_verified: bool = False,
    shop_id: uuid.UUID | None = None,
    shop_role: str = "owner",
) -> User:
    """Create a user; a taken e-mail is refused, a referral code collision is retried with a new code. The user joins
    `shop_id` as `shop_role`, or with no shop named gets a one-person shop of their own (`user_created`)."""
    email = validate_email(normalize_email(email))
    if role not in ROLES or shop_role not in SHOP_ROLES:
        raise ApiError("invalid_role", _("Unknown role."), 400)
    if find_user_by_email(email) is not None:
        raise ApiError("email_taken", _("An account with this e-mail already exists."), 409)
    password_hash = hash_password(validate_password(password, email)) if password is not None else None
    for _attempt in range(REFERRAL_CODE_ATTEMPTS):
        user = User(
            email=email,
            name=name,
            password_hash=password_hash,
            role=role,
            email_verified=email_verified,
            referral_code=generate_referral_code(),
            shop_id=shop_id,
            shop_role=shop_role,
        )
        try:
            with db.session.begin_nested():
                db.session.add(user)
        except sa.exc.IntegrityError:
            if find_user_by_email(email) is not None:  # lost a race for the same e-mail
                raise ApiError("email_taken", _("An account with this e-mail already exists."), 409) from None
            log.info("referral code collision, drawing again")
            continue
        user_created.send(current_app._get_current_object(), user=user)
        return user
    raise RuntimeError("could not draw a free referral code")


def sign_in_methods(user: User) -> dict:
    return {
        "hasPassword": bool(user.password_hash),
        "connections": [
            {"provider": account.provider, "email": account.email, "linkedAt": account.created_at.isoformat()}
            for account in sorted(user.accounts, key=lambda account: account.created_at)
        ],
    }


def unlink_provider(user: User, provider: str) -> None:
    """Remove a social link, unless it is the user's last way to sign in."""
    linked = [account for account in user.accounts if account.provider == provider]
    if not linked:
        raise ApiError("not_linked", _("This sign-in method is not linked to your account."), 404)
    if not user.password_hash and len(user.accounts) == len(linked):
        raise ApiError(
            "last_sign_in_method",
            _("This is your only way to sign in. Set a password before removing it."),
            409,
        )
    for account in linked:
        user.accounts.remove(account)
    db.session.flush()


def confirms_identity(user: User, confirmation: str) -> bool:
    """Users with a password confirm with it; social-only users type their e-mail address."""
    if user.password_hash:
        return password_matches(user, confirmation)
    return normalize_email(confirmation) == user.email


def delete_user(user: User) -> None:
    """Delete the user; sessions, links and tokens go with it, shared vehicles and anonymised logs stay, and what
    they made for their shop stays the shop's. The domains above may refuse first (`user_deleting`)."""
    app = current_app._get_current_object()
    user_deleting.send(app, user=user)
    user_id, shop_id = user.id, user.shop_id
    db.session.delete(user)
    db.session.flush()
    user_deleted.send(app, user_id=user_id, shop_id=shop_id)
    log.info("user %s deleted their account", user_id)


def link_account(user: User, provider: str, subject: str, email: str | None) -> Account:
    account = Account(
        id=secrets.token_urlsafe(16), user=user, provider=provider, provider_account_id=subject, email=email
    )
    db.session.add(account)
    db.session.flush()
    return account


def remember_language(user: User | AnonymousUserMixin, locale: str) -> None:
    """Save a signed-in user's language choice on the account, so every browser they sign in from speaks it."""
    if user.is_authenticated and user.locale != locale:
        user.locale = locale
        db.session.flush()
