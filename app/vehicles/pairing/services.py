"""The pairings, kept in Redis only: a random link token for the phone, a random id for the PC's polls.

A pairing lives `TTL_SECONDS` (Redis expires its keys), takes one VIN (the token is spent by the first send) and is read
back only by the session that created it: it stores a hash of that session's id, never the id, and the token only as
its hash, so nothing in Redis opens a session or rebuilds a link. The phone gets nothing from it but the right to send
one VIN to that page. Redis not answering is a clear 503, never a 500.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass

import redis
from flask_babel import gettext as _

from app.core.errors import ApiError
from app.core.redis_store import UNAVAILABLE, redis_key
from app.extensions import redis_store

TTL_SECONDS = 600
KEY_PREFIX = "vin-pairing"
TOKEN_PATTERN = re.compile(r"[A-Za-z0-9_-]{20,64}")


@dataclass(frozen=True)
class Pairing:
    """A new pairing: its id (the PC's polls) and token (the phone's link)."""

    id: str
    token: str


def _digest(value: str) -> str:
    return hashlib.sha256(value.encode()).hexdigest()


def pairing_key(pairing_id: str) -> str:
    return redis_key(KEY_PREFIX, "pc", pairing_id)


def token_key(token: str) -> str:
    return redis_key(KEY_PREFIX, "token", _digest(token))


def used_key(token: str) -> str:
    return redis_key(KEY_PREFIX, "used", _digest(token))


def _unavailable() -> ApiError:
    return ApiError(
        "pairing_unavailable",
        _("Pairing with a phone is not available right now. Please try again in a moment."),
        503,
    )


def _expired() -> ApiError:
    return ApiError(
        "pairing_expired",
        _("This pairing link has expired or is not valid. Show a new QR code on the counter PC and scan it again."),
        410,
    )


def _used() -> ApiError:
    return ApiError(
        "pairing_used",
        _("This pairing link has already been used. Show a new QR code on the counter PC and scan it again."),
        410,
    )


def _not_yours() -> ApiError:
    return ApiError(
        "pairing_not_yours", _("This pairing belongs to another session. Pair the phone again from this page."), 403
    )


def _client() -> redis.Redis:
    return redis_store.client


def create(session_id: str) -> Pairing:
    """Start a pairing for this session: ten minutes for a phone to send one VIN."""
    pairing = Pairing(secrets.token_urlsafe(18), secrets.token_urlsafe(24))
    try:
        with _client().pipeline() as pipe:
            pipe.hset(
                pairing_key(pairing.id), mapping={"session": _digest(session_id), "token": _digest(pairing.token)}
            )
            pipe.expire(pairing_key(pairing.id), TTL_SECONDS)
            pipe.set(token_key(pairing.token), pairing.id, ex=TTL_SECONDS)
            pipe.execute()
    except UNAVAILABLE as error:
        raise _unavailable() from error
    return pairing


def check_token(token: str) -> None:
    """Refuse a link that is malformed, expired or already used (the phone's page, before it scans)."""
    try:
        _live_pairing_id(token)
        if _client().exists(used_key(token)):
            raise _used()
    except UNAVAILABLE as error:
        raise _unavailable() from error


def send_vin(token: str, vin: str) -> None:
    """The phone's one VIN for the pairing behind `token`; the first send spends the token."""
    try:
        pairing_id = _live_pairing_id(token)
        if not _client().set(used_key(token), 1, nx=True, ex=TTL_SECONDS):
            raise _used()
        key = pairing_key(pairing_id)
        seconds_left = _client().ttl(key)
        if seconds_left <= 0:  # the PC's side ended (taken or expired) while the token still stood
            raise _expired()
        with _client().pipeline() as pipe:  # the write keeps the pairing's end: it never outlives its ten minutes
            pipe.hset(key, "vin", vin)
            pipe.expire(key, seconds_left)
            pipe.execute()
    except UNAVAILABLE as error:
        raise _unavailable() from error


def take_vin(pairing_id: str, session_id: str) -> str | None:
    """The VIN the phone sent, once (the pairing ends with it), or None while it waits; only for its own session."""
    if not TOKEN_PATTERN.fullmatch(pairing_id):
        raise _expired()
    key = pairing_key(pairing_id)
    try:
        stored = _client().hgetall(key)
        if not stored:
            raise _expired()
        if not secrets.compare_digest(stored.get(b"session", b"").decode(), _digest(session_id)):
            raise _not_yours()
        vin = stored.get(b"vin")
        if vin is None:
            return None
        if not _client().delete(key):  # another poll of the same page took it first
            return None
        return vin.decode()
    except UNAVAILABLE as error:
        raise _unavailable() from error


def _live_pairing_id(token: str) -> str:
    if not TOKEN_PATTERN.fullmatch(token):
        raise _expired()
    pairing_id = _client().get(token_key(token))
    if pairing_id is None:
        raise _expired()
    return pairing_id.decode()
