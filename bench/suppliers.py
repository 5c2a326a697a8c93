"""Issue 42, a shop's suppliers' offers: three benchmarks.

1. Import: the three sandbox distributors' lists (app.sources.sandbox.distributor_data.lines) of 300,000 lines each,
   made into their feeds by the sandbox's own generators (anadolu as its CSV feed, Windows-1254, TRY; ege as its XML
   feed, EUR; marmara as its CSV feed, USD), each stored and mapped through app.suppliers.imports as the API does (the
   file stored, the suggested mapping confirmed) and imported by the RQ job on a real in-process SimpleWorker. Printed
   per supplier: the list in use (the import record's finished_at, set when the list is switched in use, against the
   job's start) and the whole job (the equivalent links the list feeds written after it). Target <= 90 s per list
   (the whole job) on PostgreSQL; SQLite printed beside it.
2. A drawing with offers: the page and its HTMX fragment of a 50-row drawing whose numbers three suppliers offer (lists
   of 100,000 lines each written straight into the tables, as tests/support/suppliers.py does), for a dealer of the
   shop with the suppliers, against the same requests by a dealer of a shop without suppliers, in turns, in this
   process (the Flask test client, as bench/catalog.py's shelf page). Target <= 1.3 at p50 and p95.
3. A number lookup, GET /api/parts/<number>/lookup, against its minimal SQL: the statements that read the same facts
   directly (the group's links, the shelf rows, the supplier lines by key, the vehicles carrying each number), through
   the database's bare driver. Target p95 <= 2.5.

`make bench-suppliers` or `.venv/bin/python -m bench.suppliers [lines]` (a smaller line count for a quick run: the
import's target is scaled to it). PostgreSQL as bench/shelf.py: without BENCH_DATABASE_URL the run creates
`bench_suppliers` on 127.0.0.1:5432 (refused if it exists) and drops it at the end; then the same on SQLite.
"""

from __future__ import annotations

import logging
import sys
import tempfile
import time
from datetime import UTC

import sqlalchemy as sa
from flask import Flask
from flask_migrate import upgrade
from rq import SimpleWorker

from app import create_app
from app.accounts.services import create_user
from app.extensions import db, queues, redis_store
from app.sources.sandbox.distributor import csv_feed, feed_columns, xml_feed
from app.sources.sandbox.distributor_data import BY_KEY, lines
from app.suppliers import imports
from app.suppliers.demo import FEED_COLUMNS
from app.suppliers.models import Supplier, SupplierImport, SupplierLine
from bench.measure import Result
from bench.stack import PASSWORD, run_benchmarks

LINES = 300_000
IMPORT_TARGET_SECONDS = 90.0
DEFAULT_DATABASE_URL = "postgresql://postgres@127.0.0.1:5432/bench_suppliers"
# (distributor, feed, file name): anadolu and marmara as their CSV feed, ege as its XML feed.
FEEDS = (("anadolu", csv_feed, "anadolu.csv"), ("ege", xml_feed, "ege.xml"), ("marmara", csv_feed, "marmara.csv"))


def feed_bytes(key: str, count: int) -> bytes:
    distributor = BY_KEY[key]
    feed = dict((k, f) for k, f, _name in FEEDS)[key]
    return b"".join(feed(distributor, lines(distributor, count=count), False))


def migrated_app(database_url: str, redis_url: str) -> Flask:
    app = create_app(
        {"SECRET_KEY": "bench", "SQLALCHEMY_DATABASE_URI": database_url, "REDIS_URL": redis_url, "LOG_LEVEL": "WARNING"}
    )
    with app.app_context():
        logging.disable(logging.INFO)
        try:
            upgrade()
        finally:
            logging.disable(logging.NOTSET)
    return app


# --- 1. the import --------------------------------------------------------------------------------------------------


def timed_import(app: Flask, label: str, key: str, filename: str, data: bytes) -> dict:
    """Store the file and confirm its suggested mapping as the API does, then let a worker run the job."""
    with app.app_context():
        user = create_user(email=f"tedarik-{label}-{key}@example.com", name="Tedarik", password=PASSWORD)
        supplier = Supplier(shop_id=user.shop_id, user_id=user.id, name=BY_KEY[key].name, currency=BY_KEY[key].currency)
        db.session.add(supplier)
        db.session.commit()
        started = time.perf_counter()
        record, shown = imports.store_file(supplier, filename, data, user)
        imports.start(user, supplier, record, chosen_mapping(key, imports.suggested_mapping(supplier, shown)))
        db.session.commit()
        uploaded = time.perf_counter() - started
        import_id = record.id
        db.session.remove()
        began_wall = time.time()
        started = time.perf_counter()
        SimpleWorker([queues.get("default")], connection=redis_store.client).work(burst=True)
        job = time.perf_counter() - started
        record = db.session.get(SupplierImport, import_id)
        finished = record.finished_at
        in_use = finished.replace(tzinfo=finished.tzinfo or UTC).timestamp() - began_wall if finished else None
        state = {
            "status": record.status,
            "imported": record.rows_imported,
            "failed": record.rows_failed,
            "lines": db.session.scalar(sa.select(sa.func.count()).where(SupplierLine.import_id == import_id)),
            "links": _links(record.shop_id),
            "uploaded": uploaded,
            "job": job,
            "in_use": in_use,
        }
        db.session.remove()
    return state


def chosen_mapping(key: str, suggested: dict) -> dict:
    """The suggested mapping with the fields it left empty set to the feed's columns, as a manager chooses them
    (the header guess reads the stock list's and suppliers' usual words, not these feeds' run-together names; the
    demo distributors' remembered mapping is the same, app.suppliers.demo)."""
    columns = feed_columns(BY_KEY[key])
    chosen = {field: columns.index(column) for field, column in FEED_COLUMNS.items()}
    return {field: index if index is not None else chosen.get(field) for field, index in suggested.items()}


def _links(shop_id) -> int:
    from app.equivalents.models import EquivalentLink

    return db.session.scalar(sa.select(sa.func.count()).where(EquivalentLink.shop_id == shop_id))


def import_result(database: str, key: str, count: int, state: dict, target: float | None) -> Result:
    job, in_use = state["job"], state["in_use"]
    passed = state["status"] == "done" and state["imported"] + state["failed"] == count
    passed = passed and (target is None or job <= target)
    in_use_text = f"{in_use:.1f} s = {count / in_use:,.0f} lines/s" if in_use else "-"
    return Result(
        name=f"1. import of {key}'s list on {database}",
        current=f"whole job {job:.1f} s = {count / job:,.0f} lines/s; list in use after {in_use_text}",
        baseline="-",
        ratio="-",
        target=f"<= {target:.0f} s for {count:,} lines (the whole job)" if target else "none (beside PostgreSQL)",
        passed=passed,
        details=[
            f"status {state['status']}, lines imported {state['imported']:,}, failed {state['failed']:,}, "
            f"lines stored {state['lines']:,}, equivalent links {state['links']:,}; "
            f"store and preview {state['uploaded']:.1f} s"
        ],
    )


def import_benchmark(app: Flask, database: str, count: int, feeds: dict[str, bytes]) -> list[Result]:
    """The three lists in turn, each its own shop's supplier (the links of one list are not replaced by another's)."""
    target = IMPORT_TARGET_SECONDS * count / LINES if database == "PostgreSQL" else None
    found = []
    for key, _feed, filename in FEEDS:
        state = timed_import(app, database.lower(), key, filename, feeds[key])
        found.append(import_result(database, key, count, state, target))
        found[-1].print()
    return found


# --- running --------------------------------------------------------------------------------------------------------


def main(count: int = LINES) -> int:
    logging.getLogger("rq").setLevel(logging.WARNING)  # the worker's lines per job say nothing a reader needs
    began = time.perf_counter()
    feeds = {key: feed_bytes(key, count) for key, _feed, _name in FEEDS}
    sizes = ", ".join(f"{key} {len(data) / 1e6:.1f} MB" for key, data in feeds.items())
    print(f"feeds: {count:,} lines each ({sizes}), made in {time.perf_counter() - began:.0f} s")

    def on(database: str, database_url: str, redis_url: str) -> list[Result]:
        app = migrated_app(database_url, redis_url)
        try:
            return import_benchmark(app, database, count, feeds)
        finally:
            with app.app_context():
                db.session.remove()
                db.engine.dispose()

    def run(database_url: str, redis_url: str) -> list[Result]:
        found = on("PostgreSQL", database_url, redis_url)
        with tempfile.TemporaryDirectory(prefix="bench-suppliers-") as directory:
            found += on("SQLite", f"sqlite:///{directory}/bench.sqlite3", redis_url)
        return found

    return run_benchmarks(run, DEFAULT_DATABASE_URL)


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else LINES))
