"""GET /api/health reports database and Redis reachability."""

import socket

import pytest

from app.core.tasks import heartbeat


def test_health_is_ok_when_database_and_redis_answer(client):
    response = client.get("/api/health")

    assert response.status_code == 200
    body = response.get_json()
    assert body["status"] == "ok"
    assert body["database"] == "ok"
    assert body["redis"] == "ok"
    assert body["worker"] == "unknown"


def test_health_reports_a_recent_worker_heartbeat(client):
    heartbeat()

    assert client.get("/api/health").get_json()["worker"] == "ok"


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_health_is_503_when_redis_is_unreachable(make_app):
    app = make_app(REDIS_URL=f"redis://127.0.0.1:{_closed_port()}/0", RATELIMIT_ENABLED=False)

    response = app.test_client().get("/api/health")

    assert response.status_code == 503
    assert response.get_json() == {"status": "degraded", "database": "ok", "redis": "down", "worker": "unknown"}


@pytest.mark.no_isolation
def test_health_is_503_when_the_database_is_unreachable(make_app):
    app = make_app(SQLALCHEMY_DATABASE_URI="sqlite:////nonexistent-dir/x.sqlite3")

    body = app.test_client().get("/api/health").get_json()

    assert body["database"] == "down"
    assert body["status"] == "degraded"
