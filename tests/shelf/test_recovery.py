"""Imports whose job is gone: the minute sweep queues them again (once, never beside a live job), fails those
stranded for longer than any run could take, and leaves finished imports and the list in use as they are."""

from __future__ import annotations

from datetime import timedelta

import sqlalchemy as sa

from app.core.db import utcnow
from app.extensions import db, queues
from app.shelf import recovery, tasks
from app.shelf.imports import import_job_id
from app.shelf.models import ShelfImport, ShelfUpload
from tests.shelf.conftest import active_id, csv_bytes, import_list, items_of, run_worker, start, upload

OLD = [["OEM", "Fiyat", "Stok"], ["ESKI-1", "10", "1"]]
NEW = [["OEM", "Fiyat", "Stok"], *([f"YENI-{n}", "30", "3"] for n in range(4))]


def mapped(client, rows) -> int:
    preview = upload(client, csv_bytes(rows)).get_json()
    assert start(client, preview["id"], preview["suggestedMapping"]).status_code == 202
    return preview["id"]


def queued_jobs(import_id: int) -> list[str]:
    return [job_id for job_id in queues.get("default").job_ids if job_id == import_job_id(import_id)]


def lose_job(import_id: int) -> None:
    """What a Redis flush or restart without its data does to a queued import."""
    queues.get("default").fetch_job(import_job_id(import_id)).delete()
    assert queued_jobs(import_id) == []


def started_ago(import_id: int, ago: timedelta) -> None:
    db.session.execute(sa.update(ShelfImport).where(ShelfImport.id == import_id).values(started_at=utcnow() - ago))
    db.session.commit()


def status(client, import_id: int) -> dict:
    return client.get(f"/api/shelf/imports/{import_id}").get_json()


def test_an_import_whose_job_redis_lost_is_queued_again_and_imported(client, dealer):
    import_id = mapped(client, NEW)
    lose_job(import_id)
    started_ago(import_id, timedelta(minutes=3))

    assert recovery.sweep() == 1
    assert recovery.sweep() == 0  # queued now: a second sweep adds no second job
    assert queued_jobs(import_id) == [import_job_id(import_id)]
    run_worker()

    state = status(client, import_id)
    assert state["status"] == "done" and state["rowsImported"] == 4
    assert active_id(dealer.id) == import_id


def test_a_queued_job_is_left_alone_and_runs_once(client, dealer):
    import_id = mapped(client, NEW)
    started_ago(import_id, timedelta(minutes=10))  # waiting behind other work

    assert recovery.sweep() == 0
    assert queued_jobs(import_id) == [import_job_id(import_id)]
    run_worker()
    assert status(client, import_id)["status"] == "done"


def test_a_lost_job_just_committed_is_not_queued_within_the_grace(client, dealer):
    import_id = mapped(client, NEW)
    lose_job(import_id)

    assert recovery.sweep() == 0
    state = status(client, import_id)
    assert state.get("status") == "importing", state


def test_an_import_stranded_for_hours_fails_and_says_so_and_the_old_list_stays(client, dealer):
    old = import_list(client, csv_bytes(OLD))["id"]
    import_id = mapped(client, NEW)
    lose_job(import_id)
    started_ago(import_id, recovery.GIVE_UP_AFTER + timedelta(minutes=1))

    assert recovery.sweep() == 0

    state = status(client, import_id)
    assert state["status"] == "failed" and state["finishedAt"]
    assert state["message"] == "Liste zamanında aktarılamadı. Lütfen dosyayı yeniden yükleyin."
    assert db.session.get(ShelfUpload, import_id) is None  # the private file is not kept
    assert active_id(dealer.id) == old and [item.oem_code for item in items_of(old)] == ["ESKI-1"]
    run_worker()
    assert status(client, import_id)["status"] == "failed"  # nothing is left to run


def test_failing_an_import_that_another_run_finished_changes_nothing(client, dealer):
    done = import_list(client, csv_bytes(NEW))
    items = [item.id for item in items_of(done["id"])]

    assert tasks.fail_import(done["id"], "late") == "failed"

    state = status(client, done["id"])
    assert state["status"] == "done" and state["message"] is None
    assert [item.id for item in items_of(done["id"])] == items and active_id(dealer.id) == done["id"]
