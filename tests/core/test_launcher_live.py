"""`make run` (app.launcher) against a real redis-server: Redis going away costs the features that need it, not
the product; health says so and recovers; a child that dies is started again; gunicorn logs each request."""

from __future__ import annotations

import os
import re
import signal

import pytest
import requests

from app.core.worker_beat import BEATS_KEY
from tests.support.processes import Process, wait_until
from tests.support.redis_server import free_port, redis_server  # noqa: F401 - fixture used here
from tests.support.scan_images import engine_in_health

pytestmark = pytest.mark.no_isolation  # the launched product has its own database and Redis

START_SECONDS = 90  # migrate, seed, then gunicorn, worker and scheduler import the whole app
HEALTH_RECOVERY_SECONDS = 10  # the bound for health to say ok again once Redis is back


@pytest.fixture
def product(tmp_path, redis_server):  # noqa: F811
    port = free_port()
    env = {
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "REDIS_URL": redis_server.url,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'product.sqlite3'}",
        "SECRET_KEY": "test",
        "AUTH_SECRET": "test",
        "DEMO_SEED": "off",
        "LOG_LEVEL": "INFO",
        "STORAGE_DIR": str(tmp_path / "storage"),
    }
    for name in (
        "CATAPI_BASE_URLS",
        "SCRAPE_BASE_URL",
        "PORTAL_BASE_URL",
        "VPIC_BASE_URL",
        "STRIPE_SECRET_KEY",
        "TCMB_RATES_URL",
    ):
        env[name] = ""  # every outside service is a sandbox on loopback
    launcher = Process(["-m", "app.launcher"], env, tmp_path / "launcher.log")
    launcher.base_url = f"http://127.0.0.1:{port}"
    yield launcher
    launcher.stop(timeout=20)


def health(product) -> tuple[int, dict]:
    try:
        response = requests.get(f"{product.base_url}/api/health", timeout=5)
    except requests.RequestException:  # not listening yet, or still loading the app
        return 0, {}
    return response.status_code, response.json()


def child_pid(product, name: str) -> int:
    return int(re.findall(rf"^{name} started as pid (\d+)$", product.output(), flags=re.M)[-1])


def test_the_product_outlives_a_redis_outage_and_a_dead_child(product, redis_server):  # noqa: F811
    up = {"status": "ok", "database": "ok", "redis": "ok", "worker": "ok", "textEngine": engine_in_health()}
    wait_until(
        lambda: health(product) == (200, up),
        START_SECONDS,
        "the product is up with a worker",
    )
    landing = requests.get(f"{product.base_url}/", headers={"X-Request-ID": "dealer-report-0001"}, timeout=5)
    assert landing.status_code == 200
    assert landing.headers["X-Request-ID"] == "dealer-report-0001"
    wait_until(
        lambda: re.search(r"127\.0\.0\.1 GET / 200 \d+ms rid=dealer-report-0001$", product.output(), re.M),
        5,
        "the access log line of that request",
    )
    assert "Control socket listening" not in product.output()

    redis_server.kill()
    status, body = wait_until(lambda: (lambda answer: answer[0] == 503 and answer)(health(product)), 10, "health 503")
    assert body == {
        "status": "degraded",
        "database": "ok",
        "redis": "down",
        "worker": "unknown",
        "textEngine": engine_in_health(),
    }
    assert requests.get(f"{product.base_url}/plans", timeout=5).status_code == 200

    redis_server.start()
    wait_until(lambda: health(product)[0] == 200, HEALTH_RECOVERY_SECONDS, "health 200 once Redis is back")
    wait_until(lambda: health(product)[1].get("worker") == "ok", 20, "the worker beats on the new Redis")
    assert "exited with" not in product.output()  # nothing died of the outage

    worker = child_pid(product, "worker")
    os.kill(worker, signal.SIGKILL)
    wait_until(lambda: f"worker (pid {worker}) exited with -9; restarting it in" in product.output(), 5, "a log line")
    wait_until(lambda: child_pid(product, "worker") != worker, 10, "the worker is started again")
    beats = redis_server.client()
    restarted = f":{child_pid(product, 'worker')}".encode()
    wait_until(lambda: any(name.endswith(restarted) for name in beats.zrange(BEATS_KEY, 0, -1)), 30, "it beats")
    assert health(product)[1]["worker"] == "ok"

    assert product.stop(timeout=20) == 0
