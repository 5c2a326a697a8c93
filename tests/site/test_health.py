"""GET /api/health reports database and Redis reachability."""

import re
import socket

import pytest

from app.core.tasks import heartbeat
from app.core.worker_beat import BEATS_KEY, FRESH_SECONDS, WorkerBeat
from app.extensions import redis_store
from tests.support.processes import wait_until
from tests.support.scan_images import text_engine_missing


def test_health_is_ok_when_database_and_redis_answer(client):
    response = client.get("/api/health")

    assert response.status_code == 200
    body = response.get_json()
    assert body["status"] == "ok"
    assert body["database"] == "ok"
    assert body["redis"] == "ok"
    assert body["worker"] == "down"  # no worker process has beaten


def test_health_reports_a_running_worker_at_once_and_its_sign_off_at_once(client):
    store = redis_store.client
    beat = WorkerBeat(lambda: store, name="test-host:1").start()
    try:
        wait_until(lambda: client.get("/api/health").get_json()["worker"] == "ok", 2, "the first beat counts")
    finally:
        beat.stop()

    assert client.get("/api/health").get_json()["worker"] == "down"


def test_health_says_stale_once_the_last_beat_is_older_than_five_seconds(client):
    seconds, _micros = redis_store.client.time()
    redis_store.client.zadd(BEATS_KEY, {"crashed-host:1": seconds - FRESH_SECONDS - 1})

    assert client.get("/api/health").get_json()["worker"] == "stale"

    redis_store.client.zadd(BEATS_KEY, {"other-host:2": seconds})
    assert client.get("/api/health").get_json()["worker"] == "ok"  # any worker beating is enough


def test_the_scheduled_heartbeat_job_is_not_what_health_waits_for(client):
    heartbeat()

    assert client.get("/api/health").get_json()["worker"] == "down"


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_health_is_503_when_redis_is_unreachable(make_app):
    app = make_app(REDIS_URL=f"redis://127.0.0.1:{_closed_port()}/0", RATELIMIT_ENABLED=False)

    response = app.test_client().get("/api/health")

    assert response.status_code == 503
    body = response.get_json()
    assert body.pop("textEngine")["name"] == "Tesseract"  # informational, as the worker
    assert body == {"status": "degraded", "database": "ok", "redis": "down", "worker": "unknown"}


@pytest.mark.no_isolation
def test_health_is_503_when_the_database_is_unreachable(make_app):
    app = make_app(SQLALCHEMY_DATABASE_URI="sqlite:////nonexistent-dir/x.sqlite3")

    body = app.test_client().get("/api/health").get_json()

    assert body["database"] == "down"
    assert body["status"] == "degraded"


def test_health_names_the_text_engine_and_its_version(client):
    """The VIN scan's text reader: Tesseract's C API in this process, from pip's packages."""
    engine = client.get("/api/health").get_json()["textEngine"]

    assert engine["name"] == "Tesseract"
    assert re.fullmatch(r"5\.\d+\.\d+", engine["version"])
    assert re.fullmatch(r"tesserocr \d+\.\d+\.\d+", engine["binding"])


def test_health_says_when_no_text_engine_loaded_and_stays_ok(client):
    with text_engine_missing():
        response = client.get("/api/health")

    assert response.status_code == 200
    assert response.get_json()["textEngine"] is None
