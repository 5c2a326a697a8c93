"""The admin dashboard's JSON against its bare SQL, on a seeded log of 100,000 decodes (issue 19: within 3x).

Seeded: DECODES query-log rows over the last DAYS days (result kinds, sources with their latencies, unrecognised WMIs
as real logs have them), USERS users with trials and paid subscriptions, and vehicle requests. Each range is asked
once with its SQL recorded; the timed rounds then hand the request to the app in this process (the WSGI call) and
replay its statements through the bare driver, in turns. PostgreSQL by default (`bench_dashboard`, created and
dropped), or the one BENCH_DATABASE_URL names. Run with `make bench-dashboard` or `.venv/bin/python -m
bench.dashboard`.
"""

from __future__ import annotations

import random
import sys
import time
import uuid
from datetime import timedelta

import sqlalchemy as sa
from flask import Flask

from app.accounts.models import User
from app.billing.models import Payment, Plan, Subscription
from app.core.db import utcnow
from app.extensions import db
from app.vehicles.models import QueryLog, VinRequest
from bench.measure import Result
from bench.sql import BareSql, SqlRecorder, against_bare
from bench.stack import EMAIL, bench_app, printed, run_benchmarks

DEFAULT_DATABASE_URL = "postgresql://postgres@127.0.0.1:5432/bench_dashboard"
DECODES = 100_000
USERS = 2_000
DAYS = 90
ROUNDS = 20
MAX_RATIO = 3.0
KINDS = (("vehicle", 0.78), ("catapi_candidates", 0.06), ("scrape_candidates", 0.04), ("unknown", 0.09),
         ("unavailable", 0.03))  # fmt: skip
WMIS = ("WVW", "VF1", "WBA", "JTD", "NMT", "ZFA", "XTA", "LZW", "TMB", "KMH")


def seed(app: Flask) -> None:
    rng = random.Random(19)
    now = utcnow()
    with app.app_context():
        plans = {plan.key: plan.id for plan in db.session.scalars(sa.select(Plan))}
        users = [_user(number, now - timedelta(days=rng.randrange(DAYS))) for number in range(USERS)]
        db.session.execute(sa.insert(User), users)
        subscriptions, payments = _subscriptions(rng, users, plans, now)
        db.session.execute(sa.insert(Subscription), subscriptions)
        db.session.execute(sa.insert(Payment), payments)
        for start in range(0, DECODES, 5_000):
            rows = [_decode(rng, now) for _ in range(start, min(start + 5_000, DECODES))]
            db.session.execute(sa.insert(QueryLog), rows)
        requests_ = [{"vin": f"{rng.choice(WMIS)}{rng.randrange(10**13):014d}", "kind": "no_catalog",
                      "created_at": now - timedelta(days=rng.randrange(DAYS))} for _ in range(500)]  # fmt: skip
        db.session.execute(sa.insert(VinRequest), requests_)
        db.session.commit()
        if db.engine.dialect.name == "postgresql":
            with db.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as autocommit:
                autocommit.execute(sa.text("ANALYZE"))
        admin = db.session.scalar(sa.select(User).where(User.email == EMAIL))
        admin.role = "admin"
        db.session.commit()
        db.session.remove()


def _user(number: int, created: object) -> dict:
    return {"id": uuid.uuid4(), "email": f"bayi{number}@bench.example", "name": f"Bayi {number}",
            "email_verified": number % 4 != 0, "role": "user", "status": "active" if number % 50 else "suspended",
            "referral_credit_days": 0, "referral_code": f"B{number:07d}", "created_at": created,
            "updated_at": created}  # fmt: skip


def _subscriptions(rng: random.Random, users: list[dict], plans: dict[str, int], now: object) -> tuple[list, list]:
    subscriptions, payments = [], []
    for user in users:
        start = user["created_at"]
        trial = {"id": uuid.uuid4(), "user_id": user["id"], "plan_id": plans["full"], "billing_period": "monthly",
                 "status": "trial" if start > now - timedelta(days=7) else "expired", "start_date": start,
                 "end_date": start + timedelta(days=7), "created_at": start, "updated_at": start}  # fmt: skip
        subscriptions.append(trial)
        if rng.random() < 0.3 and trial["status"] == "expired":
            key, period = rng.choice([("single", "monthly"), ("trio", "monthly"), ("full", "yearly")])
            paid = {"id": uuid.uuid4(), "user_id": user["id"], "plan_id": plans[key], "billing_period": period,
                    "status": "active", "start_date": start + timedelta(days=7), "end_date": now + timedelta(days=20),
                    "created_at": start, "updated_at": start}  # fmt: skip
            subscriptions.append(paid)
            payments.append({"id": uuid.uuid4(), "user_id": user["id"], "subscription_id": paid["id"], "amount": 99900,
                             "currency": "TRY", "status": "completed", "method": "card", "billing_period": period,
                             "created_at": start + timedelta(days=7)})  # fmt: skip
    return subscriptions, payments


def _decode(rng: random.Random, now: object) -> dict:
    kind = rng.choices([kind for kind, _ in KINDS], weights=[weight for _, weight in KINDS])[0]
    timings = {"result_kind": kind, "catapi_ms": rng.randrange(80, 2_500)}
    if rng.random() < 0.4:
        timings["scrape_ms"] = rng.randrange(300, 6_000)
    if rng.random() < 0.2:
        timings["portal_ms"] = rng.randrange(500, 9_000)
    success = kind in ("vehicle", "catapi_candidates", "scrape_candidates")
    source = "catapi" if kind.startswith(("vehicle", "catapi")) else "scrape" if kind.startswith("scrape") else None
    return {"vin": f"{rng.choice(WMIS)}{rng.randrange(10**13):014d}", "source": source, "success": success,
            "error_message": None if success else "vin_not_recognised" if kind == "unknown" else "sources_unavailable",
            "response_time_ms": timings["catapi_ms"], "timings": timings,
            "created_at": now - timedelta(days=rng.randrange(DAYS), seconds=rng.randrange(86_400))}  # fmt: skip


def measure(app: Flask, database_url: str, path: str, name: str) -> Result:
    with app.app_context():
        recorder = SqlRecorder(db.engine)
    client = app.test_client()
    signed_in = client.post("/api/auth/sign-in/email", json={"email": EMAIL, "password": "bench-horse-42-staple"})
    if signed_in.status_code != 200:
        raise RuntimeError(f"admin sign-in: {signed_in.status_code}")
    with recorder.recording() as statements:
        if client.get(path).status_code != 200:
            raise RuntimeError(f"GET {path}")
    statements = list(statements)
    bare = BareSql(database_url)
    try:
        seeded = f"{DECODES:,} decodes, {USERS:,} users seeded"
        name = f"dashboard JSON, {name}: GET {path}"
        return against_bare(name, lambda: client.get(path), statements, bare, ROUNDS, MAX_RATIO, [seeded])
    finally:
        bare.close()


def run(database_url: str, redis_url: str) -> list[Result]:
    with bench_app(database_url, redis_url, "bench-dashboard") as (app, _upstreams, tally):
        began = time.perf_counter()
        seed(app)
        print(f"seeded in {time.perf_counter() - began:.0f} s")
        today = utcnow().date()
        ranges = [
            ("the last 30 days", "/api/admin/dashboard"),
            ("90 days", f"/api/admin/dashboard?from={today - timedelta(days=DAYS - 1)}&to={today}"),
        ]
        results = [printed(measure(app, database_url, path, name), tally) for name, path in ranges]
        with app.app_context():
            db.engine.dispose()
        return results


if __name__ == "__main__":
    sys.exit(run_benchmarks(run, DEFAULT_DATABASE_URL))
