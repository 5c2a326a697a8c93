"""Making, listing and revoking a shop's API keys, and finding the principal a presented key acts as.

A key is `pb_` and 43 characters of `secrets.token_urlsafe(32)` (256 random bits): only its SHA-256 is kept, which is
enough for a secret of that entropy (no slow hash is needed: nobody can try 2^256 keys). The first characters find the
candidate rows by an index, and the hashes are compared in constant time. The last use is written at most once a
minute per key (LAST_USED_EVERY), not on every call.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import uuid
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta

import sqlalchemy as sa
from flask_babel import gettext as _

from app.accounts.models import User
from app.auth.api_keys import KeyPrincipal
from app.core.db import begin_writes, utcnow
from app.core.errors import ApiError
from app.extensions import db
from app.shops.keys.models import KEY_ROLES, ShopApiKey

KEY_START = "pb_"
PREFIX_LENGTH = len(KEY_START) + 8  # what the list shows and the lookup's index holds
KEY_MAX_LENGTH = 100  # a presented key longer than any we make is not looked up
NAME_MAX_LENGTH = 80
LAST_USED_EVERY = timedelta(minutes=1)


@dataclass(frozen=True)
class NewKey:
    """A key just made: its row, and the key itself, shown this once and never again."""

    row: ShopApiKey
    secret: str


def _digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def create_key(owner: User, name: str, role: str, expires_on: date | None = None) -> NewKey:
    """Make a key for the owner's shop acting with `role` (clerk or manager), valid through `expires_on` if given."""
    if role not in KEY_ROLES:
        raise ApiError("invalid_role", _("An API key's role is clerk or manager."), 400)
    expires_at = _end_of(expires_on) if expires_on else None
    if expires_at is not None and expires_at <= utcnow():
        raise ApiError("invalid_expiry", _("The expiry date must be in the future."), 400)
    secret = KEY_START + secrets.token_urlsafe(32)
    row = ShopApiKey(
        shop_id=owner.shop_id,
        created_by=owner.id,
        name=name,
        role=role,
        prefix=secret[:PREFIX_LENGTH],
        key_hash=_digest(secret),
        expires_at=expires_at,
    )
    db.session.add(row)
    db.session.flush()
    return NewKey(row, secret)


def parse_expiry(text: str | None) -> date | None:
    """The expiry day a client or the form gives (YYYY-MM-DD), None when none is given."""
    if not text:
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise ApiError("invalid_expiry", _("The expiry date must be a date such as 2027-01-31."), 400) from None


def _end_of(day: date) -> datetime:
    """A key valid through `day` stops at the end of it (UTC)."""
    return datetime.combine(day + timedelta(days=1), time.min, tzinfo=UTC)


def keys_of(shop_id: uuid.UUID) -> list[ShopApiKey]:
    """The shop's keys, the newest first, revoked ones included (marked)."""
    query = sa.select(ShopApiKey).where(ShopApiKey.shop_id == shop_id).order_by(ShopApiKey.id.desc())
    return list(db.session.scalars(query))


def creators_of(keys: list[ShopApiKey]) -> dict[uuid.UUID, str]:
    """The names of the members who made these keys."""
    ids = {key.created_by for key in keys}
    if not ids:
        return {}
    return {
        user_id: name for user_id, name in db.session.execute(sa.select(User.id, User.name).where(User.id.in_(ids)))
    }


def revoke_key(shop_id: uuid.UUID, key_id: int) -> ShopApiKey:
    """Revoke one of the shop's keys (at once: its next call answers 401); revoking it again changes nothing."""
    row = db.session.get(ShopApiKey, key_id)
    if row is None or row.shop_id != shop_id:
        raise ApiError("not_found", _("No such API key."), 404)
    if row.revoked_at is None:
        row.revoked_at = utcnow()
        db.session.flush()
    return row


def principal_for(key: str) -> KeyPrincipal | None:
    """The principal a presented key acts as, or None for an unknown, revoked or expired key, or one whose maker is no
    longer in its shop. Registered with `app.auth.api_keys.load_keys_with`."""
    if not key.startswith(KEY_START) or len(key) > KEY_MAX_LENGTH:
        return None
    row = _matching(key)
    now = utcnow()
    if row is None or not row.is_live(now):
        return None
    maker = db.session.get(User, row.created_by)
    if maker is None or maker.shop_id != row.shop_id:
        return None
    _note_use(row, now)
    return KeyPrincipal(maker, row.id, row.role)


def _matching(key: str) -> ShopApiKey | None:
    digest = _digest(key)
    found = None
    for row in db.session.scalars(sa.select(ShopApiKey).where(ShopApiKey.prefix == key[:PREFIX_LENGTH])):
        if hmac.compare_digest(row.key_hash, digest):
            found = row
    return found


def _note_use(row: ShopApiKey, now: datetime) -> None:
    """Write the last use when the one kept is a minute old or more (a busy integration writes once a minute)."""
    if row.last_used_at is not None and now - row.last_used_at < LAST_USED_EVERY:
        return
    key_id = row.id
    begin_writes(db.session, durable=False)
    db.session.execute(sa.update(ShopApiKey).where(ShopApiKey.id == key_id).values(last_used_at=now))
