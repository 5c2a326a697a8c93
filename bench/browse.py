"""Browsing without a VIN: what each step that reads an upstream adds to the upstream's own time, and each step served
from storage against its bare SQL.

Each step's answer over HTTP (signed-in dealer, the app on loopback) is timed beside the same upstream calls made
directly through the app's browse adapters, in turns, on sandboxes that take UPSTREAM_MS per call (as a real
upstream does). The difference is the app's share: routing, the session and brand checks, translating names into
Turkish and the JSON. Target: at most ALLOWANCE_MS at p50 and at p95.

The steps served from storage (opening a car opened before: it asks no upstream, the dealer's history is updated)
are handled by the app in this process (the WSGI call) beside the statements it ran for them, recorded once and
replayed through the bare database driver, in turns. Target: within STORED_MAX_RATIO at p50 and at p95.
Run with `make bench-browse` or `.venv/bin/python -m bench.browse`.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass

import requests
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from app.browse import upstream
from app.extensions import db
from bench.measure import Result, latency, percentile
from bench.must_haves import PooledReplay, must_haves_app, policy_headers, token_keys
from bench.sql import BareSql, SqlRecorder, Statements, against_bare, timed
from bench.stack import EMAIL, LogTally, Served, bench_app, printed, run_benchmarks, shut_down

UPSTREAM_MS = 40
ALLOWANCE_MS = 60
ROUNDS = 15
STORED_MAX_RATIO = 2.0
STORED_ROUNDS = 60


@dataclass(frozen=True)
class Step:
    name: str
    path: str
    direct: Callable[[], object]  # the same upstream calls, through the adapter


def steps(app: Flask, session: requests.Session, url: str) -> list[Step]:
    """The browse steps of the Golf (catalog API) and the Clio (web catalog)."""
    models = session.get(f"{url}/api/browse/catapi/volkswagen/models", timeout=30).json()["models"]
    model = models[0]["id"]
    cars = session.get(f"{url}/api/browse/catapi/volkswagen/models/{model}/cars", timeout=30).json()["cars"]
    car = cars[0]["carId"]

    def within(call: Callable[[], object]) -> Callable[[], object]:
        def run() -> object:
            with app.app_context():
                return call()

        return run

    return [
        Step("the makes with their catalogs (both upstreams' lists)", "/api/browse/brands",
             within(lambda: (upstream.catapi().catalogs(), upstream.scrape().brands()))),
        Step("catalog API: models", "/api/browse/catapi/volkswagen/models",
             within(lambda: upstream.catapi().models("volkswagen"))),
        Step("catalog API: cars", f"/api/browse/catapi/volkswagen/models/{model}/cars",
             within(lambda: upstream.catapi().cars("volkswagen", model, limit=25))),
        Step("catalog API: a picture with parts", f"/api/browse/catapi/volkswagen/cars/{car}/schemas/103-010",
             within(lambda: (upstream.catapi().car("volkswagen", car),
                             upstream.catapi().parts("volkswagen", car, "103-010")))),
        Step("web catalog: vehicles", "/api/browse/scrape/renault/vehicles",
             within(lambda: upstream.scrape().vehicles("renault"))),
        Step("web catalog: wizard", "/api/browse/scrape/renault/wizard",
             within(lambda: upstream.scrape().wizard("renault"))),
    ]  # fmt: skip


def measure(step: Step, session: requests.Session, url: str) -> Result:
    answered: list[float] = []
    direct: list[float] = []

    def ask() -> None:
        response = session.get(url + step.path, timeout=30)
        response.raise_for_status()

    for _ in range(ROUNDS):  # in turns: both see the same moment of a shared machine
        answered.append(timed(ask))
        direct.append(timed(step.direct))
    added = [percentile(answered, p) - percentile(direct, p) for p in (50, 95)]
    return Result(
        name=f"browse step, {step.name}: GET {step.path}",
        current=f"app over HTTP      {latency(answered)}",
        baseline=f"the upstream calls {latency(direct)}",
        ratio=f"added p50 {added[0] * 1000:.1f} ms  p95 {added[1] * 1000:.1f} ms",
        target=f"adds <= {ALLOWANCE_MS} ms at p50 and at p95 (upstream calls take {UPSTREAM_MS} ms each)",
        passed=all(value * 1000 <= ALLOWANCE_MS for value in added),
    )


@dataclass(frozen=True)
class StoredStep:
    name: str
    method: str
    path: str


def stored_steps(session: requests.Session, url: str, headers: dict[str, str]) -> list[StoredStep]:
    """A car of each catalog opened once (so stored), to be opened again."""
    models = session.get(f"{url}/api/browse/catapi/volkswagen/models", timeout=30).json()["models"]
    cars = session.get(f"{url}/api/browse/catapi/volkswagen/models/{models[0]['id']}/cars", timeout=30).json()["cars"]
    opened = [
        f"/api/browse/catapi/volkswagen/cars/{cars[0]['carId']}/open",
        "/api/browse/scrape/renault/vehicles/REN-BH/open",
    ]
    for path in opened:
        session.post(url + path, json={}, headers=headers, timeout=60).raise_for_status()
    return [
        StoredStep("a car opened before (catalog API)", "POST", opened[0]),
        StoredStep("a vehicle opened before (web catalog)", "POST", opened[1]),
    ]  # fmt: skip


@dataclass
class InProcess:
    """The signed-in dealer's requests handed to the app in this process, their SQL recorded on demand."""

    app: Flask
    cookies: requests.cookies.RequestsCookieJar
    headers: dict[str, str]
    recorder: SqlRecorder

    def __post_init__(self) -> None:
        self.wsgi = self.client_of(self.app)

    def call(self, step: StoredStep, client: FlaskClient | None = None) -> TestResponse:
        response = (client or self.wsgi).open(
            step.path, method=step.method, headers=self.headers, json={} if step.method == "POST" else None
        )
        if response.status_code != 200:
            raise RuntimeError(f"in-process {step.method} {step.path}: {response.status_code}")
        return response

    def client_of(self, other: Flask) -> FlaskClient:
        """A test client of `other` with the dealer's cookies, as the app's own has them."""
        client = other.test_client()
        for cookie in self.cookies:
            client.set_cookie(cookie.name, cookie.value or "")
        return client

    def recorded(self, step: StoredStep) -> Statements:
        with self.recorder.recording() as statements:
            self.call(step)
        return list(statements)


def measure_stored(step: StoredStep, client: InProcess, bare: BareSql, database_url: str) -> Result:
    name = f"browse step from storage, {step.name}: {step.method} {step.path}"
    statements = client.recorded(step)
    replay = PooledReplay(database_url, statements)
    try:
        return against_bare(
            name,
            lambda: client.call(step),
            statements,
            bare,
            STORED_ROUNDS,
            STORED_MAX_RATIO,
            floor=(FLOOR, floor_of(step, client, replay)),
        )
    finally:
        replay.close()


FLOOR = "by hand: a bare Flask route with the cookie's signature, the Origin, the tokens' MGET, its SQL, the headers"


def floor_of(step: StoredStep, client: InProcess, replay: PooledReplay) -> Callable[[], object]:
    """The step's must-haves (bench.must_haves) with its statements replayed bare, through the same test client."""
    answer = client.call(step)
    floor = must_haves_app(
        client.app.config,
        step.path,
        answer.data,
        policy_headers(answer.headers),
        token_keys(client.app, EMAIL),
        replay,
    )
    floor_client = client.client_of(floor)
    return lambda: client.call(step, floor_client)


def from_storage(app: Flask, served: Served, database_url: str, tally: LogTally) -> list[Result]:
    cookies = served.signed_in_cookies()
    session = served.sessions(1, cookies)[0]
    steps = stored_steps(session, served.url, served.headers)
    with app.app_context():
        client = InProcess(app, cookies, {"Origin": "http://localhost"}, SqlRecorder(db.engine))  # the test client's
    bare = BareSql(database_url)
    try:
        return [printed(measure_stored(step, client, bare, database_url), tally) for step in steps]
    finally:
        bare.close()


def run(database_url: str, redis_url: str) -> list[Result]:
    with bench_app(database_url, redis_url, "bench-browse") as (app, upstreams, tally):
        served = Served.start(app, "bench-browse")
        try:
            session = served.sessions(1, served.signed_in_cookies())[0]
            upstreams.catapi.faults.latency_ms = upstreams.scrape.faults.latency_ms = UPSTREAM_MS
            upstream_steps = steps(app, session, served.url)
            return [
                *(printed(measure(step, session, served.url), tally) for step in upstream_steps),
                *from_storage(app, served, database_url, tally),
            ]
        finally:
            shut_down(served, app)


if __name__ == "__main__":
    sys.exit(run_benchmarks(run))
