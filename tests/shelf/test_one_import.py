"""One import at a time, the newest wins: a second file is refused (409, naming the running import) while one runs,
on the API and the page, and an older import finishing late never replaces the newer list in use."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from flask_babel import format_datetime

from app.extensions import db
from app.shelf import imports, tasks
from app.shelf.models import ShelfImport
from tests.conftest import csrf_token_from
from tests.shelf.conftest import MULTIPART, active_id, csv_bytes, items_of, multipart, run_worker, start, upload

OLDER = [["OEM", "Fiyat"], *([f"ESKI-{n}", "10"] for n in range(6))]
NEWER = [["OEM", "Fiyat"], ["YENI-1", "20"]]


def mapped(client, rows, filename: str = "liste.csv") -> int:
    preview = upload(client, csv_bytes(rows), filename).get_json()
    assert start(client, preview["id"], preview["suggestedMapping"]).status_code == 202
    return preview["id"]


def set_status(import_id: int, status: str) -> None:
    db.session.execute(sa.update(ShelfImport).where(ShelfImport.id == import_id).values(status=status))
    db.session.commit()


def test_a_second_upload_while_a_list_imports_is_refused_naming_the_running_one(app, client, dealer):
    running = mapped(client, OLDER, "ocak-stok.csv")
    started = db.session.get(ShelfImport, running).started_at

    refused = upload(client, csv_bytes(NEWER), "subat-stok.csv")
    token = csrf_token_from(client.get("/raf").get_data(as_text=True))
    on_page = client.post(
        "/raf/yukle", data=multipart(csv_bytes(NEWER), "subat.csv", extra={"csrf_token": token}), content_type=MULTIPART
    )

    assert refused.status_code == 409, refused.get_json()
    error = refused.get_json()["error"]
    with app.test_request_context():
        shown_start = format_datetime(started, "short")
    assert error["code"] == "import_running"
    assert error["message"] == (
        f"ocak-stok.csv listesi aktarılıyor (başlangıç: {shown_start}): yeni dosyayı aktarım bitince yükleyin."
    )
    assert on_page.status_code == 409 and "ocak-stok.csv listesi aktarılıyor" in on_page.get_data(as_text=True)
    assert [item["id"] for item in client.get("/api/shelf/imports").get_json()["items"]] == [running]

    run_worker()
    assert upload(client, csv_bytes(NEWER), "subat-stok.csv").status_code == 201  # finished: the next file is taken


def test_a_waiting_file_cannot_start_while_another_imports(client, dealer):
    waiting = upload(client, csv_bytes(OLDER), "bekleyen.csv").get_json()
    set_status(waiting["id"], "failed")  # out of the way, as if the dealer had uploaded it in another tab
    running = mapped(client, NEWER, "calisan.csv")
    set_status(waiting["id"], "uploaded")

    refused = start(client, waiting["id"], waiting["suggestedMapping"])

    assert refused.status_code == 409 and "calisan.csv listesi aktarılıyor" in refused.get_json()["error"]["message"]
    db.session.expire_all()
    assert db.session.get(ShelfImport, waiting["id"]).status == "uploaded"
    assert db.session.get(ShelfImport, running).status == "importing"


def test_the_database_holds_one_running_import_per_branch(client, dealer):
    running = mapped(client, OLDER)

    with pytest.raises(sa.exc.IntegrityError), db.session.begin_nested():
        db.session.add(
            ShelfImport(
                shop_id=dealer.shop_id,
                branch_id=dealer.branch_id,
                user_id=dealer.id,
                filename="ikinci.csv",
                file_kind="csv",
                status="importing",
            )
        )

    query = sa.select(ShelfImport.id).where(ShelfImport.status == "importing")
    assert db.session.scalars(query).all() == [running]


@pytest.mark.parametrize("left_as", ["failed", "importing"], ids=["failed-by-the-sweep", "still-importing"])
def test_an_older_import_finishing_after_a_newer_one_never_replaces_it(client, dealer, monkeypatch, left_as):
    """The older import's job is still writing (a run the sweep gave up on, or two runs from before the one-at-a-time
    rule) while the newer list is uploaded, imported and put in use: the older job finishes last and loses."""
    older = mapped(client, OLDER, "eski.csv")
    monkeypatch.setattr(tasks, "BATCH_ROWS", 2)
    record = tasks._record_progress
    newer: list[int] = []

    def newer_list_meanwhile(import_id, done, *args, **kwargs):
        record(import_id, done, *args, **kwargs)
        if import_id == older and not newer:
            tasks.fail_import(older, "given up")  # what the sweep does to an import stranded for hours
            newer.append(mapped(client, NEWER, "yeni.csv"))
            assert tasks.import_list(newer[0]) == "done"  # the newer job finishes first
            set_status(older, left_as)

    monkeypatch.setattr(tasks, "_record_progress", newer_list_meanwhile)

    outcome = tasks.import_list(older)

    assert outcome == ("skipped" if left_as == "failed" else "failed")
    assert active_id(dealer.id) == newer[0]
    assert [item.oem_code for item in items_of(newer[0])] == ["YENI-1"]
    assert items_of(older) == []
    state = client.get(f"/api/shelf/imports/{older}").get_json()
    assert state["status"] == "failed"
    if left_as == "importing":
        assert state["message"] == "Bu arada daha yeni bir liste kullanıma alındı: bu liste kullanılmadı."
    run_worker()  # the jobs still queued for both run again and change nothing
    assert active_id(dealer.id) == newer[0] and [item.oem_code for item in items_of(newer[0])] == ["YENI-1"]


def test_two_starts_racing_past_the_check_end_with_one_import_running(client, dealer, monkeypatch):
    """Both requests read "nothing running" before either committed: the index refuses the second, which answers the
    same 409 and leaves its file waiting."""
    waiting = upload(client, csv_bytes(OLDER), "bekleyen.csv").get_json()
    set_status(waiting["id"], "failed")
    running = mapped(client, NEWER, "calisan.csv")
    set_status(waiting["id"], "uploaded")
    monkeypatch.setattr(imports, "refuse_while_importing", lambda _shop_id, _branch_id: None)

    raced = start(client, waiting["id"], waiting["suggestedMapping"])

    assert raced.status_code == 409 and "calisan.csv listesi aktarılıyor" in raced.get_json()["error"]["message"]
    db.session.expire_all()
    assert db.session.get(ShelfImport, waiting["id"]).status == "uploaded"
    assert db.session.get(ShelfImport, running).status == "importing"
    assert client.get(f"/api/shelf/imports/{waiting['id']}").get_json()["status"] == "uploaded"
