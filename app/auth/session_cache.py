"""The signed-in request's session check without a database read, with sign-out and suspension still instant.

Each process keeps the session rows it has read, with their user, for at most KEEP_SECONDS. A kept row answers a
request only while two version tokens in Redis are still those read before the row was read from the database:

- the user's (`auth:version:user:<id>`), replaced whenever a flush changes or deletes that user or one of their
  sessions (a suspension, a ban, a role or language change, a password change);
- the epoch (`auth:version:epoch`), replaced by every UPDATE or DELETE statement on the user or session table run
  through the ORM session, which does not say whose rows it touched (sign-out, revoking a user's sessions, the
  impersonation link spent, the referral credit).

Other domains may keep facts about the session's user beside its rows (`kept_facts`: the brands the user's plan
opens), valid under the same tokens: a domain names the models whose changes replace them (`watch`: a row's user's
token when it names one, else the epoch), and ORM-executed statements on their tables replace the epoch.

A token is replaced when the change is flushed and again once it commits, so a request that read the rows in between
cannot keep them. A missing token (Redis flushed or restarted, a key expired) trusts nothing: the row is read again
under a new one. So a request costs one MGET instead of a query, a transaction and an ORM load; when Redis cannot
answer, the database does. The user is handed to the request's session as a persistent object, without SQL, so the
services use it as before (lazy loads, changes flushed); the session row is only read, and stays detached.
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa
from flask import Flask, current_app, g, has_app_context, has_request_context
from redis.exceptions import RedisError
from sqlalchemy.orm import ORMExecuteState, Session, UOWTransaction, make_transient_to_detached
from sqlalchemy.orm.attributes import instance_dict, manager_of_class, set_committed_value

from app.accounts.models import User
from app.auth.models import AuthSession
from app.core.db import has_unflushed_changes, utcnow
from app.core.redis_store import mget_first
from app.extensions import db, redis_store

log = logging.getLogger(__name__)

KEEP_SECONDS = 60  # also bounds how long a change made past the ORM session (SQL typed by hand) can go unseen
MAX_KEPT = 4096  # rows per process; the oldest go first
VERSION_TTL_SECONDS = 24 * 3600
EPOCH_KEY = "auth:version:epoch"
PENDING = "auth_versions_to_replace"  # Session.info: the keys a flush or statement changed, replaced again on commit
EXTENSION = "auth_session_cache"
REQUEST_KEPT = "auth_kept_session"  # flask.g: the request's kept entry, if its session was kept


@dataclass(frozen=True)
class Watch:
    """Whose token a change to a watched model's row replaces: the user its `user_attribute` names, else the epoch;
    `new_rows`: an added row counts too (a new subscription opens brands; a new session changes no kept row)."""

    user_attribute: str | None
    new_rows: bool = False

    def key(self, row: Any) -> str:
        return user_key(getattr(row, self.user_attribute)) if self.user_attribute else EPOCH_KEY


_WATCHED_MODELS: dict[type, Watch] = {User: Watch("id"), AuthSession: Watch("user_id")}
_WATCHED_TABLES: dict[str, frozenset[str]] = {  # table -> the statement kinds that replace the epoch
    User.__tablename__: frozenset({"update", "delete"}),
    AuthSession.__tablename__: frozenset({"update", "delete"}),
}


def watch(model: type, user_attribute: str | None = None, *, tables: Iterable[str] = ()) -> None:
    """For domains that keep facts with `kept_facts`: let every added, changed or deleted row of `model` replace the
    tokens (see Watch), and every ORM-executed INSERT, UPDATE or DELETE on `tables` (the model's own included) the
    epoch."""
    _WATCHED_MODELS[model] = Watch(user_attribute, new_rows=True)
    for table in (model.__tablename__, *tables):
        _WATCHED_TABLES[table] = frozenset({"insert", "update", "delete"})


def user_key(user_id: uuid.UUID) -> str:
    return f"auth:version:user:{user_id}"


def _columns(row: Any) -> dict[str, Any]:
    return {attribute.key: getattr(row, attribute.key) for attribute in sa.inspect(row).mapper.column_attrs}


@dataclass(frozen=True)
class Kept:
    """A session row and its user as plain column values, valid while Redis holds `versions` under `keys`."""

    session: dict[str, Any]
    user: dict[str, Any]
    keys: tuple[str, str]
    versions: tuple[bytes, bytes]
    until: float
    facts: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)  # see kept_facts

    def attached(self) -> AuthSession:
        """The rows as objects made without SQL: the user persistent in the request's session (the services load
        what it links to and change it as before), the session row detached (it is only read)."""
        user = _detached(User, self.user)
        if db.session.identity_map.get(sa.inspect(user).key) is not None:  # the request loaded its user already
            user = db.session.merge(user, load=False)
        else:
            db.session.add(user)
        row = _detached(AuthSession, self.session)
        set_committed_value(row, "user", user)
        return row


def _detached(model: type, columns: dict[str, Any]) -> Any:
    """A row of `model` with these column values, as if loaded and then detached (its values set as loaded ones,
    without the constructor's attribute events: a quarter of the cost)."""
    row = manager_of_class(model).new_instance()
    instance_dict(row).update(columns)
    make_transient_to_detached(row)
    return row


class SessionCache:
    """One process's kept session rows by session id, and the user id of each session seen (a session's user never
    changes, so the next request can read that user's token before it reads the rows)."""

    def __init__(self) -> None:
        self._kept: OrderedDict[str, Kept] = OrderedDict()
        self._users: OrderedDict[str, uuid.UUID] = OrderedDict()
        self._lock = threading.Lock()

    def kept(self, session_id: str) -> Kept | None:
        kept = self._kept.get(session_id)
        return kept if kept is not None and kept.until > time.monotonic() else None

    def user_of(self, session_id: str) -> uuid.UUID | None:
        return self._users.get(session_id)

    def keep(self, session_id: str, user_id: uuid.UUID, kept: Kept | None) -> None:
        with self._lock:
            _put(self._users, session_id, user_id)
            if kept is not None:
                _put(self._kept, session_id, kept)

    def forget(self, user_ids: Iterable[uuid.UUID] | None = None) -> None:
        """Drop the kept rows of these users (of everyone for None) in this process at once."""
        with self._lock:
            if user_ids is None:
                self._kept.clear()
                return
            gone = set(user_ids)
            for session_id in [key for key, kept in self._kept.items() if kept.session["user_id"] in gone]:
                del self._kept[session_id]


def _put(store: OrderedDict, key: str, value: Any) -> None:
    store[key] = value
    store.move_to_end(key)
    while len(store) > MAX_KEPT:
        store.popitem(last=False)


def live_session(session_id: str, load: Callable[[str], AuthSession | None]) -> AuthSession | None:
    """The live session `session_id` with its user: a kept row whose tokens still stand, else `load`'s."""
    cache: SessionCache | None = current_app.extensions.get(EXTENSION)
    if cache is None:
        return load(session_id)
    kept = cache.kept(session_id)
    try:
        if kept is not None and _versions(kept.keys, create=False) == kept.versions:
            if kept.session["expires_at"] > utcnow():
                g.setdefault(REQUEST_KEPT, kept)
                return kept.attached()
            return None
        user_id = cache.user_of(session_id)
        keys = (EPOCH_KEY, user_key(user_id)) if user_id is not None else None
        versions = _versions(keys, create=True) if keys else None
    except RedisError as error:
        log.warning("session versions unreadable, the database answers: %s", error)
        return load(session_id)
    row = load(session_id)
    if row is not None:
        trusted = keys is not None and versions is not None and row.user_id == user_id
        kept = _kept(row, keys, versions) if trusted else None
        cache.keep(session_id, row.user_id, kept)
        if kept is not None:
            g.setdefault(REQUEST_KEPT, kept)
    return row


def kept_facts(user_id: uuid.UUID) -> dict[Any, Any] | None:
    """Where a domain may keep facts about `user_id` for the requests of this session: valid exactly as long as the
    session's kept rows, since the same tokens stand for both (the domain `watch`es the models its facts come from).
    None when this request's session was not kept, is not that user's, was dropped since (a change this request
    flushed), or the request holds changes not yet flushed, which a query would have seen."""
    if not has_request_context():
        return None
    kept: Kept | None = g.get(REQUEST_KEPT)
    if kept is None or kept.session["user_id"] != user_id:
        return None
    cache: SessionCache = current_app.extensions[EXTENSION]
    session = db.session()
    if cache.kept(kept.session["id"]) is not kept or has_unflushed_changes(session):
        return None
    return kept.facts


def _kept(row: AuthSession, keys: tuple[str, str], versions: tuple[bytes, bytes]) -> Kept:
    return Kept(_columns(row), _columns(row.user), keys, versions, time.monotonic() + KEEP_SECONDS)


def _versions(keys: tuple[str, str], create: bool) -> tuple[bytes, bytes] | None:
    """The tokens under `keys`; a missing one trusts nothing: None, or with `create` a new token set (if still
    missing) and read back."""
    client = redis_store.client
    found = mget_first(client, keys)
    if all(found):
        return tuple(found)
    if not create:
        return None
    pipe = client.pipeline()
    for key, value in zip(keys, found, strict=True):
        if value is None:
            pipe.set(key, secrets.token_hex(8), nx=True, ex=VERSION_TTL_SECONDS)
    pipe.mget(keys)
    found = pipe.execute()[-1]
    return tuple(found) if all(found) else None


# --- replacing the tokens -----------------------------------------------------------------------------------------


def replace_versions(keys: Iterable[str]) -> None:
    """New tokens under `keys`, and this process's kept rows of those users (of everyone for the epoch) dropped."""
    keys = set(keys)
    if not keys or not has_app_context() or EXTENSION not in current_app.extensions:
        return
    cache: SessionCache = current_app.extensions[EXTENSION]
    cache.forget(None if EPOCH_KEY in keys else [uuid.UUID(key.rpartition(":")[2]) for key in keys])
    try:
        pipe = redis_store.client.pipeline(transaction=False)
        for key in keys:
            pipe.set(key, secrets.token_hex(8), ex=VERSION_TTL_SECONDS)
        pipe.execute()
    except RedisError as error:  # kept rows elsewhere live at most KEEP_SECONDS more
        log.warning("session versions not replaced (%s): %s", ", ".join(sorted(keys)), error)


def _changed(session: Session, keys: set[str]) -> None:
    if keys:
        session.info.setdefault(PENDING, set()).update(keys)
        replace_versions(keys)


def _after_flush(session: Session, _context: UOWTransaction) -> None:
    keys = set()
    for rows, added in ((session.new, True), (session.dirty, False), (session.deleted, False)):
        for row in rows:
            watched = _WATCHED_MODELS.get(type(row))
            if watched is not None and (watched.new_rows or not added):
                keys.add(watched.key(row))
    _changed(session, keys)


def _on_statement(state: ORMExecuteState) -> None:
    kind = "update" if state.is_update else "delete" if state.is_delete else "insert" if state.is_insert else None
    if kind is None:
        return
    table = getattr(state.statement, "table", None)
    if kind in _WATCHED_TABLES.get(getattr(table, "name", None), ()):
        _changed(state.session, {EPOCH_KEY})


def _after_commit(session: Session) -> None:
    replace_versions(session.info.pop(PENDING, ()))


def _after_rollback(session: Session) -> None:
    session.info.pop(PENDING, None)


def init_session_cache(app: Flask) -> None:
    app.extensions[EXTENSION] = SessionCache()
    if not sa.event.contains(Session, "after_flush", _after_flush):
        sa.event.listen(Session, "after_flush", _after_flush)
        sa.event.listen(Session, "do_orm_execute", _on_statement)
        sa.event.listen(Session, "after_commit", _after_commit)
        sa.event.listen(Session, "after_rollback", _after_rollback)
