"""Importing a dealer's list: a generated 200,000-row Turkish CSV (Windows-1254, `;`, decimal comma, thousands dot,
three aftermarket numbers in one cell, some "replaced by" numbers) uploaded and mapped through the shelf's services,
then imported by the RQ job run by a real worker, on PostgreSQL and then on SQLite. Target (issue 31): 200,000 rows
in <= 60 s on PostgreSQL (SQLite is printed beside it, without a target). The same rows as an XLSX workbook (shared
strings, as Excel writes it; read by python-calamine) on PostgreSQL: upload, preview and job in <= 60 s (issue 40),
with the peak memory the run added to this process.

`make bench-shelf` or `.venv/bin/python -m bench.shelf [rows]`; PostgreSQL as bench/catalog.py: without
BENCH_DATABASE_URL the run creates `bench_shelf` on 127.0.0.1:5432 (refused if it exists) and drops it at the end.
"""

from __future__ import annotations

import csv
import io
import logging
import random
import resource
import sys
import tempfile
import time

import sqlalchemy as sa
from flask_migrate import upgrade
from rq import SimpleWorker

from app import create_app
from app.accounts.services import create_user
from app.extensions import db, queues, redis_store
from app.shelf import imports
from app.shelf.models import ShelfImport, ShelfNumber
from bench.measure import Result
from bench.stack import PASSWORD, run_benchmarks

ROWS = 200_000
TARGET_SECONDS = 60.0
DEFAULT_DATABASE_URL = "postgresql://postgres@127.0.0.1:5432/bench_shelf"
HEADER = ["Stok Kodu", "OEM No", "Marka", "Ürün Adı", "Birim Fiyat", "Döviz", "Stok Miktarı", "Muadil", "Yerine"]
BRANDS = ["BOSCH", "MANN", "FEBI", "SACHS", "VALEO", "MAHLE", "LEMFÖRDER", "TRW"]
NAMES = ["Yağ filtresi", "Hava filtresi", "Polen filtresi", "Fren balatası", "Şanzıman yağı", "Amortisör", "Çamurluk"]


def generated_list(rows: int, seed: int = 31) -> bytes:
    """A stock program's export as Turkish Excel writes CSV."""
    rng = random.Random(seed)
    out = io.StringIO(newline="")
    writer = csv.writer(out, delimiter=";", lineterminator="\r\n")
    writer.writerow(HEADER)
    for n in range(rows):
        oem = f"{rng.randrange(1, 99):02d}{rng.choice('ABCDEK')} {rng.randrange(100, 999)} {rng.randrange(100, 999)}"
        price = f"{rng.randrange(5, 25_000):,}".replace(",", ".") + f",{rng.randrange(100):02d}"
        aftermarket = "; ".join(f"{rng.choice(BRANDS)[:1]}{rng.randrange(10**6, 10**7)}" for _ in range(3))
        writer.writerow(
            [
                f"KD-{n:06d}",
                oem,
                rng.choice(BRANDS),
                rng.choice(NAMES),
                price,
                "TL",
                str(rng.randrange(0, 40)),
                aftermarket,
                f"{oem}X" if n % 10 == 0 else "",
            ]
        )
    return out.getvalue().encode("cp1254")


def generated_workbook(rows: int) -> bytes:
    """The same list as an Excel workbook (openpyxl writes it, with a shared strings table as Excel does)."""
    from openpyxl import Workbook

    book = Workbook(write_only=True)
    sheet = book.create_sheet()
    text = generated_list(rows).decode("cp1254")
    for row in csv.reader(io.StringIO(text, newline=""), delimiter=";"):
        sheet.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def timed_import(
    database_url: str, redis_url: str, data: bytes, label: str, filename: str = "stok.csv"
) -> tuple[float, float, dict]:
    """Upload and map the list through the services, then let a worker run the job: (upload s, job s, the import)."""
    app = create_app(
        {"SECRET_KEY": "bench", "SQLALCHEMY_DATABASE_URI": database_url, "REDIS_URL": redis_url, "LOG_LEVEL": "WARNING"}
    )
    with app.app_context():
        logging.disable(logging.INFO)
        try:
            upgrade()
        finally:
            logging.disable(logging.NOTSET)
        user = create_user(email=f"raf-{label}@example.com", name="Raf", password=PASSWORD, role="user")
        db.session.commit()
        started = time.perf_counter()
        record, _preview = imports.upload(user, filename, data, user.branch_id)
        imports.start(user, record, _preview.guessed)
        db.session.commit()
        uploaded = time.perf_counter() - started
        import_id = record.id
        started = time.perf_counter()
        SimpleWorker([queues.get("default")], connection=redis_store.client).work(burst=True)
        job = time.perf_counter() - started
        db.session.expire_all()
        state = imports.status_of(db.session.get(ShelfImport, import_id))
        state["numbers"] = db.session.scalar(sa.select(sa.func.count()).where(ShelfNumber.import_id == import_id))
        db.session.remove()
        db.engine.dispose()
    return uploaded, job, state


def result(name: str, rows: int, uploaded: float, job: float, state: dict, target: float | None) -> Result:
    passed = state["status"] == "done" and state["rowsImported"] == rows and (target is None or job <= target)
    return Result(
        name=name,
        current=f"job {job:.1f} s = {rows / job:,.0f} rows/s; upload and preview {uploaded:.1f} s",
        baseline="-",
        ratio="-",
        target=f"<= {target:.0f} s for {rows:,} rows" if target else "none (printed beside PostgreSQL)",
        passed=passed,
        details=[
            f"status {state['status']}, rows imported {state['rowsImported']:,}, failed {state['rowsFailed']:,}, "
            f"numbers {state['numbers']:,}"
        ],
    )


def xlsx_result(rows: int, uploaded: float, job: float, state: dict, grown_mb: float, target: float) -> Result:
    """The XLSX run: its target is the whole of it, upload and preview included."""
    found = result("XLSX import on PostgreSQL", rows, uploaded, job, state, None)
    total = uploaded + job
    found.current = f"{total:.1f} s in all (upload and preview {uploaded:.1f} s, job {job:.1f} s)"
    found.target = f"<= {target:.0f} s for {rows:,} rows, upload to done"
    found.passed = found.passed and total <= target
    found.details.append(f"peak memory of this process grew by {grown_mb:.0f} MB over the XLSX run")
    return found


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main(rows: int = ROWS) -> int:
    data = generated_list(rows)
    print(f"list: {rows:,} rows, {len(data) / 1e6:.1f} MB (Windows-1254, ';', decimal comma)")
    workbook = generated_workbook(rows)
    print(f"workbook: the same rows as XLSX, {len(workbook) / 1e6:.1f} MB")

    def run(database_url: str, redis_url: str) -> list[Result]:
        target = TARGET_SECONDS * rows / ROWS
        found = [result("import on PostgreSQL", rows, *timed_import(database_url, redis_url, data, "pg"), target)]
        found[-1].print()
        before = peak_mb()
        timed = timed_import(database_url, redis_url, workbook, "xlsx", "stok.xlsx")
        found.append(xlsx_result(rows, *timed, peak_mb() - before, target))
        found[-1].print()
        with tempfile.TemporaryDirectory(prefix="bench-shelf-") as directory:
            sqlite = timed_import(f"sqlite:///{directory}/bench.sqlite3", redis_url, data, "sqlite")
        found.append(result("import on SQLite", rows, *sqlite, None))
        found[-1].print()
        return found

    return run_benchmarks(run, DEFAULT_DATABASE_URL)


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else ROWS))
