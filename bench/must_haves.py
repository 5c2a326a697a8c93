"""The must-haves of a signed-in JSON call, written by hand: the second baseline of bench/decode.py.

A Flask app without extensions whose one route does only what no implementation of the app's signed-in calls may
leave out, each the cheapest way this stack has:
- the session cookie's signature checked (`app.auth.sessions.unsign`, the app's own check);
- the Origin compared with the site and the body's type with JSON (the cookie API's CSRF check);
- the two revocation tokens of instant sign-out read from Redis in one MGET, as the session check reads them
  (`app.core.redis_store.pooled_mget`: a pooled connection past redis-py's client layer);
- the body parsed;
- for the decode, the statements the app's cached decode ran, recorded once and replayed through the bare driver
  (`bench.sql.BareSql`, on pooled connections);
- the answer with the app's own security headers and a new request id.

What it leaves out is everything the app adds over these: Flask-Login, the guards' roles and read-only sessions,
the ORM session and its hooks, the input checks, the API schema, Babel, the limiter, compression. Served and driven as
the bare route is, its rate against the bare route's is what any implementation pays; the app's against it is what
the app adds (bench/README.md, issue 32).
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import redis
import sqlalchemy as sa
from flask import Flask, Response, abort, request

from app.accounts.models import User
from app.auth.session_cache import EPOCH_KEY, user_key
from app.auth.sessions import COOKIE_NAME, unsign
from app.core import autocommit
from app.core.redis_store import pooled_mget
from app.extensions import db
from bench.sql import BareSql, SqlRecorder, Statements

# Headers of the app's answer that the server or the body set, not the app's policy.
_NOT_POLICY = {"server", "date", "content-type", "content-length", "connection", "x-request-id"}


def token_keys(app: Flask, email: str) -> tuple[str, str]:
    """The Redis keys of the revocation tokens the app's session check reads for `email`'s sessions."""
    with app.app_context():
        user_id = db.session.scalar(sa.select(User.id).where(User.email == email))
        db.session.remove()
    return EPOCH_KEY, user_key(user_id)


def policy_headers(answer_headers: dict[str, str]) -> list[tuple[str, str]]:
    """The security headers of one of the app's answers (what the must-haves route adds to its own)."""
    return [(name, value) for name, value in answer_headers.items() if name.lower() not in _NOT_POLICY]


@contextmanager
def recorded_statements(app: Flask) -> Iterator[Statements]:
    """The statements the app sends while open: through the engine (`SqlRecorder`) and the ones it runs straight on
    the driver in autocommit (`app.core.autocommit`, the cached decode's write on PostgreSQL), each as a transaction."""
    with app.app_context():
        recorder = SqlRecorder(db.engine)
    alone = autocommit._execute_alone

    def kept(engine: sa.Engine, sql: str, parameters: dict) -> None:
        statements.extend([(sql, parameters), (None, None)])
        alone(engine, sql, parameters)

    autocommit._execute_alone = kept
    try:
        with recorder.recording() as statements:
            yield statements
    finally:
        autocommit._execute_alone = alone


class PooledReplay:
    """Recorded statements replayed bare on a pooled connection (the bench's server runs a thread per request, as
    the app's engine pools its connections); `close` closes them all."""

    def __init__(self, database_url: str, statements: Statements) -> None:
        self._database_url = database_url
        self._statements = statements
        self._idle: list[BareSql] = []
        self._opened: list[BareSql] = []
        self._lock = threading.Lock()

    def __call__(self) -> None:
        with self._lock:
            bare = self._idle.pop() if self._idle else None
        if bare is None:
            bare = BareSql(self._database_url)
            with self._lock:
                self._opened.append(bare)
        try:
            bare.run(self._statements)
        finally:
            with self._lock:
                self._idle.append(bare)

    def close(self) -> None:
        with self._lock:
            for bare in self._opened:
                bare.close()
            self._opened.clear()
            self._idle.clear()


def must_haves_app(
    config: dict,
    path: str,
    body: bytes,
    headers: list[tuple[str, str]],
    keys: tuple[str, str],
    replay: Callable[[], None] | None = None,
) -> Flask:
    """The must-haves route at `path` answering `body`; `config` gives AUTH_SECRET and REDIS_URL as the app has them."""
    bare = Flask("bench_must_haves")
    bare.config["AUTH_SECRET"] = config["AUTH_SECRET"]
    tokens = redis.Redis.from_url(config["REDIS_URL"])

    @bare.post(path)
    def must_haves() -> Response:
        if unsign(request.cookies.get(COOKIE_NAME, "")) is None:
            abort(401)
        if request.headers.get("Origin") != f"{request.scheme}://{request.host}" or not request.is_json:
            abort(403)
        if not all(pooled_mget(tokens, keys)):
            abort(401)
        request.get_json()
        if replay is not None:
            replay()
        response = Response(body, mimetype="application/json")
        response.headers.extend(headers)
        response.headers["X-Request-ID"] = uuid.uuid4().hex
        return response

    return bare
