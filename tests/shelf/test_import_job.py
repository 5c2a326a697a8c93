"""The import job through a real RQ worker: idempotent, restartable after a crash, atomic replacement of the list in
use, the row limit, and an unexpected error that leaves the old list in use."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from app.extensions import db
from app.shelf import tasks
from app.shelf.models import ShelfImport, ShelfItem, ShelfNumber, ShelfUpload
from tests.shelf.conftest import (
    active_id,
    csv_bytes,
    import_list,
    items_of,
    numbers_of,
    run_worker,
    start,
    upload,
)

OLD = [["OEM", "Fiyat", "Stok"], ["ESKI-1", "10", "1"], ["ESKI-2", "20", "2"]]
NEW = [["OEM", "Fiyat", "Stok"], *([f"YENI-{n}", "30", "3"] for n in range(7))]


def uploaded_and_mapped(client, rows) -> int:
    preview = upload(client, csv_bytes(rows)).get_json()
    assert start(client, preview["id"], preview["suggestedMapping"]).status_code == 202
    return preview["id"]


def test_a_second_run_of_a_finished_import_does_nothing(client, dealer):
    done = import_list(client, csv_bytes(OLD))
    items = [item.id for item in items_of(done["id"])]

    assert tasks.import_list(done["id"]) == "skipped"

    assert [item.id for item in items_of(done["id"])] == items and active_id(dealer.id) == done["id"]


def test_a_run_after_a_crash_deletes_what_the_crashed_run_wrote_and_starts_over(client, dealer):
    import_id = uploaded_and_mapped(client, NEW)
    # What a worker killed halfway leaves: some rows, progress, status still importing.
    crashed = db.session.get(ShelfImport, import_id)
    db.session.add(ShelfItem(import_id=import_id, line=2, oem_code="YENI-0", currency="TRY"))
    db.session.flush()
    db.session.add(ShelfNumber(item_id=crashed_item(import_id), kind="oem", key="yeni0", import_id=import_id))
    crashed.rows_done = 1
    db.session.commit()

    run_worker()

    state = client.get(f"/api/shelf/imports/{import_id}").get_json()
    assert state["status"] == "done" and state["rowsImported"] == 7
    assert [item.oem_code for item in items_of(import_id)] == [f"YENI-{n}" for n in range(7)]
    assert len(numbers_of(import_id)) == 7


def crashed_item(import_id: int) -> int:
    return db.session.scalar(sa.select(ShelfItem.id).where(ShelfItem.import_id == import_id))


def test_a_new_list_replaces_the_old_one_only_once_it_is_complete(client, dealer, monkeypatch):
    old = import_list(client, csv_bytes(OLD))["id"]
    new = uploaded_and_mapped(client, NEW)
    monkeypatch.setattr(tasks, "BATCH_ROWS", 2)
    seen_during = []
    record = tasks._record_progress

    def watch(import_id, done, *args, **kwargs):
        record(import_id, done, *args, **kwargs)
        seen_during.append((done, active_id(dealer.id), len(items_of(old)), len(items_of(new))))

    monkeypatch.setattr(tasks, "_record_progress", watch)

    run_worker()

    # While the new rows were written batch by batch, the old list was the one in use, whole.
    assert seen_during[:3] == [(2, old, 2, 2), (4, old, 2, 4), (6, old, 2, 6)]
    assert active_id(dealer.id) == new and len(items_of(new)) == 7
    assert items_of(old) == [] and numbers_of(old) == set()
    assert db.session.get(ShelfUpload, new) is None
    assert client.get(f"/api/shelf/imports/{old}").get_json()["status"] == "done"


def test_an_unexpected_error_fails_the_import_and_keeps_the_old_list(client, dealer, monkeypatch):
    old = import_list(client, csv_bytes(OLD))["id"]
    new = uploaded_and_mapped(client, NEW)
    monkeypatch.setattr(tasks, "BATCH_ROWS", 2)
    inserted = tasks._insert
    calls = iter(range(100))

    def crash_on_third(import_id, batch, **store):
        if next(calls) == 2:
            raise RuntimeError("disk full")
        return inserted(import_id, batch, **store)

    monkeypatch.setattr(tasks, "_insert", crash_on_third)

    run_worker()

    state = client.get(f"/api/shelf/imports/{new}").get_json()
    assert state["status"] == "failed" and "hata" in state["message"]
    assert active_id(dealer.id) == old and len(items_of(old)) == 2
    assert items_of(new) == [] and numbers_of(new) == set()
    assert db.session.get(ShelfUpload, new) is None


def test_a_list_over_the_row_limit_fails_whole(client, dealer, monkeypatch):
    monkeypatch.setattr(tasks, "MAX_ROWS", 5)
    monkeypatch.setattr(tasks, "BATCH_ROWS", 2)

    done = import_list(client, csv_bytes(NEW))

    assert done["status"] == "failed" and "5 satırdan fazlası" in done["message"]
    assert items_of(done["id"]) == [] and active_id(dealer.id) is None


@pytest.mark.parametrize("status", ["uploaded", "failed"])
def test_an_import_not_mapped_or_failed_is_not_run(client, dealer, status):
    preview = upload(client, csv_bytes(OLD)).get_json()
    db.session.get(ShelfImport, preview["id"]).status = status
    db.session.commit()

    assert tasks.import_list(preview["id"]) == "skipped"
    assert items_of(preview["id"]) == []
