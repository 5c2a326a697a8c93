"""Catalog benchmarks on PostgreSQL with 1,000,000 parts across 100 vehicles: a category's detail, the in-vehicle
search and where-used, each against the bare SQL it runs, and the vehicle page's HTML against the JSON detail; the
dealer has a shelf list of 200,000 rows in use, and his drawings' pages are compared with a dealer's who has none.

The fleet: the sandbox Golf is decoded and its whole tree stored through the app's own code (139 categories,
10,583 parts, 116 schema pictures), then copied in SQL to 99 more vehicles (1,058,300 parts in all). Each sample
request is sent once with its SQL recorded; the timed rounds then send it over HTTP and replay its recorded
statements through a bare psycopg2 connection, one after the other, so both see the same machine at the same moment.
Run with `make bench-catalog` or `.venv/bin/python -m bench.catalog` (see bench/README.md).
"""

from __future__ import annotations

import os
import random
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from decimal import Decimal
from html.parser import HTMLParser

import requests
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from app.accounts.models import User
from app.catalog.models import Category, Hotspot, Part, SchemaPicture
from app.core.fragments import EXTENSION_KEY as FRAGMENT_CACHE
from app.core.text import fold_code
from app.demo.seed import seed
from app.extensions import db
from app.shelf.models import ShelfActive, ShelfImport, ShelfItem, ShelfNumber
from app.sources.sandbox.catalog import VIN_GOLF
from app.vehicles.models import Vehicle
from bench.measure import Result, in_turns, latency, ratios, within_ratio
from bench.minimal import MinimalQueries
from bench.sql import BareSql, SqlRecorder
from bench.stack import (
    EMAIL,
    BenchSetupError,
    LogTally,
    Served,
    bench_app,
    printed,
    run_benchmarks,
    shut_down,
)
from tests.support.dealers import commit_full_plan_dealer

DEFAULT_DATABASE_URL = "postgresql://postgres@127.0.0.1:5432/bench_catalog"


def _knob(name: str, default: int) -> int:
    """A size the environment may lower for a quick run (BENCH_CATALOG_<name>); the printed figures are then
    indicative only."""
    return int(os.environ.get(f"BENCH_CATALOG_{name}", "").strip() or default)


VEHICLES = _knob("VEHICLES", 100)
SAMPLE_SCALE = _knob("SAMPLES_PERCENT", 100) / 100  # of every benchmark's sample count
DETAIL_SAMPLES = max(1, int(150 * SAMPLE_SCALE))  # categories across the fleet, leaves and groups as the tree has them
SEARCH_SAMPLES = max(1, int(60 * SAMPLE_SCALE))  # (vehicle, query) pairs
ROUNDS = _knob("ROUNDS", 3)
SQL_MAX_RATIO = 2.0
WHERE_USED_SAMPLES = max(
    1, int(60 * SAMPLE_SCALE)
)  # part rows of the fleet, whose codes every vehicle carries (the copies)
WHERE_USED_MAX_RATIO = 2.0
# The app's request against the minimal query of its answer (bench.minimal), for the detail, search and where-used.
MINIMAL_MAX_RATIO = 2.5
MINIMAL = "minimal query"
PAGE_MAX_RATIO = 1.5
# The vehicle page with a leaf open (the Golf's longest parts table), as a browser fetches it: the HTML, its
# stylesheets and scripts as transferred (compressed), the picture not counted.
PAGE_WEIGHT_MAX_BYTES = 150_000
# A fit question answered (and answered again, changed) on the Golf: the dealer's fits of the whole vehicle are
# evaluated again (issue 30: a vehicle of 10,000 parts within a second).
FIT_ANSWERS = 12
FIT_ANSWER_MAX_SECONDS = 1.0
BROWSER_ENCODINGS = "gzip, deflate, br, zstd"  # what Chromium accepts
# The dealer's shelf list (issue 31): 200,000 rows, every other distinct OEM code of the Golf among them (so of every
# vehicle of the fleet, its copies), one row in SHELF_REPLACED_EVERY replaced by the next such code; a second dealer
# without a list opens the same drawings. Inserted in bulk (the import job has its own benchmark, bench/shelf.py).
SHELF_ROWS = 200_000
SHELF_REPLACED_EVERY = 25
SHELF_SAMPLES = max(1, int(60 * SAMPLE_SCALE))  # leaves across the fleet
SHELF_PAGE_MAX_RATIO = 1.1
SHELF_BATCH = 20_000
SHELFLESS_EMAIL = "bench-no-list@example.com"
SHELFLESS_PASSWORD = "bench-horse-43-staple"  # noqa: S105 - a throwaway dealer in a throwaway database
# Words and code fragments a dealer types: common, rare, two words, an OEM code's start, nothing at all.
SEARCH_WORDS = ("bolt", "filter", "oil filter", "gasket", "hose", "seal ring", "bracket", "sensor", "xyzzy")

Timed = Callable[[], None]


# --- the fleet ----------------------------------------------------------------------------------------------------


def store_golf(app: Flask) -> None:
    """The sandbox Golf decoded through catapi and its tree walked, with the app's own fetch-and-store code."""
    with app.app_context():
        print(f"  {seed(VIN_GOLF, wait=True)}")
        db.session.remove()


def copy_fleet(app: Flask, copies: int) -> None:
    """Copy the one stored vehicle with its categories, parts, pictures and hotspots `copies` times, ids shifted by
    each table's largest id per copy, in one transaction; then ANALYZE, as autovacuum would after such a load."""
    with app.app_context():
        connection = db.session.connection()
        if connection.scalar(sa.select(sa.func.count()).select_from(Vehicle)) != 1:
            raise BenchSetupError("the fleet is copied from one stored vehicle, and the database holds another")
        step = {model: _max_id(connection, model) for model in (Vehicle, Category, Part, SchemaPicture, Hotspot)}
        vehicle, category, picture = step[Vehicle], step[Category], step[SchemaPicture]
        plans: list[tuple[type, dict[str, int]]] = [
            (Vehicle, {"id": vehicle}),
            (Category, {"id": category, "parent_id": category, "vehicle_id": vehicle}),
            (SchemaPicture, {"id": picture, "category_id": category}),
            (Hotspot, {"id": step[Hotspot], "schema_picture_id": picture}),
            (Part, {"id": step[Part], "category_id": category, "vehicle_id": vehicle}),
        ]
        for model, shifted in plans:
            began = time.perf_counter()
            _copy_rows(connection, model.__table__, copies, shifted)
            print(f"  {model.__tablename__}: copied {copies}x in {time.perf_counter() - began:.1f} s")
        db.session.commit()
        with db.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as autocommit:
            autocommit.execute(sa.text("ANALYZE"))
        db.session.remove()


def _max_id(connection: sa.Connection, model: type) -> int:
    return connection.scalar(sa.select(sa.func.max(model.id))) or 0


def _copy_rows(connection: sa.Connection, table: sa.Table, copies: int, shifted: dict[str, int]) -> None:
    """INSERT ... SELECT of every row once per k in 1..copies, the `shifted` id columns plus k times their step (a
    VIN is made unique from k)."""
    quote = connection.dialect.identifier_preparer.quote
    names = [column.name for column in table.columns]
    values = [_copied_value(quote(name), shifted.get(name)) for name in names]
    if table.name == Vehicle.__tablename__:
        values[names.index("vin")] = "'BENCH' || lpad(k::text, 12, '0')"
    connection.execute(
        sa.text(
            f"INSERT INTO {table.name} ({', '.join(quote(name) for name in names)}) "  # noqa: S608 - our own names
            f"SELECT {', '.join(values)} FROM {table.name} AS t CROSS JOIN generate_series(1, :copies) AS k"
        ),
        {"copies": copies},
    )
    sequence = f"pg_get_serial_sequence('{table.name}', 'id')"
    connection.execute(sa.text(f"SELECT setval({sequence}, (SELECT max(id) FROM {table.name}))"))  # noqa: S608


def _copied_value(column: str, step: int | None) -> str:
    return f"t.{column} + k * {step}" if step else f"t.{column}"


def load_shelf(app: Flask) -> None:
    """The bench dealer's list in use: SHELF_ROWS rows with their numbers (OEM, own code, an aftermarket number, the
    successor when replaced), inserted in bulk in one transaction, then ANALYZE."""
    began = time.perf_counter()
    rng = random.Random(31)
    with app.app_context():
        connection = db.session.connection()
        user_id = connection.scalar(sa.select(User.id).where(User.email == EMAIL))
        first = connection.scalar(sa.select(sa.func.min(Vehicle.id)))
        golf = connection.scalars(
            sa.select(Part.oem_code)
            .where(Part.vehicle_id == first, Part.reference_code.is_(None), Part.search_code != "")
            .group_by(Part.oem_code)
            .order_by(Part.oem_code)
        ).all()
        covered = golf[::2]
        import_id = connection.scalar(
            sa.insert(ShelfImport)
            .values(user_id=user_id, filename="bench.csv", file_kind="csv", status="done", rows_total=SHELF_ROWS)
            .returning(ShelfImport.id)
        )
        first_item = (connection.scalar(sa.select(sa.func.max(ShelfItem.id))) or 0) + 1
        last = first_item + SHELF_ROWS - 1
        for start in range(0, SHELF_ROWS, SHELF_BATCH):
            indexes = range(start, min(start + SHELF_BATCH, SHELF_ROWS))
            items = [_shelf_row(index, first_item + index, import_id, covered, rng) for index in indexes]
            connection.execute(sa.insert(ShelfItem), items)
            connection.execute(sa.insert(ShelfNumber), [number for item in items for number in _shelf_numbers(item)])
        connection.execute(sa.text("SELECT setval(pg_get_serial_sequence('shelf_item', 'id'), :last)"), {"last": last})
        connection.execute(sa.insert(ShelfActive).values(user_id=user_id, import_id=import_id))
        db.session.commit()
        with db.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as autocommit:
            autocommit.execute(sa.text("ANALYZE shelf_item"))
            autocommit.execute(sa.text("ANALYZE shelf_number"))
        commit_full_plan_dealer(SHELFLESS_EMAIL, "Bench Bayi (listesiz)", SHELFLESS_PASSWORD)
        db.session.remove()
    print(
        f"shelf list: {SHELF_ROWS:,} rows, {len(covered):,} of them the Golf's codes (of {len(golf):,}), "
        f"loaded in {time.perf_counter() - began:.0f} s"
    )


def _shelf_row(index: int, item_id: int, import_id: int, covered: list[str], rng: random.Random) -> dict[str, object]:
    """The list's row `index`: a code of the fleet for the first len(covered) rows, else a code no vehicle carries."""
    oem = covered[index] if index < len(covered) else f"ZX {index:09d}"
    replaced = index < len(covered) - 1 and index % SHELF_REPLACED_EVERY == 0
    return {
        "id": item_id,
        "import_id": import_id,
        "line": index + 2,
        "oem_code": oem,
        "own_code": f"RAF-{index:06d}",
        "brand": rng.choice(("BOSCH", "MANN", "FEBI", "OEM")),
        "name": f"Parça {index}",
        "price": Decimal(rng.randrange(1_000, 500_000)) / 100,
        "currency": "TRY",
        "stock": rng.randrange(0, 13),
        "replaced_by": covered[index + 1] if replaced else None,
    }


def _shelf_numbers(item: dict[str, object]) -> list[dict[str, object]]:
    """The row's numbers by their search keys: OEM, own code, one aftermarket number, the successor."""
    written = {
        "oem": item["oem_code"],
        "own": item["own_code"],
        "aftermarket": f"AM {item['line']:07d}",
        "successor": item["replaced_by"],
    }
    keys = {(kind, fold_code(str(number))) for kind, number in written.items() if number}
    row = {"item_id": item["id"], "import_id": item["import_id"]}
    return [{**row, "kind": kind, "key": key} for kind, key in keys if key]


# --- samples ------------------------------------------------------------------------------------------------------


@dataclass
class Sample:
    """One request of a benchmark: its URL on the app and the SQL the app ran for it."""

    path: str
    statements: list[tuple[str, object]] = field(default_factory=list)
    panel: str = ""  # where-used: the same lookup as the parts table's panel (HTMX) of one row carrying the code
    minimal: tuple[object, ...] = ()  # the arguments of its minimal query (bench.minimal.MinimalQueries)


def detail_samples(app: Flask, rng: random.Random) -> list[Sample]:
    """Categories across the fleet, drawn evenly from all of them (so leaves and groups as the trees have them)."""
    with app.app_context():
        rows = db.session.execute(sa.select(Category.vehicle_id, Category.id).order_by(Category.id)).all()
        db.session.remove()
    return [
        Sample(f"/api/vehicles/{vehicle}/categories/{category}", minimal=(vehicle, category))
        for vehicle, category in rng.sample(rows, DETAIL_SAMPLES)
    ]


def search_samples(app: Flask, rng: random.Random) -> list[Sample]:
    """A word (or an OEM code's first six characters) searched in one vehicle of the fleet."""
    with app.app_context():
        vehicles = list(db.session.scalars(sa.select(Vehicle.id)))
        codes = list(db.session.scalars(sa.select(Part.oem_code).where(Part.vehicle_id == vehicles[0]).limit(2000)))
        db.session.remove()
    queries = [*SEARCH_WORDS, *(code[:6] for code in rng.sample(codes, 3))]
    pairs = [(rng.choice(vehicles), rng.choice(queries)) for _ in range(SEARCH_SAMPLES)]
    return [
        Sample(f"/api/categories/search/{vehicle}?q={requests.utils.quote(query)}", minimal=(vehicle, query))
        for vehicle, query in pairs
    ]


def shelf_samples(app: Flask, rng: random.Random) -> list[Sample]:
    """Drawings (leaves with parts) across the fleet: their pages, whose rows the dealer's list carries in part."""
    with app.app_context():
        rows = db.session.execute(
            sa.select(Category.vehicle_id, Category.id).where(Category.is_leaf).order_by(Category.id)
        ).all()
        db.session.remove()
    return [Sample(f"/vehicles/{vehicle}/categories/{leaf}") for vehicle, leaf in rng.sample(rows, SHELF_SAMPLES)]


# A code as a dealer might type it: as the catalog prints it, in lower case, run together, or with dashes.
CODE_TYPINGS: tuple[Callable[[str], str], ...] = (
    str,
    str.lower,
    lambda code: code.replace(" ", ""),
    lambda code: code.replace(" ", "-"),
)


def where_used_samples(app: Flask, rng: random.Random) -> list[Sample]:
    """Part rows drawn from the whole fleet (reference rows, which carry no code, left out): each row's code typed one
    of the CODE_TYPINGS ways for the API, and the row's own panel."""
    with app.app_context():
        last = db.session.scalar(sa.select(sa.func.max(Part.id)))
        drawn = rng.sample(range(1, last + 1), WHERE_USED_SAMPLES * 3)
        rows = db.session.execute(
            sa.select(Part.vehicle_id, Part.id, Part.oem_code)
            .where(Part.id.in_(drawn), Part.reference_code.is_(None), Part.search_code != "")
            .order_by(Part.id)
        ).all()
        db.session.remove()
    typed = [
        (vehicle, part, rng.choice(CODE_TYPINGS)(code)) for vehicle, part, code in rng.sample(rows, WHERE_USED_SAMPLES)
    ]
    return [
        Sample(
            f"/api/parts/{requests.utils.quote(code, safe='')}/where-used",
            panel=f"/vehicles/{vehicle}/parts/{part}/where-used",
            minimal=(code,),
        )
        for vehicle, part, code in typed
    ]


# --- timing -------------------------------------------------------------------------------------------------------


@dataclass
class Client:
    """A signed-in dealer's HTTP session on the served app, the recorder of the app's SQL and the bare connection."""

    served: Served
    session: requests.Session
    recorder: SqlRecorder
    bare: BareSql
    wsgi: FlaskClient
    minimal: MinimalQueries

    def call(self, path: str, **headers: str) -> None:
        """The request handed to the app in this process (WSGI), without the HTTP server and client around it."""
        response = self.wsgi.get(path, headers=headers)
        if response.status_code != 200:
            raise RuntimeError(f"in-process GET {path}: {response.status_code}")

    def get(self, path: str, **headers: str) -> requests.Response:
        response = self.session.get(f"{self.served.url}{path}", headers=headers, timeout=60)
        if response.status_code != 200:
            raise RuntimeError(f"GET {path}: {response.status_code} {response.text[:200]}")
        return response

    def record(self, samples: list[Sample]) -> None:
        """Send each sample once (a warm-up too) and keep the statements the app ran for it."""
        for sample in samples:
            with self.recorder.recording() as statements:
                self.get(sample.path)
            sample.statements = list(statements)


Contender = Callable[[Sample], object]


def compared(
    name: str, times: dict[str, list[float]], pair: tuple[str, str], target: float, http: tuple[str, str]
) -> Result:
    """The app's handling of the request (`pair`: current, baseline) against the target at p50 and at p95; the same
    pair over HTTP (`http`) is printed beside it."""
    current, baseline = pair
    http_p50, http_p95 = ratios(times[http[0]], times[http[1]])
    details = [
        *(f"{other:<18} {latency(values)}" for other, values in times.items() if other not in pair),
        f"over HTTP: {http[0]}/{http[1]} p50 {http_p50:.2f}  p95 {http_p95:.2f}  (the bench's werkzeug server)",
    ]
    return within_ratio(name, (current, times[current]), (baseline, times[baseline]), target, details)


def statements_line(samples: list[Sample]) -> str:
    counts = sorted(len(sample.statements) for sample in samples)
    spread = f"{counts[0]}-{counts[-1]} (median {counts[len(counts) // 2]})"
    return f"statements per request: {spread}; {len(samples)} requests x {ROUNDS} rounds"


# --- the benchmarks -----------------------------------------------------------------------------------------------


def category_detail(client: Client, samples: list[Sample]) -> list[Result]:
    title = "1. category detail from stored data: GET /api/vehicles/<v>/categories/<c>"
    return against_sql(client, samples, title, client.minimal.detail)


def vehicle_search(client: Client, samples: list[Sample]) -> list[Result]:
    title = "2. in-vehicle search: GET /api/categories/search/<v>?q="
    return against_sql(client, samples, title, client.minimal.search)


def where_used(client: Client, samples: list[Sample]) -> list[Result]:
    """The API against its SQL; the parts table's panel of a row carrying the code (HTMX) is printed for reading."""
    fragment = {"Accept": "text/html", "HX-Request": "true"}
    panel = {"panel (HTMX)": lambda sample: client.call(sample.panel, **fragment)}
    title = "4. where-used: GET /api/parts/<oem>/where-used"
    return against_sql(client, samples, title, client.minimal.where_used, target=WHERE_USED_MAX_RATIO, extra=panel)


def against_sql(
    client: Client,
    samples: list[Sample],
    title: str,
    minimal: Callable[..., object],
    target: float = SQL_MAX_RATIO,
    extra: dict[str, Contender] | None = None,
) -> list[Result]:
    """The app's handling of the request (WSGI, in this process) against its recorded statements run bare, and
    against the answer's minimal query (bench.minimal), all in the same turns; `extra` contenders are timed beside
    them, for reading."""
    contenders = {
        "app": lambda sample: client.call(sample.path),
        "bare SQL": lambda sample: client.bare.run(sample.statements),
        MINIMAL: lambda sample: minimal(*sample.minimal),
        "app over HTTP": lambda sample: client.get(sample.path),
        **(extra or {}),
    }
    times = in_turns(samples, contenders, ROUNDS)
    result = compared(title, times, ("app", "bare SQL"), target, http=("app over HTTP", "bare SQL"))
    result.details.append(statements_line(samples))
    return [result, against_minimal(title, times)]


def against_minimal(title: str, times: dict[str, list[float]]) -> Result:
    """The same turns' app against the answer's minimal query: the app's whole request (session, vehicle and plan
    checks, its statements, the answer's building) over the one statement the answer's rows need."""
    name = f"{title.split('.')[0]}b. {title.split('. ', 1)[1].split(':')[0]}: app / minimal query"
    bare = f"recorded SQL / minimal query p50 {_ratio(times['bare SQL'], times[MINIMAL])}"
    return within_ratio(name, ("app", times["app"]), (MINIMAL, times[MINIMAL]), MINIMAL_MAX_RATIO, [bare])


def _ratio(current: list[float], baseline: list[float]) -> str:
    p50, p95 = ratios(current, baseline)
    return f"{p50:.2f}  p95 {p95:.2f}"


def page_html(client: Client, samples: list[Sample], app: Flask) -> Result:
    """The whole vehicle page of a category (tree opened down to it) against the JSON detail, each page sent once
    before (as each JSON detail was when its SQL was recorded): a drawing's page after the first dealer opened it.
    For reading: the first opening (its tree and main area rendered, not taken from the fragment cache) and the HTMX
    fragment of the main area alone."""
    html, fragment = {"Accept": "text/html"}, {"Accept": "text/html", "HX-Request": "true"}

    def page(sample: Sample) -> None:
        client.call(sample.path.removeprefix("/api"), **html)

    def first_opening(sample: Sample) -> None:
        with fragment_cache_off(app):
            page(sample)

    for sample in samples:
        page(sample)
    contenders = {
        "page HTML": page,
        "JSON": lambda sample: client.call(sample.path),
        "first opening": first_opening,
        MINIMAL: lambda sample: client.minimal.detail(*sample.minimal),
        "fragment": lambda sample: client.call(sample.path.removeprefix("/api"), **fragment),
        "page over HTTP": lambda sample: client.get(sample.path.removeprefix("/api"), **html),
        "JSON over HTTP": lambda sample: client.get(sample.path),
    }
    times = in_turns(samples, contenders, ROUNDS)
    name = "3. vehicle page HTML: GET /vehicles/<v>/categories/<c>"
    result = compared(name, times, ("page HTML", "JSON"), PAGE_MAX_RATIO, http=("page over HTTP", "JSON over HTTP"))
    result.details.append(f"page HTML / {MINIMAL} (of its category) p50 {_ratio(times['page HTML'], times[MINIMAL])}")
    return result


@contextmanager
def fragment_cache_off(app: Flask) -> Iterator[None]:
    """The app's fragment cache neither read nor filled meanwhile (what it holds stays)."""
    cache = app.extensions[FRAGMENT_CACHE]
    budget, cache.max_bytes = cache.max_bytes, 0
    try:
        yield
    finally:
        cache.max_bytes = budget


class PageResources(HTMLParser):
    """The stylesheets and scripts a page loads (its pictures are not counted)."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "link" and found.get("rel") == "stylesheet" and found.get("href"):
            self.urls.append(found["href"] or "")
        elif tag == "script" and found.get("src"):
            self.urls.append(found["src"] or "")


def transferred(client: Client, path: str, **headers: str) -> tuple[int, int, str]:
    """(bytes on the wire, bytes decoded, content encoding) of one GET, as a browser accepting BROWSER_ENCODINGS gets
    it (headers left out)."""
    response = client.session.get(
        f"{client.served.url}{path}", headers={"Accept-Encoding": BROWSER_ENCODINGS, **headers}, stream=True, timeout=60
    )
    wire = response.raw.read(decode_content=False)
    plain = client.session.get(f"{client.served.url}{path}", headers={"Accept-Encoding": "identity", **headers})
    if response.status_code != 200 or plain.status_code != 200:
        raise RuntimeError(f"GET {path}: {response.status_code}, {plain.status_code}")
    return len(wire), len(plain.content), response.headers.get("Content-Encoding", "none")


def page_weight(client: Client, app: Flask) -> Result:
    """The vehicle page with the Golf's longest parts table open: its HTML, stylesheets and scripts as transferred."""
    with app.app_context():
        vehicle, leaf = db.session.execute(
            sa.select(Part.vehicle_id, Part.category_id)
            .group_by(Part.vehicle_id, Part.category_id)
            .order_by(sa.func.count().desc(), Part.category_id)
            .limit(1)
        ).one()
        db.session.remove()
    path = f"/vehicles/{vehicle}/categories/{leaf}"
    html = client.get(path, Accept="text/html", **{"Accept-Encoding": "identity"}).text
    resources = PageResources()
    resources.feed(html)
    lines, wire_total, plain_total = [], 0, 0
    for url in [path, *dict.fromkeys(resources.urls)]:
        wire, plain, encoding = transferred(client, url, Accept="text/html" if url == path else "*/*")
        wire_total, plain_total = wire_total + wire, plain_total + plain
        lines.append(f"{url.split('?')[0]:<40} {wire / 1000:7.1f} kB ({encoding}; {plain / 1000:.1f} kB decoded)")
    return Result(
        name="5. page weight: the vehicle page with a leaf open (HTML, CSS, JS; the picture not counted)",
        current=f"{wire_total / 1000:.1f} kB transferred ({plain_total / 1000:.1f} kB decoded), {path}",
        baseline=f"{PAGE_WEIGHT_MAX_BYTES / 1000:.0f} kB",
        ratio=f"{wire_total / PAGE_WEIGHT_MAX_BYTES:.2f} of the limit",
        target=f"< {PAGE_WEIGHT_MAX_BYTES / 1000:.0f} kB transferred, Accept-Encoding: {BROWSER_ENCODINGS}",
        passed=wire_total < PAGE_WEIGHT_MAX_BYTES,
        details=lines,
    )


def fit_answer(client: Client, app: Flask) -> Result:
    """PUT /api/vehicles/<golf>/fit/answers/<fact> with each of the question's answers in turn: every answer changes
    the last, so each one re-evaluates the dealer's fits of the whole vehicle. Baseline for reading: the GET of the
    vehicle's fit state (facts, answers, question) in the same turns."""
    with app.app_context():
        golf = db.session.scalar(sa.select(sa.func.min(Vehicle.id)))
        parts = db.session.scalar(sa.select(sa.func.count()).select_from(Part).where(Part.vehicle_id == golf))
        db.session.remove()
    state = f"/api/vehicles/{golf}/fit"
    question = client.get(state).json().get("question")
    if not question:
        raise BenchSetupError("the stored Golf has no fit question to answer")
    url = f"{client.served.url}{state}/answers/{question['fact']}"
    values = [option["value"] for option in question["options"]]
    answer_times, state_times = [], []
    for turn in range(FIT_ANSWERS):
        began = time.perf_counter()
        response = client.session.put(url, json={"value": values[turn % len(values)]}, headers=client.served.headers)
        answer_times.append(time.perf_counter() - began)
        if response.status_code != 200:
            raise RuntimeError(f"PUT {url}: {response.status_code} {response.text[:200]}")
        began = time.perf_counter()
        client.get(state)
        state_times.append(time.perf_counter() - began)
    worst = max(answer_times)
    return Result(
        name=f"6. a fit question answered: PUT {state}/answers/<fact> ({parts:,} parts evaluated again)",
        current=f"{'answer':<18} {latency(answer_times)}  max {worst * 1000:7.2f} ms",
        baseline=f"{'fit state GET':<18} {latency(state_times)}",
        ratio=f"max {worst:.2f} s",
        target=f"<= {FIT_ANSWER_MAX_SECONDS:.1f} s for every answer over HTTP",
        passed=worst <= FIT_ANSWER_MAX_SECONDS,
        details=[f"question {question['fact']!r}, answers {values}, {FIT_ANSWERS} turns"],
    )


def shelf_page(client: Client, samples: list[Sample], shelfless: FlaskClient) -> Result:
    """A drawing's page for the dealer with his 200,000-row list (its rows with stock, price and current number: one
    lookup per page, one more per step of its replacement chains) against the same page for a dealer without a
    list, each page sent once before by both (the fragment cache holds both main areas); the JSON detail of each
    is printed beside, for reading."""
    html = {"Accept": "text/html"}

    def without(path: str) -> None:
        response = shelfless.get(path, headers=html)
        if response.status_code != 200:
            raise RuntimeError(f"in-process GET {path} without a list: {response.status_code}")

    for sample in samples:
        client.call(sample.path, **html)
        without(sample.path)
    contenders = {
        "with the list": lambda sample: client.call(sample.path, **html),
        "without a list": lambda sample: without(sample.path),
        "JSON with": lambda sample: client.call(f"/api{sample.path}"),
        "JSON without": lambda sample: shelfless.get(f"/api{sample.path}"),
        "page over HTTP": lambda sample: client.get(sample.path, **html),
    }
    times = in_turns(samples, contenders, ROUNDS)
    name = "7. a drawing's page with the dealer's shelf list: GET /vehicles/<v>/categories/<c>"
    pair = ("with the list", "without a list")
    details = [f"{other:<18} {latency(values)}" for other, values in times.items() if other not in pair]
    current, baseline = ((label, times[label]) for label in pair)
    return within_ratio(name, current, baseline, SHELF_PAGE_MAX_RATIO, details)


def shelfless_client(app: Flask) -> FlaskClient:
    """The dealer without a list, signed in on an in-process client."""
    wsgi = app.test_client()
    response = wsgi.post(
        "/api/auth/sign-in/email",
        json={"email": SHELFLESS_EMAIL, "password": SHELFLESS_PASSWORD},
        headers={"Origin": "http://localhost"},
    )
    if response.status_code != 200:
        raise BenchSetupError(f"the dealer without a list could not sign in: {response.status_code}")
    return wsgi


# --- running ------------------------------------------------------------------------------------------------------


def build_fleet(app: Flask) -> None:
    began = time.perf_counter()
    store_golf(app)
    copy_fleet(app, VEHICLES - 1)
    with app.app_context():
        vehicles, parts = (
            db.session.scalar(sa.select(sa.func.count()).select_from(model)) for model in (Vehicle, Part)
        )
        db.session.remove()
    print(f"fleet: {vehicles} vehicles, {parts:,} parts, built in {time.perf_counter() - began:.0f} s")
    load_shelf(app)


def measure(app: Flask, served: Served, database_url: str, tally: LogTally) -> list[Result]:
    rng = random.Random(7)  # the same samples every run
    with app.app_context():
        recorder = SqlRecorder(db.engine)
    bare = BareSql(database_url)
    try:
        session = requests.Session()
        session.cookies.update(served.signed_in_cookies())
        wsgi = app.test_client()
        for cookie in session.cookies:
            wsgi.set_cookie(cookie.name, cookie.value or "")
        with app.app_context():
            user_id, shop_id = db.session.execute(sa.select(User.id, User.shop_id).where(User.email == EMAIL)).one()
            db.session.remove()
        client = Client(served, session, recorder, bare, wsgi, MinimalQueries(bare, user_id, shop_id))
        details, searches = detail_samples(app, rng), search_samples(app, rng)
        uses = where_used_samples(app, rng)
        drawings = shelf_samples(app, rng)
        client.record(details)
        client.record(searches)
        client.record(uses)
        tally.take()  # what the fleet's building logged belongs to none of the results
        return [
            *(printed(result, tally) for result in category_detail(client, details)),
            *(printed(result, tally) for result in vehicle_search(client, searches)),
            printed(page_html(client, details, app), tally),
            *(printed(result, tally) for result in where_used(client, uses)),
            printed(page_weight(client, app), tally),
            printed(fit_answer(client, app), tally),
            printed(shelf_page(client, drawings, shelfless_client(app)), tally),
        ]
    finally:
        bare.close()


def run(database_url: str, redis_url: str) -> list[Result]:
    if sa.make_url(database_url).get_backend_name() != "postgresql":
        raise BenchSetupError("the catalog benchmark runs on PostgreSQL: BENCH_DATABASE_URL must name one")
    with bench_app(database_url, redis_url, "bench-catalog") as (app, _upstreams, tally):
        build_fleet(app)  # after the tally is installed: the sandboxes' request lines are not printed
        served = Served.start(app, "bench-catalog")
        try:
            return measure(app, served, database_url, tally)
        finally:
            shut_down(served, app)


if __name__ == "__main__":
    sys.exit(run_benchmarks(run, DEFAULT_DATABASE_URL))
