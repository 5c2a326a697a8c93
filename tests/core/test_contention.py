"""A shop of dealers at once, on the product as `make run` serves it, while the worker stores a catalog.

Eight dealers in parallel, in three waves: sign up, start the trial, sign out and back in through the login page,
decode three VINs, report an unrecognised one, read the history, browse to the same car and open it. Nothing may
answer 5xx, no row may be lost, and the car opened by all is stored once.
Runs on the embedded default (SQLite + embedded store under gunicorn) and, with TEST_DATABASE_URL, on PostgreSQL.
"""

from __future__ import annotations

import os
import re
import sqlite3
import uuid
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import pytest
import requests
import sqlalchemy as sa

from app.accounts.models import User
from app.extensions import db
from tests.support.product import running_product

pytestmark = pytest.mark.no_isolation

DEALERS = 8
WAVES = 3
PASSWORD = "counter-horse-42"
VINS = ("WVWZZZAUZHW100001", "VF1RFB00X56100002", "WBA8E9G50GNU00004")
UNRECOGNISED_VIN = "ZZZ99999999999999"
CSRF_INPUT = re.compile(r'name="csrf_token" value="([^"]+)"')
TIMEOUT = 60
REDIRECTS = (302, 303)


@dataclass
class Dealer:
    base_url: str
    email: str = field(default_factory=lambda: f"bayi-{uuid.uuid4().hex[:10]}@example.com")
    statuses: Counter = field(default_factory=Counter)
    server_errors: list[str] = field(default_factory=list)
    opened: set[int] = field(default_factory=set)  # the catalog vehicles its browsing opened

    def __post_init__(self) -> None:
        self.http = requests.Session()
        self.http.headers["Origin"] = self.base_url  # the cookie API's same-site check

    def send(self, method: str, path: str, **kwargs) -> requests.Response:
        response = self.http.request(method, self.base_url + path, timeout=TIMEOUT, allow_redirects=False, **kwargs)
        self.statuses[response.status_code] += 1
        if response.status_code >= 500:
            self.server_errors.append(f"{method} {path} -> {response.status_code}: {response.text[:300]}")
        return response

    def expect(self, statuses: tuple[int, ...], method: str, path: str, **kwargs) -> requests.Response:
        response = self.send(method, path, **kwargs)
        assert response.status_code in statuses, f"{method} {path} -> {response.status_code}: {response.text[:300]}"
        return response

    def csrf_token(self, path: str) -> str:
        match = CSRF_INPUT.search(self.send("GET", path).text)
        assert match, f"{path} has no CSRF token"
        return match.group(1)

    def routine(self) -> None:
        """A new dealer's first minutes at the counter."""
        body = {"name": "Bayi", "email": self.email, "password": PASSWORD}
        self.expect((201,), "POST", "/api/auth/sign-up/email", json=body)
        self.expect((201,), "POST", "/api/subscriptions/trial", json={})
        self.expect(REDIRECTS, "POST", "/logout", data={"csrf_token": self.csrf_token("/vin")})
        login = {"email": self.email, "password": PASSWORD, "csrf_token": self.csrf_token("/login")}
        self.expect(REDIRECTS, "POST", "/login", data=login)
        for vin in VINS:
            self.expect((200,), "POST", "/api/vehicles/decode", json={"vin": vin})
        report = {"vin": UNRECOGNISED_VIN, "note": "müşteri ruhsatı", "csrf_token": self.csrf_token("/vin")}
        self.expect(REDIRECTS, "POST", "/vin/report", data=report)
        history = self.expect((200,), "GET", "/api/vehicles/history").json()
        assert {item["vin"] for item in history["items"]} == set(VINS)
        self.browse_to_the_golf()

    def browse_to_the_golf(self) -> None:
        """Every dealer opens the same browsed car at about the same moment: one catalog vehicle for all."""
        self.expect((200,), "GET", "/api/browse/brands")
        model = self.expect((200,), "GET", "/api/browse/catapi/volkswagen/models").json()["models"][0]["id"]
        cars = self.expect((200,), "GET", f"/api/browse/catapi/volkswagen/models/{model}/cars").json()["cars"]
        car = next(item["carId"] for item in cars if item["name"] == "Golf VII 1.6 TDI")
        opened = self.expect((200,), "POST", f"/api/browse/catapi/volkswagen/cars/{car}/open", json={}).json()
        self.opened.add(opened["catalogVehicleId"])
        self.expect((200,), "GET", f"/api/vehicles/{opened['vehicleId']}/categories")


def _run_waves(base_url: str) -> list[Dealer]:
    dealers: list[Dealer] = []
    for _wave in range(WAVES):
        wave = [Dealer(base_url) for _ in range(DEALERS)]
        with ThreadPoolExecutor(max_workers=DEALERS) as pool:
            for future in [pool.submit(dealer.routine) for dealer in wave]:
                future.result()
        dealers.extend(wave)
    return dealers


def _count(connection: sa.Connection, table: sa.TableClause, where: sa.ColumnElement | None = None) -> int:
    query = sa.select(sa.func.count()).select_from(table)
    return connection.scalar(query if where is None else query.where(where))


def _stored(engine: sa.Engine, emails: list[str]) -> dict[str, int]:
    """The dealers' rows in each table they wrote to, and the stored catalog's categories and parts."""
    users = sa.table("user", sa.column("id"), sa.column("email"))
    ids = sa.select(users.c.id).where(users.c.email.in_(emails)).scalar_subquery()
    with engine.connect() as connection:
        counts = {"users": _count(connection, users, users.c.email.in_(emails))}
        for name in ("subscription", "user_vehicle", "query_log", "vin_request", "session"):
            table = sa.table(name, sa.column("user_id"))
            counts[name] = _count(connection, table, table.c.user_id.in_(ids))
        counts["catalog"] = _count(connection, sa.table("category")) + _count(connection, sa.table("part"))
        counts["catalog_vehicle"] = _count(connection, sa.table("catalog_vehicle"))
    return counts


def test_eight_dealers_in_three_waves_while_the_worker_writes_get_no_5xx_and_lose_nothing(tmp_path):
    settings = {"SIGN_IN_RATE_LIMIT": "1000 per minute", "RATELIMIT_DEFAULT": "10000 per minute"}
    with running_product(tmp_path, **settings) as product:
        engine = product.engine()
        catalog_before = _stored(engine, [])["catalog"]
        dealers = _run_waves(product.url)
        stored = _stored(engine, [dealer.email for dealer in dealers])
        engine.dispose()

    errors = [error for dealer in dealers for error in dealer.server_errors]
    assert errors == [], "\n".join(errors[:10])
    total = DEALERS * WAVES
    assert stored["users"] == total
    assert stored["subscription"] == total
    assert stored["user_vehicle"] == total * (len(VINS) + 1)  # each VIN decoded, and the car opened from browsing
    assert stored["query_log"] == total * len(VINS)
    assert stored["vin_request"] == total
    assert stored["session"] == total  # the sign-up's session ended at sign-out, the login's is live
    assert len({vehicle for dealer in dealers for vehicle in dealer.opened}) == stored["catalog_vehicle"] == 1
    # The worker went on storing the demo catalog and the new vehicles' trees while the dealers were at it.
    assert stored["catalog"] > catalog_before


@pytest.mark.skipif(bool(os.environ.get("TEST_DATABASE_URL")), reason="SQLite's write lock")
def test_a_write_that_waits_out_the_lock_answers_503_with_retry_after_and_keeps_nothing(make_app, base_config):
    app = make_app(SQLITE_BUSY_TIMEOUT_MS=200)
    body = {"name": "Bayi", "email": "kilit@example.com", "password": PASSWORD}
    holder = sqlite3.connect(sa.make_url(base_config["SQLALCHEMY_DATABASE_URI"]).database, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another process is writing and does not let go
    try:
        response = app.test_client().post("/api/auth/sign-up/email", json=body)
    finally:
        holder.execute("ROLLBACK")
        holder.close()

    assert response.status_code == 503, response.get_json()
    # At least our 2 s; Flask-Limiter raises it to the end of the route's rate-limit window when that is later.
    assert int(response.headers["Retry-After"]) >= 2
    assert response.get_json()["error"]["code"] == "database_busy"
    assert "birkaç saniye sonra" in response.get_json()["error"]["message"]
    with app.app_context():
        assert db.session.scalar(sa.select(User).where(User.email == "kilit@example.com")) is None
        db.session.remove()
        db.engine.dispose()
