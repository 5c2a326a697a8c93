"""Issue 40, item 7, through HTTP and the CLI: a part row stored before the fit rules in force (no answer computed, or
the earlier rule's yes for a row whose catalog states no applicability) reads as a maybe on the page, in the API and
in the CSV until the fit-recompute jobs reach it, and as its right answer after; the jobs run twice change nothing the
second time, go batch by batch with their progress on the admins' queue page, and are queued by the scheduler's sweep
and by `flask catalog refit`; the migration marks an old database's rows on SQLite and PostgreSQL."""

from __future__ import annotations

import csv
import io

import pytest
import sqlalchemy as sa
from flask_migrate import upgrade
from rq import SimpleWorker

import worker
from app.catalog.fit import recompute
from app.catalog.models import Category, Part
from app.extensions import db, queues, redis_store
from tests.catalog.test_fit_api import NOT_STATED_TEXT, colleague, get, leaves, statuses  # noqa: F401 - fixture
from tests.catalog.test_fit_pages import golf  # noqa: F401 - the fixture is used here
from tests.catalog.test_pages import main_area, page
from tests.conftest import PASSWORD, SITE
from tests.core.test_migrations import empty_database_url  # noqa: F401 - the fixture is used here
from tests.support.markup import elements

PENDING_TEXT = "Henüz kontrol edilmedi: bu satırın araca uyumu yeniden hesaplanıyor"
BEFORE_STALE_MARKS = "c4e1a7b93d05"  # the revision before the one that marks stale fits
YES_FIT = {"s": "yes", "r": [["matches", "model_code", "AU", "AU", False]]}  # a yes the rules computed
OLD_PART_COLUMNS = ("vehicle_id", "category_id", "oem_code", "name", "label", "sort_order", "search_code",
                    "search_name", "model_codes", "unavailable", "fit_status")  # fmt: skip


def a_leaf_with_every_answer(client, vehicle_id: int) -> dict:
    """The first drawing with rows that fit, rows that do not and maybes of both kinds, as the API gives it now."""
    for detail in leaves(client, vehicle_id, limit=20):
        found = set(statuses(detail).values())
        reasons = {part["fit"]["reasons"][0]["code"] for part in detail["parts"] if part["fit"]["status"] == "maybe"}
        if found == {"yes", "no", "maybe"} and {"not_stated", "unknown"} <= reasons:
            return detail
    raise AssertionError("no drawing of the sandbox Golf has every kind of answer")


def store_the_old_way(detail: dict) -> None:
    """The leaf's rows as an old database holds them: rows that state applicability with no answer computed (stored
    before the fit answer existed, or marked for recomputing), and the rows that state none with the earlier rule's
    yes (a JSON null applicability and answer); the leaf's counts cleared, as the migration leaves them."""
    leaf_id = detail["category"]["id"]
    not_stated = [part["id"] for part in detail["parts"] if part["fit"]["reasons"][0]["code"] == "not_stated"]
    db.session.execute(sa.update(Part).where(Part.category_id == leaf_id).values(fit_status=None, fit=sa.null()))
    db.session.execute(sa.update(Part).where(Part.id.in_(not_stated)).values(fit_status="yes", fit=None,
                                                                             applicability=None))  # fmt: skip
    db.session.execute(sa.update(Category).where(Category.id == leaf_id).values(fit_yes=None, fit_no=None,
                                                                                 fit_maybe=None))  # fmt: skip
    db.session.commit()


def run_jobs(max_jobs: int | None = None) -> None:
    SimpleWorker([queues.get(recompute.QUEUE)], connection=redis_store.client).work(burst=True, max_jobs=max_jobs)


def snapshot() -> list[tuple]:
    parts = db.session.execute(sa.select(Part.id, Part.fit_status, Part.fit).order_by(Part.id)).all()
    counts = db.session.execute(
        sa.select(Category.id, Category.fit_yes, Category.fit_no, Category.fit_maybe).order_by(Category.id)
    ).all()
    return [tuple(row) for row in (*parts, *counts)]


def csv_fit_cells(client, url: str) -> list[str]:
    response = client.get(f"{url}/parts.csv")
    _header, *rows = list(csv.reader(io.StringIO(response.data.decode("utf-8-sig"), newline=""), delimiter=";"))
    return [row[-1] for row in rows]


# --- a row stored the old way -----------------------------------------------------------------------------------


def test_a_row_stored_the_old_way_reads_maybe_until_the_job_gives_it_its_answer(client, golf):  # noqa: F811
    now = a_leaf_with_every_answer(client, golf)
    leaf_id = now["category"]["id"]
    api, url = f"/api/vehicles/{golf}/categories/{leaf_id}", f"/vehicles/{golf}/categories/{leaf_id}"
    store_the_old_way(now)

    before = get(client, api)
    main = main_area(page(client, url))
    cells = csv_fit_cells(client, url)

    assert set(statuses(before).values()) == {"maybe"}
    assert {reason["text"] for part in before["parts"] for reason in part["fit"]["reasons"]} == {PENDING_TEXT}
    assert before["category"]["fit"] == {"status": "maybe", "yes": 0, "no": 0, "maybe": len(before["parts"])}
    assert not elements(main, ".part-row.is-fit-yes") and not elements(main, ".part-row:not(.is-fit-maybe)")
    assert cells == [f"Belki: {PENDING_TEXT}"] * len(before["parts"])  # never "Uyar"
    assert get(client, f"{api}?fit=yes")["parts"] == []

    assert recompute.sweep() == "fit-recompute-1"  # the scheduler's sweep finds rows waiting
    run_jobs()

    after = get(client, api)
    assert statuses(after) == statuses(now)  # the right answers: yes, no and maybe as the rules give them
    assert [part["fit"] for part in after["parts"]] == [part["fit"] for part in now["parts"]]
    assert after["category"]["fit"] == now["category"]["fit"]
    for part in after["parts"]:
        if part["fit"]["reasons"][0]["code"] == "not_stated":  # the earlier rule's yes
            assert part["fit"]["status"] == "maybe" and part["fit"]["reasons"][0]["text"] == NOT_STATED_TEXT
    assert "Uyar" in csv_fit_cells(client, url)
    tree = get(client, f"/api/vehicles/{golf}/categories/{now['category']['parentId']}")
    assert next(child for child in tree["children"] if child["id"] == leaf_id)["fit"] == now["category"]["fit"]


def test_a_row_stored_before_the_fit_answer_existed_gets_the_no_its_stored_remark_gives(client, golf):  # noqa: F811
    """Rows stored before the fit answer existed hold no applicability, but their remark ("PR: 6JB", "from 02.2018")
    and model codes: the job gives back the "no" those rule out; every other row is "not known", never a yes."""
    details = leaves(client, golf, limit=20)
    before = {part["id"]: part["fit"] for detail in details for part in detail["parts"]}
    remarks = dict(db.session.execute(sa.select(Part.id, Part.remark).where(Part.id.in_(before))).all())
    ruled_out = {
        part_id
        for part_id, fit in before.items()
        if fit["status"] == "no" and remarks[part_id] and {reason["code"] for reason in fit["reasons"]} == {"differs"}
    }
    assert ruled_out  # the sandbox Golf has rows whose remark rules this car out
    leaf_ids = [detail["category"]["id"] for detail in details]
    db.session.execute(
        sa.update(Part).where(Part.category_id.in_(leaf_ids)).values(applicability=None, fit_status=None, fit=None)
    )
    db.session.commit()

    recompute.sweep()
    run_jobs()

    after = {
        part["id"]: part["fit"]
        for leaf_id in leaf_ids
        for part in get(client, f"/api/vehicles/{golf}/categories/{leaf_id}")["parts"]
    }
    said_no = {part_id for part_id, fit in after.items() if fit["status"] == "no"}
    assert ruled_out <= said_no <= {part_id for part_id, fit in before.items() if fit["status"] == "no"}
    for part_id in after.keys() - said_no:
        assert after[part_id]["status"] == "maybe" and after[part_id]["reasons"][0]["text"] == NOT_STATED_TEXT


def test_the_job_run_twice_changes_nothing_the_second_time(client, golf):  # noqa: F811
    now = a_leaf_with_every_answer(client, golf)
    leaf_id = now["category"]["id"]
    store_the_old_way(now)
    assert recompute.pending_count() > 0
    assert recompute.sweep() == "fit-recompute-1"
    run_jobs()
    once = snapshot()
    answers = get(client, f"/api/vehicles/{golf}/categories/{leaf_id}")

    again = queues.enqueue(recompute.QUEUE, recompute.recompute_step, 1, 0, 0, job_id="fit-recompute-again")
    run_jobs()

    assert again.latest_result().return_value == 0
    assert snapshot() == once
    assert get(client, f"/api/vehicles/{golf}/categories/{leaf_id}") == answers
    assert recompute.sweep() is None  # nothing waits: the sweep queues nothing


def test_a_dealers_answers_apply_to_the_rows_the_job_settles(client, golf):  # noqa: F811
    """A dealer who answered the drawing's question before the job ran sees his answer applied once it has."""
    now = a_leaf_with_every_answer(client, golf)
    question = now["fit"]["question"]
    leaf_api = f"/api/vehicles/{golf}/categories/{now['category']['id']}"
    put = f"/api/vehicles/{golf}/fit/answers/{question['fact']}"
    assert client.put(put, json={"value": question["options"][0]["value"]}, headers=SITE).status_code == 200
    answered = get(client, leaf_api)
    store_the_old_way(now)

    assert recompute.sweep()
    run_jobs()

    assert statuses(get(client, leaf_api)) == statuses(answered)


def test_a_starting_worker_and_the_schedule_queue_the_job_when_rows_wait(client, golf):  # noqa: F811
    assert "app.catalog.fit.recompute.sweep" in {entry.func for entry in worker.SCHEDULE}
    worker._queue_at_start_up()
    assert _fit_jobs() == []  # nothing waits: nothing queued
    store_the_old_way(a_leaf_with_every_answer(client, golf))

    worker._queue_at_start_up()
    worker._queue_at_start_up()  # a second worker starting: the same chain, not a second one

    assert _fit_jobs() == ["fit-recompute-1"]


def _fit_jobs() -> list[str]:
    """The recompute jobs queued (a starting worker queues others too: the day's currency rates)."""
    return [job_id for job_id in queues.get(recompute.QUEUE).job_ids if job_id.startswith(recompute.JOB_PREFIX)]


# --- progress, the sweep and the command --------------------------------------------------------------------------


@pytest.fixture
def admin_client(app, create_user):
    user = create_user(role="admin")
    client = app.test_client()
    signed = client.post("/api/auth/sign-in/email", json={"email": user.email, "password": PASSWORD}, headers=SITE)
    assert signed.status_code == 200
    return client


def progress_row(admin_client) -> tuple[str, str]:
    main = page(admin_client, "/admin/queues")
    [row] = elements(main, ".long-jobs tbody tr")
    assert "Kayıtlı parça satırlarının araca uyum yanıtları" in row.get_text()
    return row.select_one(".job-state").get_text(), row.select_one(".job-progress").get_text()


def test_the_queue_page_shows_the_jobs_progress_batch_by_batch(client, golf, admin_client, monkeypatch):  # noqa: F811
    store_the_old_way(a_leaf_with_every_answer(client, golf))
    total = recompute.pending_count()
    monkeypatch.setattr(recompute, "BATCH_SIZE", 2)
    monkeypatch.setattr(recompute, "BATCHES_PER_JOB", 1)
    assert not elements(page(admin_client, "/admin/queues"), ".long-jobs")  # no chain ran yet

    recompute.sweep()
    assert progress_row(admin_client) == ("Sırada", f"0 / {total}")
    run_jobs(max_jobs=1)
    assert progress_row(admin_client) == ("Sırada", f"2 / {total}")  # the next step waits, the first batch is done
    assert recompute.pending_count() == total - 2
    run_jobs(max_jobs=1)
    assert progress_row(admin_client) == ("Sırada", f"4 / {total}")

    run_jobs()  # the rest, and a worker killed between batches would resume from here

    assert progress_row(admin_client) == ("Bitti", f"{total} / {total}")
    assert recompute.pending_count() == 0


def test_the_command_computes_with_a_progress_bar_and_then_has_nothing_to_do(client, golf, runner):  # noqa: F811
    now = a_leaf_with_every_answer(client, golf)
    leaf_id = now["category"]["id"]
    expected = statuses(now)
    store_the_old_way(now)
    total = recompute.pending_count()

    first = runner.invoke(args=["catalog", "refit", "--inline"])
    second = runner.invoke(args=["catalog", "refit", "--inline"])

    assert first.exit_code == 0, first.output
    assert f"{total} stored part rows wait for their fit answer." in first.output
    assert "Computing fits" in first.output
    assert second.exit_code == 0 and second.output.strip() == "Every stored part row has its fit answer."
    assert statuses(get(client, f"/api/vehicles/{golf}/categories/{leaf_id}")) == expected


def test_the_command_queues_the_job_for_the_worker(client, golf, runner):  # noqa: F811
    store_the_old_way(a_leaf_with_every_answer(client, golf))

    queued = runner.invoke(args=["catalog", "refit", "--no-wait"])
    twice = runner.invoke(args=["catalog", "refit", "--no-wait"])

    assert queued.exit_code == 0 and "Queued fit-recompute-1 on the default queue." in queued.output
    assert "Queued fit-recompute-1 " in twice.output  # the chain already queued: not a second one
    assert queues.get(recompute.QUEUE).count == 1
    run_jobs()
    assert recompute.pending_count() == 0


# --- the migration ----------------------------------------------------------------------------------------------


@pytest.mark.no_isolation
def test_the_migration_marks_an_old_databases_rows_for_recomputing(make_app, empty_database_url):  # noqa: F811
    """On an empty database at the revision before: a row stored before fits, a row the earlier rule called a yes
    (no applicability) and a row with its answer; after the upgrade the first two wait for the job, the third keeps
    its answer, and their leaf's counts are cleared."""
    app = make_app(SQLALCHEMY_DATABASE_URI=empty_database_url)
    with app.app_context():
        upgrade(revision=BEFORE_STALE_MARKS)
        vehicle = db.session.execute(
            sa.text("INSERT INTO vehicle (vin, brand_name, model, source, raw_data, candidate_key, created_at) "
                    "VALUES ('', 'VW', 'Golf', 'catapi', '{}', 'k', CURRENT_TIMESTAMP) RETURNING id")
        ).scalar()  # fmt: skip
        leaf = db.session.execute(
            sa.text("INSERT INTO category (vehicle_id, source, external_id, name, unavailable, model_codes, presel, "
                    "is_leaf, sort_order, search_name, fit_yes, fit_no, fit_maybe) "
                    "VALUES (:vehicle, 'catapi', 'leaf', 'Filters', false, '[]', false, true, 0, 'filters', 3, 0, 0) "
                    "RETURNING id"),
            {"vehicle": vehicle},
        ).scalar()  # fmt: skip
        old_part = sa.table("part", *(sa.column(name) for name in OLD_PART_COLUMNS),
                            sa.column("fit", sa.JSON), sa.column("applicability", sa.JSON))  # fmt: skip
        rows = [
            {"oem_code": "A", "fit_status": None, "fit": sa.null(), "applicability": sa.null()},
            {"oem_code": "B", "fit_status": "yes", "fit": None, "applicability": None},
            {"oem_code": "C", "fit_status": "yes", "fit": YES_FIT, "applicability": {"f": "model_code", "in": ["AU"]}},
        ]
        for order, row in enumerate(rows):
            db.session.execute(
                sa.insert(old_part).values(
                    vehicle_id=vehicle,
                    category_id=leaf,
                    name="Filter",
                    label="Filter",
                    sort_order=order,
                    search_code=row["oem_code"],
                    search_name="filter",
                    model_codes="[]",
                    unavailable=False,
                    **row,
                )  # fmt: skip
            )
        db.session.commit()

        upgrade()

        marked = dict(db.session.execute(sa.select(Part.oem_code, Part.fit_status).order_by(Part.oem_code)).all())
        assert marked == {"A": None, "B": None, "C": "yes"}
        assert db.session.execute(sa.select(Category.fit_yes, Category.fit_maybe)).one() == (None, None)
        db.session.remove()
        db.engine.dispose()
