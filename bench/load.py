"""Load test of a whole shop (issue 32): many dealers at once against the app behind gunicorn, as in production.

Two runs, each on its own fresh data:
1. PostgreSQL (and Redis, with BENCH_REDIS_URL) behind gunicorn started as the Dockerfile starts it: DEALERS dealers.
2. The embedded default (a SQLite file and the embedded Redis-compatible store) behind gunicorn started as `make run`
   starts it: EMBEDDED_DEALERS dealers.
The data (the sandbox Golf stored with its tree, on PostgreSQL a few copies, the dealers with a Full plan) is prepared
in this process; the source sandboxes run here too. Gunicorn then serves the same database as a child process.

Each dealer signs in once, then repeats a visit: the Golf's VIN decoded (from the cache), a vehicle's tree, one of its
drawings, a search in it, where a part's code is used, and a category's page HTML, each after a think time. Before the
load, every page of the fleet is opened twice (the workers' bounded caches filled: warm_caches), then each step is sent
alone (one client, one request at a time) for its p50. Printed: the throughput, each step's
p50/p95 under load beside its p50 alone, errors (an answer >= 400 or no answer), and the gunicorn workers' resident
memory after the warm-up and after the last request. Run with `make bench-load` or `.venv/bin/python -m bench.load`.
"""

from __future__ import annotations

import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import requests
import sqlalchemy as sa
from flask import Flask

from app.catalog.models import Category, Part
from app.config import PROJECT_ROOT
from app.extensions import db
from app.launcher import child_commands
from app.sources.sandbox.catalog import VIN_GOLF
from bench.catalog import CODE_TYPINGS, SEARCH_WORDS, copy_fleet, store_golf
from bench.measure import Result, percentile
from bench.stack import (
    DECODE_PATH,
    PASSWORD,
    BenchSetupError,
    Served,
    bench_app,
    bench_config,
    embedded_store,
    printed,
    run_benchmarks,
)
from tests.support.dealers import commit_full_plan_dealer


def _knob(name: str, default: int) -> int:
    return int(os.environ.get(f"BENCH_LOAD_{name}", "").strip() or default)


DEFAULT_DATABASE_URL = "postgresql://postgres@127.0.0.1:5432/bench_load"
DEALERS = _knob("DEALERS", 50)
REQUESTS = _knob("REQUESTS", 10_000)  # across all dealers, the warm-up's included
EMBEDDED_DEALERS = _knob("EMBEDDED_DEALERS", 8)
EMBEDDED_REQUESTS = _knob("EMBEDDED_REQUESTS", 1_000)
WARMUP = 500  # requests, at most a quarter of the run's
WARM_PASSES = _knob("WARM_PASSES", 2)  # times every page is opened before the run (warm_caches)
THINK_MS = _knob("THINK_MS", 1_000)  # mean; each think drawn evenly from half to one and a half of it
SOLO_ROUNDS = _knob("SOLO_ROUNDS", 30)  # visits of one client alone, after one more that is not counted
VEHICLES = 5  # on PostgreSQL: the Golf and copies of it (bench.catalog.copy_fleet)
MAX_RATIO = 3.0
MAX_RSS_RATIO = 1.2
TIMEOUT_SECONDS = 30
READY_SECONDS = 60
STOP_SECONDS = 40  # gunicorn's graceful timeout is 30 s
SEED = 32

STEPS = {
    "decode": f"decode (cached)    POST {DECODE_PATH}",
    "tree": "tree               GET /api/vehicles/<v>/categories",
    "leaf": "a drawing          GET /api/vehicles/<v>/categories/<leaf>",
    "search": "search             GET /api/categories/search/<v>?q=",
    "where-used": "where-used         GET /api/parts/<oem>/where-used",
    "page": "page HTML          GET /vehicles/<v>/categories/<c>",
}


# --- what the dealers open ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Fleet:
    """The stored vehicles' categories (all, and the drawings among them) and OEM codes their parts carry."""

    categories: dict[int, list[int]]
    leaves: dict[int, list[int]]
    codes: list[str]


def fleet_of(app: Flask) -> Fleet:
    with app.app_context():
        rows = db.session.execute(sa.select(Category.vehicle_id, Category.id, Category.is_leaf).order_by(Category.id))
        categories: dict[int, list[int]] = {}
        leaves: dict[int, list[int]] = {}
        for vehicle, category, leaf in rows:
            categories.setdefault(vehicle, []).append(category)
            if leaf:
                leaves.setdefault(vehicle, []).append(category)
        codes = db.session.scalars(
            sa.select(Part.oem_code)
            .where(Part.vehicle_id == min(categories), Part.reference_code.is_(None), Part.search_code != "")
            .group_by(Part.oem_code)
            .order_by(Part.oem_code)
        ).all()
        db.session.remove()
    return Fleet(categories, leaves, list(codes))


@dataclass(frozen=True)
class Call:
    step: str
    method: str
    path: str
    body: dict | None = None
    accept: str = "application/json"


def visit(rng: random.Random, fleet: Fleet) -> list[Call]:
    """One dealer's visit: the Golf decoded from the cache, then a vehicle of the fleet opened."""
    vehicle = rng.choice(sorted(fleet.leaves))
    code = requests.utils.quote(rng.choice(CODE_TYPINGS)(rng.choice(fleet.codes)), safe="")
    query = requests.utils.quote(rng.choice(SEARCH_WORDS))
    page = f"/vehicles/{vehicle}/categories/{rng.choice(fleet.categories[vehicle])}"
    return [
        Call("decode", "POST", DECODE_PATH, {"vin": VIN_GOLF}),
        Call("tree", "GET", f"/api/vehicles/{vehicle}/categories"),
        Call("leaf", "GET", f"/api/vehicles/{vehicle}/categories/{rng.choice(fleet.leaves[vehicle])}"),
        Call("search", "GET", f"/api/categories/search/{vehicle}?q={query}"),
        Call("where-used", "GET", f"/api/parts/{code}/where-used"),
        Call("page", "GET", page, accept="text/html"),
    ]


@dataclass(frozen=True)
class Outcome:
    step: str
    seconds: float
    error: str  # empty when answered below 400


def sent(session: requests.Session, served: Served, call: Call) -> Outcome:
    headers = {**served.headers, "Accept": call.accept}
    began = time.perf_counter()
    try:
        response = session.request(
            call.method, served.url + call.path, json=call.body, headers=headers, timeout=TIMEOUT_SECONDS
        )
        error = f"HTTP {response.status_code} {call.step}" if response.status_code >= 400 else ""
    except requests.RequestException as exc:
        error = f"{type(exc).__name__} {call.step}: {str(exc)[-120:]}"
    return Outcome(call.step, time.perf_counter() - began, error)


# --- gunicorn -----------------------------------------------------------------------------------------------------


def production_command(host: str, port: int) -> list[str]:
    """The Dockerfile's CMD, run by this Python, bound to the given address."""
    line = next(line for line in (PROJECT_ROOT / "Dockerfile").read_text().splitlines() if line.startswith("CMD "))
    command = json.loads(line.removeprefix("CMD "))
    command[command.index("--bind") + 1] = f"{host}:{port}"
    return [sys.executable, "-m", *command]


def make_run_command(host: str, port: int) -> list[str]:
    """The web child of `make run` (app.launcher)."""
    return child_commands(host, str(port))["web"]


def server_environment(config: dict, url: str) -> dict[str, str]:
    """The bench's settings as the environment a gunicorn process reads them from (the engine options left out:
    gunicorn runs with the production pool)."""
    names = {"SQLALCHEMY_DATABASE_URI": "DATABASE_URL"}
    settings = {
        names.get(key, key): str(value).lower() if isinstance(value, bool) else str(value)
        for key, value in config.items()
        if not isinstance(value, dict)
    }
    environment = {key: value for key, value in os.environ.items() if not key.startswith("BENCH_")}
    return {**environment, **settings, "BASE_URL": url, "PRODUCTION": "false"}


class Gunicorn:
    """The app served by gunicorn in a child process on a free loopback port; its access log dropped, its stderr
    kept in a file and summed up by `problems`."""

    def __init__(self, command: Callable[[str, int], list[str]], config: dict, log: Path) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"
        self.argv = command("127.0.0.1", port)
        self.environment = server_environment(config, self.url)
        self.log = log
        self.process: subprocess.Popen | None = None

    def start(self) -> Gunicorn:
        """Start it and wait for an answer (any: /api/health says 503 without an RQ worker), stopping it on failure."""
        with self.log.open("wb") as stderr:
            self.process = subprocess.Popen(  # noqa: S603 - argv built here
                self.argv, cwd=PROJECT_ROOT, env=self.environment, stdout=subprocess.DEVNULL, stderr=stderr
            )
        deadline = time.monotonic() + READY_SECONDS
        while time.monotonic() < deadline and self.process.poll() is None:
            try:
                requests.get(f"{self.url}/api/health", timeout=READY_SECONDS)
                return self
            except requests.RequestException:
                time.sleep(0.2)
        self.stop()
        raise BenchSetupError(f"gunicorn did not answer within {READY_SECONDS} s: {self.log.read_text()[-2000:]}")

    def workers(self) -> dict[int, int]:
        """Each worker process's resident memory in kB, by pid."""
        pid = self.process.pid
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        return {int(child): _rss_kb(int(child)) for child in children}

    def cpu_seconds(self) -> float:
        """The CPU time (user and system) its workers have used so far."""
        return sum(_cpu_seconds(pid) for pid in self.workers())

    def problems(self) -> list[str]:
        """The server's warnings, errors and tracebacks, counted by kind (time stamps and pids left out)."""
        kinds: Counter[str] = Counter()
        for line in self.log.read_text(errors="replace").splitlines():
            if "Traceback" in line or any(level in line for level in ("WARNING", "ERROR", "CRITICAL")):
                kinds[line.split("] ")[-1].split(",", 1)[-1][:160]] += 1
        return [f"server log: {count} x {kind}" for kind, count in kinds.most_common(8)]

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=STOP_SECONDS)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def _rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime and stime, fields 14 and 15


def described(argv: list[str]) -> str:
    return " ".join(argv[argv.index("gunicorn") :]).replace("--access-logfile -", "").strip()


# --- the runs -----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Shop:
    name: str
    dealers: int
    requests: int
    command: Callable[[str, int], list[str]]
    rss_target: bool  # the memory target is the production run's; the other prints its memory for reading

    @property
    def warmup(self) -> int:
        return min(WARMUP, self.requests // 4)


@dataclass
class Load:
    """What the dealers saw: each request's outcome by its number, the workers' memory at the end of the warm-up and
    at each fifth of the rest (by request number), and how late the dealers' think times ended (a busy machine's
    sign, on the client's side)."""

    total: int
    warmup: int
    outcomes: list[tuple[int, Outcome]] = field(default_factory=list)
    issued: int = 0
    warm_at: float = 0.0
    ended_at: float = 0.0
    rss: dict[int, dict[int, int]] = field(default_factory=dict)
    late: list[float] = field(default_factory=list)
    idle_before_errors: list[float] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def claim(self) -> int | None:
        with self.lock:
            if self.issued >= self.total:
                return None
            self.issued += 1
            return self.issued - 1

    @property
    def checkpoints(self) -> set[int]:
        rest = self.total - self.warmup
        return {self.warmup + rest * fifth // 5 for fifth in range(5)}

    @property
    def warm_rss(self) -> dict[int, int]:
        return self.rss[self.warmup]

    def after_warmup(self) -> list[Outcome]:
        return [outcome for number, outcome in self.outcomes if number >= self.warmup]

    def errors(self) -> Counter[str]:
        return Counter(outcome.error for _number, outcome in self.outcomes if outcome.error)


def thought(rng: random.Random, load: Load) -> None:
    """Sleep a think time; note how late the sleep ended."""
    seconds = rng.uniform(0.5, 1.5) * THINK_MS / 1000
    began = time.perf_counter()
    time.sleep(seconds)
    load.late.append(time.perf_counter() - began - seconds)


def dealer(index: int, session: requests.Session, served: Served, fleet: Fleet, load: Load, server: Gunicorn) -> None:
    rng = random.Random(SEED + index)
    answered = time.perf_counter()
    while True:
        for call in visit(rng, fleet):
            thought(rng, load)
            number = load.claim()
            if number is None:
                return
            if number == load.warmup:
                load.warm_at = time.perf_counter()
            if number in load.checkpoints:
                load.rss[number] = server.workers()
            idle = time.perf_counter() - answered  # the connection's, since the last answer
            outcome = sent(session, served, call)
            answered = time.perf_counter()
            with load.lock:
                load.outcomes.append((number, outcome))
                load.idle_before_errors.extend([idle] if outcome.error else [])


def loaded(sessions: list[requests.Session], served: Served, fleet: Fleet, shop: Shop, server: Gunicorn) -> Load:
    load = Load(shop.requests, shop.warmup)
    threads = [
        threading.Thread(target=dealer, args=(index, session, served, fleet, load, server), name=f"dealer-{index}")
        for index, session in enumerate(sessions)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    load.ended_at = time.perf_counter()
    return load


def alone(session: requests.Session, served: Served, fleet: Fleet) -> tuple[dict[str, list[float]], Counter[str]]:
    """Each step's latencies with one client sending one request at a time (a first visit not counted)."""
    rng = random.Random(SEED - 1)
    times: dict[str, list[float]] = {step: [] for step in STEPS}
    errors: Counter[str] = Counter()
    for round_number in range(SOLO_ROUNDS + 1):
        for call in visit(rng, fleet):
            outcome = sent(session, served, call)
            errors.update([outcome.error] if outcome.error else [])
            if round_number:
                times[call.step].append(outcome.seconds)
    return times, errors


def signed_in(served: Served, emails: list[str]) -> tuple[list[requests.Session], list[float]]:
    sessions, seconds = [], []
    for email in emails:
        began = time.perf_counter()
        cookies = served.signed_in_cookies(email, PASSWORD)
        seconds.append(time.perf_counter() - began)
        sessions.extend(served.sessions(1, cookies))
    return sessions, seconds


# --- results ------------------------------------------------------------------------------------------------------


def ms(seconds: float) -> str:
    return f"{seconds * 1000:8.1f} ms"


def step_table(solo: dict[str, list[float]], load: Load) -> tuple[list[str], dict[str, float]]:
    """A line per step (alone p50, under load p50 and p95, their ratio) and each step's ratio."""
    under: dict[str, list[float]] = {step: [] for step in STEPS}
    for outcome in load.after_warmup():
        under[outcome.step].append(outcome.seconds)
    lines = [f"{'step':<58} {'alone p50':>11} {'load p50':>11} {'load p95':>11}  p95/alone p50"]
    ratios = {}
    for step, label in STEPS.items():
        solo_p50, p50, p95 = percentile(solo[step], 50), percentile(under[step], 50), percentile(under[step], 95)
        ratios[step] = p95 / solo_p50
        lines.append(f"{label:<58} {ms(solo_p50)} {ms(p50)} {ms(p95)}  {ratios[step]:5.2f} ({len(under[step])})")
    return lines, ratios


def load_result(shop: Shop, where: str, solo: dict[str, list[float]], load: Load, details: list[str]) -> Result:
    lines, ratios = step_table(solo, load)
    worst = max(ratios, key=ratios.get)
    counted = load.after_warmup()
    rate = len(counted) / (load.ended_at - load.warm_at)
    errors = load.errors()
    return Result(
        name=f"load, {shop.name}: {shop.dealers} dealers, {shop.requests:,} requests ({where})",
        current=f"{rate:.1f} req/s over the {len(counted):,} requests after the warm-up ({load.warmup}); "
        f"{sum(errors.values())} errors",
        baseline=f"each step alone, one request at a time ({SOLO_ROUNDS} each)",
        ratio=f"worst p95 / alone p50 {ratios[worst]:.2f} ({worst})",
        target=f"each step's p95 / its p50 alone <= {MAX_RATIO:.1f}, 0 errors",
        passed=ratios[worst] <= MAX_RATIO and not errors,
        details=[*lines, *(f"error: {count} x {kind}" for kind, count in errors.most_common()), *details],
    )


def mb(workers: dict[int, int]) -> str:
    return f"{sum(workers.values()) / 1024:.0f} MB"


def rss_line(workers: dict[int, int]) -> str:
    each = ", ".join(f"{kb / 1024:.0f}" for kb in workers.values())
    return f"{sum(workers.values()) / 1024:.0f} MB in {len(workers)} workers ({each} MB)"


def rss_result(shop: Shop, load: Load, after: dict[int, int]) -> Result:
    ratio = sum(after.values()) / sum(load.warm_rss.values())
    same = after.keys() == load.warm_rss.keys()
    return Result(
        name=f"web RSS, {shop.name}: the gunicorn workers' resident memory after {shop.requests:,} requests",
        current=f"after {shop.requests:,} requests: {rss_line(after)}",
        baseline=f"after the warm-up ({load.warmup}): {rss_line(load.warm_rss)}",
        ratio=f"{ratio:.2f}",
        target=f"<= {MAX_RSS_RATIO:.1f}, the same worker processes throughout",
        passed=ratio <= MAX_RSS_RATIO and same,
        details=[] if same else [f"workers changed: {sorted(load.warm_rss)} -> {sorted(after)}"],
    )


# --- running ------------------------------------------------------------------------------------------------------


def prepared(app: Flask, shop: Shop, postgres: bool) -> tuple[Fleet, list[str]]:
    """The Golf stored (with copies on PostgreSQL) and the shop's dealers, each with a Full plan."""
    began = time.perf_counter()
    store_golf(app)
    if postgres:
        copy_fleet(app, VEHICLES - 1)
    emails = [f"load-{index}@example.com" for index in range(shop.dealers)]
    with app.app_context():
        for index, email in enumerate(emails):
            commit_full_plan_dealer(email, f"Yük Bayi {index}", PASSWORD)
        db.session.remove()
    fleet = fleet_of(app)
    with app.app_context():
        db.engine.dispose()  # gunicorn's workers serve the database from here on
    parts = f"{len(fleet.categories)} vehicles, {sum(map(len, fleet.leaves.values()))} drawings"
    print(f"prepared in {time.perf_counter() - began:.0f} s: {parts}, {len(emails)} dealers")
    return fleet, emails


def warm_caches(sessions: list[requests.Session], served: Served, fleet: Fleet) -> tuple[float, int]:
    """Every page of the fleet opened WARM_PASSES times, the dealers' sessions sending them side by side, so that each
    worker's bounded caches (the fragment cache above all: a drawing's kept table is some 200 kB) are full before the
    warm-up's memory is read: the memory target then tells a leak from a cache filling to its bound. Seconds taken
    and errors."""
    pages = [
        f"/vehicles/{vehicle}/categories/{category}"
        for vehicle in fleet.categories
        for category in fleet.categories[vehicle]
    ]
    calls = [Call("page", "GET", path, accept="text/html") for path in pages * WARM_PASSES]
    random.Random(SEED + 1).shuffle(calls)
    began, errors, lock = time.perf_counter(), [0], threading.Lock()

    def send(index: int) -> None:
        for call in calls[index :: len(sessions)]:
            if sent(sessions[index], served, call).error:
                with lock:
                    errors[0] += 1

    threads = [threading.Thread(target=send, args=(index,), name=f"warm-{index}") for index in range(len(sessions))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return time.perf_counter() - began, errors[0]


def measured(shop: Shop, served: Served, server: Gunicorn, fleet: Fleet, emails: list[str]) -> list[Result]:
    sessions, sign_ins = signed_in(served, emails)
    warm_seconds, warm_errors = warm_caches(sessions, served, fleet)
    solo, solo_errors = alone(sessions[0], served, fleet)
    began, cpu, client_cpu = time.perf_counter(), server.cpu_seconds(), sum(os.times()[:2])
    load = loaded(sessions, served, fleet, shop, server)
    seconds, after = time.perf_counter() - began, server.workers()
    cpu, client_cpu = server.cpu_seconds() - cpu, sum(os.times()[:2]) - client_cpu
    idle = ", ".join(f"{value:.2f}" for value in load.idle_before_errors)
    details = [
        f"sign-in once per dealer: p50 {percentile(sign_ins, 50) * 1000:.0f} ms, max {max(sign_ins) * 1000:.0f} ms",
        f"caches warmed first: every page of the fleet opened {WARM_PASSES} times in {warm_seconds:.0f} s "
        f"({warm_errors} errors)",
        f"think time {THINK_MS / 2000:.2f}-{THINK_MS * 1.5 / 1000:.2f} s before each request; load ran {seconds:.0f} s",
        *(f"error alone: {count} x {kind}" for kind, count in solo_errors.items()),
        f"client: think times ended late by p50 {percentile(load.late, 50) * 1000:.1f} ms, "
        f"p95 {percentile(load.late, 95) * 1000:.1f} ms, max {max(load.late) * 1000:.0f} ms",
        f"CPU during the load: web workers {cpu / seconds:.2f} CPUs ({cpu / len(load.outcomes) * 1000:.1f} ms a "
        f"request), this process (dealers, sandboxes) {client_cpu / seconds:.2f}; machine's load average "
        + " ".join(f"{value:.1f}" for value in os.getloadavg()),
        *([f"each failed request's connection had been idle {idle} s (gunicorn's keepalive: 2 s)"] if idle else []),
        "web RSS by request: "
        + ", ".join(f"{number:,}: {mb(rss)}" for number, rss in sorted(load.rss.items()))
        + f", {shop.requests:,}: {mb(after)}",
        *server.problems(),
    ]
    result = load_result(shop, described(server.argv), solo, load, details)
    result.passed = result.passed and not solo_errors and not warm_errors
    return [result, rss_result(shop, load, after)] if shop.rss_target else [result]


def run_shop(shop: Shop, database_url: str, redis_url: str) -> list[Result]:
    postgres = sa.make_url(database_url).get_backend_name() == "postgresql"
    with bench_app(database_url, redis_url, "bench-load") as (app, upstreams, tally):
        fleet, emails = prepared(app, shop, postgres)
        tally.take()  # what storing the Golf logged belongs to no result
        config = {
            **bench_config(database_url, app.config["REDIS_URL"], upstreams),
            "STORAGE_DIR": app.config["STORAGE_DIR"],
        }
        with tempfile.TemporaryDirectory(prefix="bench-load-log-") as logs:
            server = Gunicorn(shop.command, config, Path(logs) / "gunicorn.log")
            try:
                server.start()
                return [printed(result, tally) for result in measured(shop, Served(server), server, fleet, emails)]
            finally:
                server.stop()


@contextmanager
def embedded_default() -> Iterator[tuple[str, str]]:
    """A temporary SQLite file and an embedded Redis-compatible store of its own, in a child process (as `make run`
    keeps one apart from its web workers)."""
    with embedded_store() as store_url, tempfile.TemporaryDirectory(prefix="bench-load-") as directory:
        print(f"\ndatabase: SQLite file in {directory} (temporary)\nredis:    embedded store at {store_url}")
        yield f"sqlite:///{directory}/bench.sqlite3", store_url


PRODUCTION = Shop("PostgreSQL behind gunicorn as in production", DEALERS, REQUESTS, production_command, True)
EMBEDDED = Shop("the embedded default as `make run` serves it", EMBEDDED_DEALERS, EMBEDDED_REQUESTS,
                make_run_command, False)  # fmt: skip


def run(database_url: str, redis_url: str) -> list[Result]:
    if sa.make_url(database_url).get_backend_name() != "postgresql":
        raise BenchSetupError("the load test's first run is on PostgreSQL: BENCH_DATABASE_URL must name one")
    results = run_shop(PRODUCTION, database_url, redis_url)
    with embedded_default() as (sqlite_url, store_url):
        results += run_shop(EMBEDDED, sqlite_url, store_url)
    return results


if __name__ == "__main__":
    sys.exit(run_benchmarks(run, DEFAULT_DATABASE_URL))
