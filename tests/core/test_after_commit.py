"""Work after the commit (app.core.after_commit) and the request's one commit (app.core.db.commit_per_request).

A callback runs once when the session's transaction commits, never when it rolls back; a savepoint released runs
nothing yet, one rolled back drops only what was registered inside it. A job queued after the commit keeps its id, and
Redis away at that moment costs the job, never the commit. A request whose answer carries an error keeps nothing it
wrote, however the view answered."""

from __future__ import annotations

import logging

import pytest
import sqlalchemy as sa
from flask import Blueprint, flash, redirect

from app.core.after_commit import after_commit, enqueue_after_commit
from app.core.db import mark_refusal, writes_data
from app.core.errors import ApiError
from app.core.jobs import InvalidJobIdError
from app.core.security import public
from app.extensions import db, limiter, queues
from app.translation.models import TranslationTerm
from tests.support.redis_server import redis_server  # noqa: F401 - fixture used here


def add_term(english: str) -> None:
    db.session.add(TranslationTerm(english=english, turkish="deneme"))
    db.session.flush()


def terms() -> set[str]:
    return set(db.session.scalars(sa.select(TranslationTerm.english)))


def test_a_callback_runs_once_when_the_transaction_commits(app):
    ran = []
    with app.app_context():
        add_term("filter")
        after_commit(lambda: ran.append("committed"))
        assert ran == []
        db.session.commit()
        db.session.commit()

    assert ran == ["committed"]


def test_a_callback_of_a_rolled_back_transaction_never_runs(app):
    ran = []
    with app.app_context():
        add_term("filter")
        after_commit(lambda: ran.append("rolled back"))
        db.session.rollback()
        add_term("hose")
        db.session.commit()

        assert terms() == {"hose"}
    assert ran == []


def test_a_savepoint_runs_nothing_itself_and_its_rollback_drops_only_its_own_callbacks(app):
    ran = []
    with app.app_context():
        after_commit(lambda: ran.append("outer"))
        with db.session.begin_nested():
            after_commit(lambda: ran.append("released"))
        assert ran == []  # a savepoint released is not the commit
        with pytest.raises(ApiError), db.session.begin_nested():
            after_commit(lambda: ran.append("inside the rolled back savepoint"))
            with db.session.begin_nested():
                after_commit(lambda: ran.append("released inside the rolled back savepoint"))
            raise ApiError("refused", "Reddedildi.")
        db.session.commit()

    assert ran == ["outer", "released"]


def test_a_failing_callback_is_logged_and_neither_the_commit_nor_the_others_are_lost(app, caplog):
    ran = []

    def broken() -> None:
        raise RuntimeError("the outside service is away")

    with app.app_context():
        add_term("filter")
        after_commit(broken)
        after_commit(lambda: ran.append("next"))
        db.session.commit()

        assert terms() == {"filter"}
    assert ran == ["next"]
    assert "after-commit callback" in caplog.text and "the outside service is away" in caplog.text


def test_a_job_is_queued_with_its_id_only_once_the_transaction_commits(app):
    with app.app_context():
        add_term("filter")
        enqueue_after_commit("translation", "app.catalog.name_translation.retranslate_all", job_id="tr-all-test")
        assert queues.get("translation").job_ids == []
        db.session.commit()

        job = queues.get("translation").fetch_job("tr-all-test")
        assert job.func_name == "app.catalog.name_translation.retranslate_all"
        assert queues.get("translation").job_ids == ["tr-all-test"]

        enqueue_after_commit("translation", "app.catalog.name_translation.retranslate_all", job_id="tr-all-dropped")
        db.session.rollback()
        assert queues.get("translation").job_ids == ["tr-all-test"]


def test_a_bad_job_id_or_queue_is_refused_in_the_caller_s_transaction(app):
    with app.app_context():
        with pytest.raises(InvalidJobIdError):
            enqueue_after_commit("translation", "app.catalog.name_translation.retranslate_all", job_id="tr:all")
        with pytest.raises(KeyError):
            enqueue_after_commit("nowhere", "app.catalog.name_translation.retranslate_all", job_id="tr-all-x")


@pytest.fixture
def own_redis_app(make_app, redis_server):  # noqa: F811
    """An app on the test's own redis-server (the limiter, shared by every app of the process, put back after)."""
    saved = dict(vars(limiter))
    yield make_app(REDIS_URL=redis_server.url, REDIS_SOCKET_TIMEOUT=0.5)
    vars(limiter).clear()
    vars(limiter).update(saved)


def test_redis_away_at_commit_time_costs_the_job_not_the_commit(own_redis_app, redis_server, caplog):  # noqa: F811
    caplog.set_level(logging.WARNING, logger="app.core.after_commit")
    with own_redis_app.app_context():
        add_term("filter")
        enqueue_after_commit("translation", "app.catalog.name_translation.retranslate_all", job_id="tr-all-lost")
        redis_server.stop()
        db.session.commit()

        assert terms() == {"filter"}
    assert "tr-all-lost" in caplog.text and "not queued" in caplog.text


# --- the request's commit ---------------------------------------------------------------------------------------------


@pytest.fixture
def answering_app(make_app):
    """Views that write a term and a callback, then answer in each way a view can."""
    app = make_app()
    app.config["PROPAGATE_EXCEPTIONS"] = False
    app.ran = []
    views = Blueprint("answers", __name__)

    def write(english: str) -> None:
        add_term(english)
        after_commit(lambda: app.ran.append(english))

    @views.get("/test/answers/<how>")
    @public
    @writes_data
    def answer(how: str):
        write(how)
        if how == "status":
            return "Geçersiz.", 422
        if how == "raised":
            raise ApiError("conflict", "Çakışma.", 409)
        if how == "flashed":
            flash("Olmadı.", "error")
            return redirect("/", code=303)
        if how == "marked":
            mark_refusal()
            return redirect("/login?social_error=denied", code=303)
        if how == "warned":
            flash("Dikkat.", "warning")
            return redirect("/", code=303)
        return "Tamam."

    app.register_blueprint(views)
    return app


@pytest.mark.parametrize(("how", "status"), [("status", 422), ("raised", 409), ("flashed", 303), ("marked", 303)])
def test_an_answer_that_carries_an_error_keeps_nothing_the_request_wrote(answering_app, how, status):
    response = answering_app.test_client().get(f"/test/answers/{how}")

    assert response.status_code == status
    with answering_app.app_context():
        assert terms() == set()
    assert answering_app.ran == []


@pytest.mark.parametrize(("how", "status"), [("ok", 200), ("warned", 303)])
def test_any_other_answer_commits_what_the_request_wrote(answering_app, how, status):
    response = answering_app.test_client().get(f"/test/answers/{how}")

    assert response.status_code == status
    with answering_app.app_context():
        assert terms() == {how}
    assert answering_app.ran == [how]
