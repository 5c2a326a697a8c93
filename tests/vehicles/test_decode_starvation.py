"""Decodes hanging on hung upstreams must not starve the server: the product as `make run` serves it (gunicorn, two
workers of four threads), every catalog sandbox slowed past its adapter's timeout through its fault knob."""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager

import pytest
import redis
import requests

from app.core.embedded_redis import EmbeddedRedis
from app.vehicles.cache import lock_key
from tests.support.processes import wait_until
from tests.support.product import running_product

pytestmark = pytest.mark.no_isolation

HUNG = {
    "SANDBOX_CATAPI_LATENCY_MS": "30000",
    "SANDBOX_SCRAPE_LATENCY_MS": "30000",
    "SANDBOX_PORTAL_LATENCY_MS": "30000",
    "DECODE_BUDGET_SECONDS": "10",  # a decode holding a slot hangs until the fallbacks' reserve (7.5 s), then answers
    "DEMO_SEED": "off",
    "RATELIMIT_DEFAULT": "10000 per minute",
}
DECODES = 8
STORED_PAGES = ("/api/health", "/api/vehicles/history", "/vin")


def _dealer(url: str) -> requests.Session:
    http = requests.Session()
    http.headers["Origin"] = url
    body = {"name": "Bayi", "email": f"bayi-{uuid.uuid4().hex[:10]}@example.com", "password": "counter-horse-42"}
    assert http.post(f"{url}/api/auth/sign-up/email", json=body, timeout=30).status_code == 201
    assert http.post(f"{url}/api/subscriptions/trial", json={}, timeout=30).status_code == 201
    return http


def _decode(http: requests.Session, url: str, number: int) -> tuple[int, float, str]:
    started = time.monotonic()
    response = http.post(f"{url}/api/vehicles/decode", json={"vin": f"WVWZZZAUZHW3{number:05d}"}, timeout=60)
    code = response.json().get("error", {}).get("code", "") if response.status_code >= 400 else ""
    return response.status_code, time.monotonic() - started, code


def _timed_get(http: requests.Session, url: str) -> tuple[int, float]:
    started = time.monotonic()
    status = http.get(url, timeout=30).status_code
    return status, time.monotonic() - started


@contextmanager
def _watched_redis() -> Iterator[tuple[dict[str, str], redis.Redis]]:
    """The product's Redis as the test sees it: TEST_REDIS_URL's, or on the embedded default an embedded store of the
    same kind started here (the launcher's own would listen on a port the test cannot know)."""
    url = os.environ.get("TEST_REDIS_URL", "")
    if url:
        yield {}, redis.Redis.from_url(url)
        return
    store = EmbeddedRedis().start()
    try:
        yield {"REDIS_URL": store.url}, redis.Redis.from_url(store.url)
    finally:
        store.stop()


def _all_refused_the_rest_hanging(decodes: list[Future], store: redis.Redis) -> bool:
    """Every decode has been answered or holds its VIN's lock (taken inside a slot, held while its upstreams hang)."""
    hanging = len(store.keys(lock_key("*")))
    return hanging > 0 and sum(decode.done() for decode in decodes) + hanging == DECODES


def test_stored_pages_search_and_health_answer_within_a_second_while_eight_decodes_hang(tmp_path):
    with _watched_redis() as (settings, store), running_product(tmp_path, **HUNG, **settings) as product:
        http = _dealer(product.url)
        with ThreadPoolExecutor(max_workers=DECODES) as pool:
            decodes = [pool.submit(_decode, http, product.url, number) for number in range(DECODES)]
            wait_until(
                lambda: _all_refused_the_rest_hanging(decodes, store),
                timeout=7,  # before the hung ones reach the fallbacks' reserve (7.5 s)
                what="the decodes beyond the slots refused, the others hanging",
            )
            pages = {path: _timed_get(http, product.url + path) for path in STORED_PAGES}
            answers = [future.result() for future in decodes]

    assert all(status == 200 and seconds < 1 for status, seconds in pages.values()), pages
    busy = [seconds for status, seconds, code in answers if code == "decode_busy"]
    hung = [seconds for status, seconds, code in answers if code in ("sources_unavailable", "decode_timeout")]
    assert len(busy) + len(hung) == DECODES, answers
    assert len(hung) <= 4, answers  # two slots in each of the two workers
    assert all(seconds < 4 for seconds in busy), answers  # refused after a short wait, never at the budget
    assert all(status == 503 for status, _seconds, code in answers if code != "decode_timeout"), answers
