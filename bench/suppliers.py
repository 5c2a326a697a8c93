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
BENCH_SUPPLIERS_ONLY=import (or offers) runs the import (or benchmarks 2 and 3) alone; BENCH_SUPPLIERS_OFFER_LINES sets
the length of benchmarks 2 and 3's lists (100,000).
"""

from __future__ import annotations

import logging
import os
import re
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC
from decimal import Decimal
from urllib.parse import quote

import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient
from flask_migrate import upgrade
from rq import SimpleWorker

from app import create_app
from app.accounts.services import create_user
from app.billing.models import Brand
from app.catalog.models import Part
from app.core.text import fold_code
from app.extensions import db, queues, redis_store
from app.sources.sandbox.distributor import csv_feed, feed_columns, feed_row, xml_feed
from app.sources.sandbox.distributor_data import BY_KEY, SANDBOX_TRY_PER_UNIT, lines
from app.suppliers import imports
from app.suppliers.currency.models import CurrencyRate
from app.suppliers.currency.services import istanbul_today
from app.suppliers.demo import FEED_COLUMNS
from app.suppliers.equivalents_feed import feed_equivalents
from app.suppliers.models import Supplier, SupplierActive, SupplierImport, SupplierLine, SupplierNumber
from app.suppliers.rows import line_from_row
from bench.measure import Result, in_turns, latency, ratios, within_ratio
from bench.sql import BareSql
from bench.stack import PASSWORD, BenchSetupError, run_benchmarks
from tests.catalog.test_query_counts import catalog_of
from tests.support.dealers import commit_full_plan_dealer

LINES = 300_000
IMPORT_TARGET_SECONDS = 90.0
DEFAULT_DATABASE_URL = "postgresql://postgres@127.0.0.1:5432/bench_suppliers"
# (distributor, feed, file name): anadolu and marmara as their CSV feed, ege as its XML feed.
FEEDS = (("anadolu", csv_feed, "anadolu.csv"), ("ege", xml_feed, "ege.xml"), ("marmara", csv_feed, "marmara.csv"))


def feed_bytes(key: str, count: int) -> bytes:
    distributor = BY_KEY[key]
    feed = dict((k, f) for k, f, _name in FEEDS)[key]
    return b"".join(feed(distributor, lines(distributor, count=count), False))


def migrated_app(database_url: str, redis_url: str, storage: str) -> Flask:
    app = create_app(
        {
            "SECRET_KEY": "bench-secret-key",
            "AUTH_SECRET": "bench-auth-secret",
            "SQLALCHEMY_DATABASE_URI": database_url,
            "REDIS_URL": redis_url,
            "RATELIMIT_ENABLED": False,
            "CAPTCHA_SECRET": "",
            "LOG_LEVEL": "WARNING",
            "STORAGE_DIR": storage,
        }
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


# --- 2. and 3.: a drawing with offers, a number looked up ------------------------------------------------------------

OFFER_LINES = int(os.environ.get("BENCH_SUPPLIERS_OFFER_LINES", "100000"))  # per supplier list
VEHICLES = 5  # drawings of the same 51 numbers (their first leaf), each a sample of benchmark 2
DRAWING_SIZE = 50
ROUNDS = 3
PAGE_REPEATS = 20  # each drawing this many times a round
LOOKUP_OWN_CODES = 30  # supplier codes looked up beside the drawing's 51 numbers
PAGE_MAX_RATIO = 1.3
LOOKUP_MAX_RATIO = 2.5
EMAIL_A, EMAIL_B = "teklif-a@example.com", "teklif-b@example.com"
HTML = {"Accept": "text/html"}
HX = {"HX-Request": "true"}


@dataclass
class Drawings:
    paths: list[str]
    codes: list[str]  # the drawing's numbers as printed
    own_codes: list[str]  # supplier codes of the filler lines, looked up too


def build_offers(app: Flask) -> Drawings:
    """Two Full-plan dealers, each his own shop; shop A with three suppliers whose lists in use (OFFER_LINES lines
    each: the sandbox distributor's generated lines, as the import reads its feed's rows, and one line per drawing
    number, its OE field naming it) are written straight into the tables, their equivalent links fed by the app's
    own code (app.suppliers.equivalents_feed) as the import job does; the drawings stored by the catalog's store."""
    began = time.perf_counter()
    with app.app_context():
        dealer = commit_full_plan_dealer(EMAIL_A, "Teklifli Bayi", PASSWORD)
        commit_full_plan_dealer(EMAIL_B, "Teklifsiz Bayi", PASSWORD)
        brand = db.session.scalar(sa.select(Brand).where(Brand.active).order_by(Brand.name == "Volkswagen", Brand.id))
        built = [catalog_of(brand, DRAWING_SIZE) for _vehicle in range(VEHICLES)]
        codes = list(db.session.scalars(sa.select(Part.oem_code).where(Part.category_id == built[0].leaf_id)))
        today = istanbul_today()
        for currency, value in SANDBOX_TRY_PER_UNIT.items():
            if currency != "TRY":
                db.session.add(CurrencyRate(currency=currency, rate_date=today, try_per_unit=value))
        db.session.commit()
        own_codes: list[str] = []
        for key, _feed, _name in FEEDS:
            own_codes += write_list(dealer, key, codes)[:10]
        paths = [f"/vehicles/{one.vehicle_id}/categories/{one.leaf_id}" for one in built]
        if db.engine.dialect.name == "postgresql":
            with db.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
                connection.execute(sa.text("ANALYZE"))
        db.session.remove()
    print(
        f"\noffers: {len(paths)} drawings of {len(codes)} rows; 3 suppliers of shop A, {OFFER_LINES:,} lines each, "
        f"built in {time.perf_counter() - began:.0f} s"
    )
    return Drawings(paths, codes, own_codes)


def write_list(dealer, key: str, codes: list[str]) -> list[str]:
    """The supplier's list in use, in bulk; its filler lines' own codes."""
    distributor = BY_KEY[key]
    supplier = Supplier(shop_id=dealer.shop_id, user_id=dealer.id, name=distributor.name,
                        currency=distributor.currency, discount_percent=Decimal(10), order_cutoff="14:00",
                        delivery_promise="aynı gün")  # fmt: skip
    db.session.add(supplier)
    db.session.flush()
    record = SupplierImport(shop_id=dealer.shop_id, supplier_id=supplier.id, filename=f"{key}.csv", file_kind="csv",
                            status="done", rows_total=OFFER_LINES, rows_imported=OFFER_LINES)  # fmt: skip
    db.session.add(record)
    db.session.commit()
    columns = feed_columns(distributor)
    mapping = {field: columns.index(column) for field, column in FEED_COLUMNS.items()} | {"oem": None}
    rows = [list(feed_row(line)) for line in lines(distributor, count=OFFER_LINES - len(codes))]
    step = len(rows) // len(codes)
    for index, code in enumerate(codes):  # spread through the list
        row = list(rows[index * step])
        row[columns.index("StokKodu")] = f"{key[:3].upper()}-D{index:03d}"
        row[columns.index("OENo")] = f"VW {code}"
        row[columns.index("Barkod")] = ""  # the copied line's EAN would tie the two lines' groups together
        rows.insert(index * step, row)
    first = (db.session.scalar(sa.select(sa.func.max(SupplierLine.id))) or 0) + 1
    items, numbers = [], []
    for position, row in enumerate(rows):
        item = line_from_row(mapping, row, position + 2)
        line_id = first + position
        items.append({**item.values, "id": line_id, "import_id": record.id})
        numbers += [{"line_id": line_id, "kind": kind, "key": k, "import_id": record.id} for kind, k in item.numbers]
    connection = db.session.connection()
    for start in range(0, len(items), 5000):
        connection.execute(sa.insert(SupplierLine.__table__), items[start : start + 5000])
    for start in range(0, len(numbers), 20000):
        connection.execute(sa.insert(SupplierNumber.__table__), numbers[start : start + 20000])
    if db.engine.dialect.name == "postgresql":
        connection.execute(sa.text("SELECT setval(pg_get_serial_sequence('supplier_line', 'id'), :last)"),
                           {"last": first + len(items) - 1})  # fmt: skip
    db.session.add(SupplierActive(supplier_id=supplier.id, shop_id=dealer.shop_id, import_id=record.id))
    db.session.commit()
    feed_equivalents(record.id, dealer.shop_id, supplier.id)
    return [item["own_code"] for item in items[1 :: len(items) // 12]]


def signed_in(app: Flask, email: str) -> FlaskClient:
    client = app.test_client()
    response = client.post("/api/auth/sign-in/email", json={"email": email, "password": PASSWORD},
                           headers={"Origin": "http://localhost"})  # fmt: skip
    if response.status_code != 200:
        raise BenchSetupError(f"{email} could not sign in: {response.status_code}")
    return client


def getter(client: FlaskClient, **headers: str) -> Callable[[str], object]:
    def get(path: str) -> None:
        response = client.get(path, headers=headers)
        if response.status_code != 200:
            raise RuntimeError(f"GET {path}: {response.status_code}")

    return get


def drawing_page(app: Flask, database: str, drawings: Drawings) -> list[Result]:
    """The page and its fragment for the dealer with three suppliers against the same for the dealer without."""
    with_offers, without = signed_in(app, EMAIL_A), signed_in(app, EMAIL_B)
    page = with_offers.get(drawings.paths[0], headers=HTML).get_data(as_text=True)
    shown = page.count("data-offers")
    if "teklif" not in page:
        raise RuntimeError("the drawing shows no offers")
    contenders = {
        "page with offers": getter(with_offers, **HTML),
        "page without": getter(without, **HTML),
        "HTMX with offers": getter(with_offers, **HX),
        "HTMX without": getter(without, **HX),
    }
    for path in drawings.paths:  # each opened once by both before the rounds
        for contender in contenders.values():
            contender(path)
    times = in_turns(drawings.paths * PAGE_REPEATS, contenders, ROUNDS)
    found = []
    for kind, label in (("page", "page"), ("HTMX", "HTMX fragment")):
        name = f"2. a {DRAWING_SIZE + 1}-row drawing's {label} with offers on {database}"
        details = [f"rows carrying offers (data-offers) on the page: {shown}"] if kind == "page" else []
        current, baseline = f"{kind} with offers", f"{kind} without"
        found.append(within_ratio(name, (current, times[current]), (baseline, times[baseline]), PAGE_MAX_RATIO,
                                  details))  # fmt: skip
        found[-1].print()
    return found


def offers_benchmarks(app: Flask, database: str, database_url: str) -> list[Result]:
    drawings = build_offers(app)
    found = drawing_page(app, database, drawings)
    found.append(number_lookup(app, database, database_url, drawings))
    found[-1].print()
    return found


# The lookup's minimal SQL: the facts its answer shows, each read directly on the migrations' indexes. The group: the
# shop's and global same/replaces links reachable from the number (a recursive walk of four steps; the app's walk is
# bounded by its members), the links themselves fetched.
GROUP_SQL = """
WITH RECURSIVE grp(key, depth) AS (
    SELECT CAST(%(key)s AS VARCHAR(60)), 0
    UNION
    SELECT CASE WHEN l.a_key = grp.key THEN l.b_key ELSE l.a_key END, grp.depth + 1
    FROM grp JOIN equivalent_link l ON l.a_key = grp.key OR l.b_key = grp.key
    WHERE (l.shop_id IS NULL OR l.shop_id = %(shop)s) AND l.kind IN ('same', 'replaces') AND grp.depth < 4
)
SELECT DISTINCT l.id, l.a_key, l.a_code, l.a_brand, l.b_key, l.b_code, l.b_brand, l.kind, l.source, l.detail
FROM grp JOIN equivalent_link l ON l.a_key = grp.key OR l.b_key = grp.key
WHERE (l.shop_id IS NULL OR l.shop_id = %(shop)s) AND l.kind IN ('same', 'replaces')"""
SHELF_SQL = """
SELECT n.key, i.* FROM shelf_active a
JOIN shelf_number n ON n.import_id = a.import_id JOIN shelf_item i ON i.id = n.item_id
WHERE a.branch_id = %(branch)s AND n.key IN ({keys})"""
OFFERS_SQL = """
SELECT n.key, n.kind, s.id, s.name, s.discount_percent, s.delivery_promise, s.order_cutoff, l.id, l.own_code, l.brand,
       l.name, l.price, l.currency, l.stock, l.stock_text
FROM supplier_active a JOIN supplier s ON s.id = a.supplier_id
JOIN supplier_number n ON n.import_id = a.import_id JOIN supplier_line l ON l.id = n.line_id
WHERE a.shop_id = %(shop)s AND n.key IN ({keys})"""
RATES_SQL = "SELECT currency, try_per_unit, rate_date FROM currency_rate WHERE rate_date <= %(today)s"
COUNTS_SQL = """
SELECT search_code, count(DISTINCT vehicle_id) FROM part WHERE search_code IN ({keys}) GROUP BY search_code"""
USED_BRANDS_SQL = """
SELECT v.brand_id, count(DISTINCT p.vehicle_id), count(*) FROM part p JOIN vehicle v ON v.id = p.vehicle_id
WHERE p.search_code = %(key)s AND p.reference_code IS NULL GROUP BY v.brand_id"""
USED_ROWS_SQL = """
SELECT p.id, p.oem_code, p.name, p.name_tr, p.position, p.fit_status, p.fit, p.category_id, c.name, c.name_tr,
       c.parent_id, v.id, v.vin, v.brand_id, v.brand_name, v.model, v.year, v.engine
FROM part p JOIN category c ON c.id = p.category_id JOIN vehicle v ON v.id = p.vehicle_id
WHERE p.search_code = %(key)s AND p.reference_code IS NULL
ORDER BY v.brand_name, v.model, v.id, p.category_id, p.sort_order, p.id LIMIT 20"""
TRAILS_SQL = """
WITH RECURSIVE chain(id, parent_id, name, depth) AS (
    SELECT id, parent_id, name, 0 FROM category WHERE id IN ({ids})
    UNION ALL
    SELECT c.id, c.parent_id, c.name, chain.depth + 1 FROM chain JOIN category c ON c.id = chain.parent_id
)
SELECT id, parent_id, name, depth FROM chain"""


class MinimalLookup:
    """The lookup's facts through the database's bare driver (psycopg2, or sqlite3 on the SQLite file)."""

    def __init__(self, database_url: str, email: str) -> None:
        self.bare = BareSql(database_url)
        self.sqlite = self.bare.connection.__class__.__module__.startswith("sqlite3")
        self.shop, self.branch = self.rows('SELECT shop_id, branch_id FROM "user" WHERE email = %(email)s',
                                           {"email": email})[0]  # fmt: skip
        self.today = istanbul_today().isoformat()

    def rows(self, statement: str, parameters: dict) -> list[tuple]:
        if self.sqlite:
            statement = re.sub(r"%\((\w+)\)s", r":\1", statement)
        cursor = self.bare.connection.cursor()
        try:
            cursor.execute(statement, parameters)
            return cursor.fetchall()
        finally:
            cursor.close()

    def keyed(self, statement: str, keys: list[str], **parameters: object) -> list[tuple]:
        names = {f"k{index}": key for index, key in enumerate(keys)}
        listed = ", ".join(f"%({name})s" for name in names)
        return self.rows(statement.format(keys=listed, ids=listed), {**names, **parameters})

    def lookup(self, number: str) -> None:
        key = fold_code(number)
        links = self.rows(GROUP_SQL, {"key": key, "shop": self.shop})
        keys = list(dict.fromkeys([key, *(row[1] for row in links), *(row[4] for row in links)]))
        self.keyed(SHELF_SQL, keys, branch=self.branch)
        self.keyed(OFFERS_SQL, keys, shop=self.shop)
        self.rows(RATES_SQL, {"today": self.today})
        counts = self.keyed(COUNTS_SQL, keys)
        used = key
        if not any(row[0] == key for row in counts) and counts:
            used = counts[0][0]  # the first equivalent vehicles carry, as the app
        self.rows(USED_BRANDS_SQL, {"key": used})
        found = self.rows(USED_ROWS_SQL, {"key": used})
        categories = sorted({row[7] for row in found})
        if categories:
            self._trails(categories)
        self.bare._end()

    def _trails(self, categories: list[int]) -> None:
        names = {f"c{index}": category for index, category in enumerate(categories)}
        listed = ", ".join(f"%({name})s" for name in names)
        self.rows(TRAILS_SQL.format(ids=listed), names)

    def close(self) -> None:
        self.bare.close()


def number_lookup(app: Flask, database: str, database_url: str, drawings: Drawings) -> Result:
    """GET /api/parts/<number>/lookup of the drawing's numbers and some suppliers' codes, in this process, against
    the minimal SQL of the same number, in turns: p95 <= 2.5 (p50 printed)."""
    client = signed_in(app, EMAIL_A)
    minimal = MinimalLookup(database_url, EMAIL_A)
    try:
        numbers = drawings.codes + drawings.own_codes

        def app_lookup(number: str) -> None:
            response = client.get(f"/api/parts/{quote(number, safe='')}/lookup")
            if response.status_code != 200:
                raise RuntimeError(f"lookup of {number}: {response.status_code}")

        sizes = []
        for number in numbers:  # each sent once first, as the catalog's benchmarks do
            response = client.get(f"/api/parts/{quote(number, safe='')}/lookup")
            body = response.get_json()
            sizes.append((len(body["group"]["equivalents"]),
                          sum(len(v) for v in (body.get("offers") or {}).get("byNumber", {}).values())))  # fmt: skip
            minimal.lookup(number)

        def request_floor(_number: str) -> None:
            client.get("/api/auth/get-session")

        contenders = {"app lookup": app_lookup, "minimal SQL": minimal.lookup, "request floor": request_floor}
        times = in_turns(numbers, contenders, ROUNDS * 3)
    finally:
        minimal.close()
    p50, p95 = ratios(times["app lookup"], times["minimal SQL"])
    members = sorted(size[0] for size in sizes)
    offers = sorted(size[1] for size in sizes)
    return Result(
        name=f"3. number lookup GET /api/parts/<number>/lookup on {database}",
        current=f"{'app lookup':<18} {latency(times['app lookup'])}",
        baseline=f"{'minimal SQL':<18} {latency(times['minimal SQL'])}",
        ratio=f"p50 {p50:.2f}  p95 {p95:.2f}",
        target=f"<= {LOOKUP_MAX_RATIO:.1f} at p95",
        passed=p95 <= LOOKUP_MAX_RATIO,
        details=[
            f"{len(numbers)} numbers ({len(drawings.codes)} of the drawing, {len(drawings.own_codes)} suppliers' "
            f"codes); the app's group members median {members[len(members) // 2]}, max {members[-1]}; offers median "
            f"{offers[len(offers) // 2]}, max {offers[-1]}",
            f"the request floor, a signed-in GET /api/auth/get-session in the same turns: "
            f"{latency(times['request floor'])} (what any signed-in request costs, the lookup's SQL aside)",
        ],
    )


# --- running --------------------------------------------------------------------------------------------------------


def main(count: int = LINES) -> int:
    logging.getLogger("rq").setLevel(logging.WARNING)  # the worker's lines per job say nothing a reader needs
    only = os.environ.get("BENCH_SUPPLIERS_ONLY", "").strip()
    feeds: dict[str, bytes] = {}
    if only != "offers":
        began = time.perf_counter()
        feeds = {key: feed_bytes(key, count) for key, _feed, _name in FEEDS}
        sizes = ", ".join(f"{key} {len(data) / 1e6:.1f} MB" for key, data in feeds.items())
        print(f"feeds: {count:,} lines each ({sizes}), made in {time.perf_counter() - began:.0f} s")

    def on(database: str, database_url: str, redis_url: str) -> list[Result]:
        with tempfile.TemporaryDirectory(prefix="bench-suppliers-storage-") as storage:
            return measured(database, migrated_app(database_url, redis_url, storage), database_url)

    def measured(database: str, app: Flask, database_url: str) -> list[Result]:
        try:
            found = import_benchmark(app, database, count, feeds) if only != "offers" else []
            if only != "import":
                found += offers_benchmarks(app, database, database_url)
            return found
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
