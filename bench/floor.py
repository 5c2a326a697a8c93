"""Where a signed-in request's time goes: `python -m bench.floor [shell|decode] [requests]`.

Builds the decode benchmark's app (BENCH_DATABASE_URL / BENCH_REDIS_URL as for `bench.decode`), signs the dealer in,
caches the Golf, then sends the app shell (or the cached decode) through the WSGI app in this process (the test
client, one thread): the unprofiled time per request (best of three runs), then one run under pyinstrument with each
sample's time given to the innermost category on its stack. For reading, no target (bench/README.md, issue 32).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from flask import Flask
from flask.testing import FlaskClient
from pyinstrument import Profiler
from pyinstrument.frame import Frame

from app.extensions import db
from app.sources.sandbox.catalog import VIN_GOLF
from bench.stack import (
    DECODE_PATH,
    EMAIL,
    PASSWORD,
    LogTally,
    ShellRoute,
    bench_config,
    fresh_database,
    fresh_redis,
    prepared_app,
)
from tests.support.upstreams import Upstreams

Test = Callable[[str, str], bool]


def _in(*parts: str) -> Test:
    return lambda _function, path: any(part in path for part in parts)


def _named(names: set[str], path_part: str = "") -> Test:
    return lambda function, path: function in names and path_part in path


CATEGORIES: list[tuple[str, Test]] = [
    ("session check: Redis tokens", _named({"_versions"}, "session_cache.py")),
    ("session check: kept rows attached", _named({"attached", "_kept", "keep"}, "session_cache.py")),
    ("session check: query + ORM load (or cookie HMAC)", _named({"find_live_session", "_read_live_session"})),
    ("Flask-Login user loading", _in("flask_login")),
    ("guards (authentication, roles, read-only)", _named({"guard"}, "guards.py")),
    ("cookie API CSRF (Origin) check", _named({"cookie_api_csrf_check"})),
    ("form CSRF hooks (Flask-WTF)", _named({"csrf_protect", "_check_form_token"})),
    ("input checks", _named({"refuse_unstorable_input"})),
    ("limiter (Flask-Limiter)", _in("flask_limiter")),
    ("Babel", _in("flask_babel", "/babel/")),
    ("commit hook", _named({"_finish"}, "core/db.py")),
    ("lock-mode hooks", _named({"_choose_lock_mode", "_reset_lock_mode"})),
    ("security headers (Talisman)", _in("flask_talisman", "core/security.py")),
    ("compression (Flask-Compress)", _in("flask_compress")),
    ("Flask cookie session open/save", _named({"open_session", "save_session"})),
    ("the decode", _named({"decode"}, "vehicles/decode.py")),
    ("the view (JSON answer)", _named({"answer", "decode_route"})),
    ("teardown (DB session removed)", _named({"do_teardown_request", "do_teardown_appcontext"})),
    ("request id middleware", _named({"__call__"}, "request_id.py")),
    ("Flask/werkzeug request plumbing", _named({"__call__", "wsgi_app"}, "flask/app.py")),
]


def split(frame: Frame, out: dict[str, float], current: str | None = None) -> None:
    label = next((name for name, test in CATEGORIES if test(frame.function or "", frame.file_path or "")), current)
    if label:
        out[label] = out.get(label, 0.0) + frame.total_self_time
    for child in frame.children:
        split(child, out, label)


def signed_in_sender(app: Flask, shell: ShellRoute, what: str) -> Callable[[], object]:
    client: FlaskClient = app.test_client()
    headers = {"Origin": "http://localhost"}
    signed = client.post("/api/auth/sign-in/email", json={"email": EMAIL, "password": PASSWORD}, headers=headers)
    if signed.status_code != 200:
        raise RuntimeError(f"sign-in answered {signed.status_code}")
    shell.body = client.post(DECODE_PATH, json={"vin": VIN_GOLF}, headers=headers).get_json()
    path = shell.path if what == "shell" else DECODE_PATH
    probe = client.post(path, json={"vin": VIN_GOLF}, headers=headers)
    if probe.status_code != 200:  # a refusal is cheaper than the answer: counting it would flatter the app
        raise RuntimeError(f"{path} answered {probe.status_code}, not the decode's body")
    return lambda: client.post(path, json={"vin": VIN_GOLF}, headers=headers)


def measure(send: Callable[[], object], count: int) -> None:
    for _ in range(300):
        send()
    runs = []
    for _ in range(3):
        began = time.perf_counter()
        for _ in range(count):
            send()
        runs.append((time.perf_counter() - began) / count)
    profiler = Profiler(interval=0.0001)
    profiler.start()
    for _ in range(count):
        send()
    profiler.stop()
    out: dict[str, float] = {}
    split(profiler.last_session.root_frame(), out)
    total = sum(out.values())
    print(f"{min(runs) * 1e6:.0f} us a request unprofiled (best of 3 x {count}); under the profiler:")
    for name, seconds in sorted(out.items(), key=lambda item: -item[1]):
        print(f"  {name:50s} {seconds / total * 100:5.1f} %")


@contextmanager
def signed_in(what: str) -> Iterator[tuple[Flask, ShellRoute, Callable[[], object]]]:
    """The decode benchmark's app on a fresh database and Redis, the dealer signed in and the Golf cached: the app, its
    shell route and the sender of `what` (the shell or the cached decode) through the test client."""
    upstreams = Upstreams.start()
    try:
        with fresh_database() as (database_url, database), fresh_redis() as (redis_url, store):
            print(f"database: {database}\nredis:    {store}\n{what}:")
            app = prepared_app(bench_config(database_url, redis_url, upstreams))
            shell = ShellRoute(app)
            LogTally().install()
            yield app, shell, signed_in_sender(app, shell, what)
            with app.app_context():
                db.engine.dispose()
    finally:
        upstreams.stop()


def main(what: str = "shell", count: int = 1500) -> None:
    with signed_in(what) as (_app, _shell, send):
        measure(send, count)


if __name__ == "__main__":
    main(*(sys.argv[1:2] or ["shell"]), *(int(arg) for arg in sys.argv[2:3]))
