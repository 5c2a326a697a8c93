"""Shelf fixtures: a signed-in dealer, generated lists (Turkish CSV and XLSX) and the import run by a real RQ worker."""

from __future__ import annotations

import csv
import io

import pytest
import sqlalchemy as sa
from rq import SimpleWorker

from app.accounts.models import User
from app.extensions import db, queues, redis_store
from app.shelf.models import ShelfActive, ShelfItem, ShelfNumber
from tests.conftest import SITE

HEADER = ["Stok Kodu", "OEM No", "Marka", "Ürün Adı", "Birim Fiyat", "Döviz", "Stok Miktarı", "Muadil", "Yerine"]
ROWS = [
    ["KD-1001", "1K0 129 620 D", "VW", "Hava filtresi", "1.250,50", "TL", "3", "C 27 009; F 026 400 007", ""],
    ["KD-1002", "06A-115-561.B", "VW", "Yağ filtresi", "245,00", "TL", "12", "W 719/30", "06A115561C"],
    ["KD-1003", "", "Febi", "Şanzıman yağı", "1,250.50", "EUR", "0", "", ""],
]


def csv_bytes(rows: list[list[str]], *, delimiter: str = ";", encoding: str = "cp1254", bom: bool = False) -> bytes:
    out = io.StringIO(newline="")
    csv.writer(out, delimiter=delimiter, lineterminator="\r\n").writerows(rows)
    return ("\ufeff" if bom else "").encode("utf-8") + out.getvalue().encode(encoding)


def xlsx_bytes(rows: list[list]) -> bytes:
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    for row in rows:
        sheet.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


BOUNDARY = "raf-sinir"
MULTIPART = f"multipart/form-data; boundary={BOUNDARY}"


def multipart(data: bytes, filename: str, field: str = "file", extra: dict[str, str] | None = None) -> bytes:
    """A multipart body built here (the test client would spool a large one to a file it never closes)."""
    parts = [
        f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode()
        for name, value in (extra or {}).items()
    ]
    head = f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="{field}"; filename="{filename}"\r\n'
    parts.append(head.encode() + b"Content-Type: application/octet-stream\r\n\r\n" + data + b"\r\n")
    return b"".join(parts) + f"--{BOUNDARY}--\r\n".encode()


def upload(client, data: bytes, filename: str = "liste.csv"):
    return client.post("/api/shelf/imports", data=multipart(data, filename), content_type=MULTIPART, headers=SITE)


def start(client, import_id: int, mapping: dict):
    return client.put(f"/api/shelf/imports/{import_id}/mapping", json=mapping, headers=SITE)


def run_worker() -> None:
    SimpleWorker([queues.get("default")], connection=redis_store.client).work(burst=True)


def import_list(client, data: bytes, filename: str = "liste.csv", mapping: dict | None = None) -> dict:
    """Upload, confirm the suggested mapping (or the one given), let the worker import; the import's final state."""
    preview = upload(client, data, filename)
    assert preview.status_code == 201, preview.get_json()
    body = preview.get_json()
    started = start(client, body["id"], mapping if mapping is not None else body["suggestedMapping"])
    assert started.status_code == 202, started.get_json()
    run_worker()
    return client.get(f"/api/shelf/imports/{body['id']}").get_json()


def items_of(import_id: int) -> list[ShelfItem]:
    db.session.expire_all()
    return list(
        db.session.scalars(sa.select(ShelfItem).where(ShelfItem.import_id == import_id).order_by(ShelfItem.line))
    )


def numbers_of(import_id: int) -> set[tuple[str, str]]:
    query = sa.select(ShelfNumber.kind, ShelfNumber.key).where(ShelfNumber.import_id == import_id)
    return {tuple(row) for row in db.session.execute(query)}


def active_id(user_id) -> int | None:
    """The list in use of the user's branch."""
    db.session.expire_all()
    active = db.session.get(ShelfActive, db.session.get(User, user_id).branch_id)
    return active.import_id if active else None


@pytest.fixture
def dealer(create_user, sign_in):
    user = create_user(name="Raf Oto", email="raf@example.com")
    sign_in(user.email)
    return user
