"""More than one machine: two nodes of the product, each as `make run` starts it (gunicorn web, RQ worker, scheduler),
over one PostgreSQL database, one Redis, one SMTP catcher, one S3 bucket and one set of upstream sandboxes.

The nodes start once for the module and the checks run in order, the last one killing a node: a session and the
sign-in limit are shared, six dealers decoding one new VIN on both nodes at once cost one decode, the catalog and the
mail go out once, two schedulers enqueue each periodic job once per period, and the node left alone carries on.
Two machines cannot share an SQLite file or the embedded store: this runs on PostgreSQL + Redis only.
"""

from __future__ import annotations

import os
import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from urllib.parse import parse_qs, urlsplit

import pytest
import redis
import sqlalchemy as sa
from rq.exceptions import NoSuchJobError
from rq.job import Job
from rq.results import Result

import worker
from app.sources.sandbox.catalog import VIN_BMW, VIN_CLIO
from tests.conftest import csrf_token_from
from tests.support.cluster import PUBLIC_URL, Client, Cluster, MailBox, Node, running_cluster
from tests.support.processes import wait_until

pytestmark = [
    pytest.mark.no_isolation,  # the nodes have a database and a Redis database of their own
    pytest.mark.skipif(
        not (os.environ.get("TEST_DATABASE_URL") and os.environ.get("TEST_REDIS_URL")),
        reason="two machines cannot share an SQLite file or the embedded store: needs TEST_DATABASE_URL and "
        "TEST_REDIS_URL (PostgreSQL + Redis)",
    ),
]

SIGN_IN_LIMIT = 4
NODE_SETTINGS = {
    "DEMO_SEED": "off",  # the demo Golf's full-size tree would keep the workers busy for the whole module
    "SIGN_IN_RATE_LIMIT": f"{SIGN_IN_LIMIT} per minute",
    # Both schedulers look for due jobs every second, so they contend for every period.
    "SCHEDULER_INTERVAL_SECONDS": "1",
    # Six decodes of one VIN may land in one gunicorn process: those without a slot wait for the one decode rather
    # than give up after 2 s on two busy CPUs (the per-process capacity is not what this module is about).
    "DECODE_QUEUE_SECONDS": "20",
    "LOG_LEVEL": "WARNING",
}
PASSWORD = "two-node-horse-42"
DEALERS = 6
EVERY_MINUTE = [entry for entry in worker.SCHEDULE if entry.cron == "* * * * *"]
PERIODS = 1  # whole minutes both schedulers must have run through (each costs the module up to a minute)
RUN_WITHIN = timedelta(seconds=20)  # a period's run is enqueued within a second of its minute and runs soon after
CATALOG_SECONDS = 90
signed_up: list[str] = []  # every address that signed up in this module, in order


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    signed_up.clear()
    with running_cluster(tmp_path_factory.mktemp("cluster"), **NODE_SETTINGS) as running:
        yield running


@pytest.fixture(scope="module")
def shared(cluster):
    """What an earlier check leaves for a later one."""
    return {}


def _sign_up(client: Client, node: Node, name: str = "Bayi") -> dict:
    email = f"bayi-{client.address.replace('.', '-')}@example.com"
    body = {"name": name, "email": email, "password": PASSWORD}
    response = client.call(node, "POST", "/api/auth/sign-up/email", json=body)
    assert response.status_code == 201, response.text
    signed_up.append(email)
    return response.json()


def _dealer_with_trial(sign_up_on: Node, trial_on: Node) -> Client:
    client = Client()
    _sign_up(client, sign_up_on)
    response = client.call(trial_on, "POST", "/api/subscriptions/trial", json={})
    assert response.status_code == 201, response.text
    return client


def _wait_for_catalog(dealer: Client, node: Node, vehicle_id: int) -> None:
    """Until the vehicle's page says its whole tree is stored, asking once a second as the page does."""

    def done() -> bool:
        response = dealer.call(node, "GET", f"/api/vehicles/{vehicle_id}/categories/progress")
        assert response.status_code == 200, response.text
        return response.json()["done"]

    wait_until(done, CATALOG_SECONDS, f"vehicle {vehicle_id}'s tree is stored", interval=1)


def _stored(cluster: Cluster, vehicle_id: int) -> tuple[int, int, int]:
    """The vehicle's stored categories and part rows, and its pictures in the shared bucket."""
    engine = cluster.engine()
    with engine.connect() as connection:
        categories, parts = (_count(connection, table, vehicle_id) for table in ("category", "part"))
    engine.dispose()
    pictures = [key for key in cluster.stored_pictures() if key.startswith(f"schemas/{vehicle_id}/")]
    return categories, parts, len(pictures)


def _count(connection: sa.Connection, name: str, vehicle_id: int) -> int:
    table = sa.table(name, sa.column("vehicle_id"))
    return connection.scalar(sa.select(sa.func.count()).select_from(table).where(table.c.vehicle_id == vehicle_id))


def _served_by_portal(portal, key: str) -> tuple[int, int, int]:
    """The categories (groups and drawings), part rows and pictures the portal serves for the vehicle: a drawing whose
    link names one position serves that position's rows only."""
    vehicle = portal.catalog.vehicle(key)
    categories, _parts, drawings = vehicle.counts()
    rows = sum(
        1
        for drawing in vehicle.all_schemas()
        for part in drawing.parts
        if portal.link_shape(vehicle, drawing.code) != "part_detail" or part.position == "1"
    )
    return categories + drawings, rows, drawings


def test_a_session_made_on_one_node_works_on_the_other(cluster):
    a, b = cluster.nodes["a"], cluster.nodes["b"]
    client = Client()
    signed = _sign_up(client, a)

    cookie = client.http.cookies.copy()  # the jar sends what node A set to node B too: same host, other port
    seen = client.call(b, "GET", "/api/auth/get-session")
    assert seen.status_code == 200
    assert seen.json()["user"]["email"] == signed["user"]["email"]
    for _ in range(6):  # node A's processes keep the session's rows (app.auth.session_cache)
        assert client.call(a, "GET", "/api/auth/get-session").json()["user"]["email"] == signed["user"]["email"]

    assert client.call(b, "POST", "/api/auth/sign-out").status_code == 200
    kept = Client()
    kept.http.cookies.update(cookie)  # a copy of the cookie from before the sign-out
    assert kept.call(a, "GET", "/api/auth/get-session").json() is None  # ended on B, ended on A


def test_the_sign_in_limit_counts_the_attempts_made_on_both_nodes(cluster):
    a, b = cluster.nodes["a"], cluster.nodes["b"]
    guesser, target = Client(), "hedef@example.com"
    for attempt in range(SIGN_IN_LIMIT):
        node = (a, b)[attempt % 2]  # each node alone sees half of them
        assert _wrong_sign_in(guesser, node, target) == 401, attempt

    assert _wrong_sign_in(guesser, a, target) == 429
    assert _wrong_sign_in(guesser, b, target) == 429
    assert _wrong_sign_in(guesser, b, "baska@example.com") == 429  # the address's counter
    assert _wrong_sign_in(Client(), b, target) == 429  # the account's counter, from another address
    assert _wrong_sign_in(Client(), a, "baska@example.com") == 401  # neither counter is full


def _wrong_sign_in(client: Client, node: Node, email: str) -> int:
    body = {"email": email, "password": "not-the-password"}
    return client.call(node, "POST", "/api/auth/sign-in/email", json=body).status_code


def test_six_dealers_decoding_one_new_vin_on_both_nodes_get_one_vehicle_from_one_call_per_upstream(cluster, shared):
    a, b = cluster.nodes["a"], cluster.nodes["b"]
    nodes = [(a, b)[index % 2] for index in range(DEALERS)]
    dealers = [_dealer_with_trial(node, other) for node, other in zip(nodes, reversed(nodes), strict=True)]
    assert cluster.upstreams.vin_calls() == {"catapi": 0, "scrape": 0, "portal": 0, "vpic": 0}
    start = threading.Barrier(DEALERS)

    def decode(dealer: Client, node: Node):
        start.wait()
        return dealer.call(node, "POST", "/api/vehicles/decode", json={"vin": VIN_BMW})

    with ThreadPoolExecutor(max_workers=DEALERS) as pool:
        answers = list(pool.map(decode, dealers, nodes))

    assert [answer.status_code for answer in answers] == [200] * DEALERS, [answer.text[:200] for answer in answers]
    vehicles = {answer.json()["vehicle"]["id"] for answer in answers}
    assert len(vehicles) == 1
    assert {answer.json()["vehicle"]["source"] for answer in answers} == {"portal"}
    # catapi and the web catalog have no such car, so the portal is asked; the public decoder is not needed.
    assert cluster.upstreams.vin_calls() == {"catapi": 1, "scrape": 1, "portal": 1, "vpic": 0}
    engine = cluster.engine()
    with engine.connect() as connection:
        assert connection.scalar(sa.text("SELECT count(*) FROM vehicle WHERE vin = :vin"), {"vin": VIN_BMW}) == 1
    engine.dispose()
    shared["dealers"], shared["bmw"] = dealers, vehicles.pop()


def test_the_new_vehicles_catalog_is_stored_once(cluster, shared):
    dealer, vehicle_id = shared["dealers"][0], shared["bmw"]
    _wait_for_catalog(dealer, cluster.nodes["a"], vehicle_id)

    tree_calls = Counter(
        (call.path, call.query)
        for call in cluster.upstreams.portal.calls()
        if call.status == 200 and call.path != "/login" and not call.path.endswith("/vin")
    )
    assert tree_calls, "the portal was never asked for the tree"
    assert [call for call, times in tree_calls.items() if times > 1] == []  # no page of the tree asked for twice
    assert _stored(cluster, vehicle_id) == _served_by_portal(cluster.upstreams.portal, "bmw-3-f30")


def test_two_schedulers_enqueue_each_periodic_job_once_per_period(cluster):
    first = cluster.ready_at.replace(second=0, microsecond=0) + timedelta(minutes=1)
    periods = [first + timedelta(minutes=index) for index in range(PERIODS)]
    wait_until(lambda: datetime.now(UTC) > periods[-1] + RUN_WITHIN, 200, f"{PERIODS} periods have passed")
    runs = _runs_by_function(redis.Redis.from_url(cluster.redis_url))

    for entry in EVERY_MINUTE:
        minutes = Counter(run.replace(second=0, microsecond=0) for run in runs[entry.func])
        assert [minute for minute, times in minutes.items() if times > 1] == [], f"{entry.job_id} ran twice"
        assert all(minutes[minute] == 1 for minute in periods), f"{entry.job_id}: {sorted(minutes)}, not {periods}"


def _runs_by_function(connection: redis.Redis) -> dict[str, list[datetime]]:
    """When each function's jobs ran, whatever their ids (a scheduler of its own would enqueue under other ids)."""
    runs: dict[str, list[datetime]] = {}
    for key in connection.scan_iter("rq:results:*"):
        try:
            job = Job.fetch(key.decode().removeprefix("rq:results:"), connection=connection)
        except NoSuchJobError:
            continue  # its result outlived it
        runs.setdefault(job.func_name, []).extend(result.created_at for result in Result.all(job))
    return runs


def test_each_sign_ups_mails_are_sent_once(cluster):
    expected = set(signed_up)
    assert len(expected) == DEALERS + 1
    mailbox = cluster.mailbox
    wait_until(lambda: expected <= _verification_links(mailbox).keys(), 30, "a verification mail for every sign-up")
    last = max(mail.received_at for mail in mailbox.received())
    sweeps = Job.fetch("email-sweep", connection=redis.Redis.from_url(cluster.redis_url))
    # The outbox sweep (every minute, on either node) must not send any of them again.
    wait_until(lambda: any(run.created_at > last for run in Result.all(sweeps)), 90, "a sweep after the last mail")

    sent = Counter((mail.to, mail.subject) for mail in mailbox.received() if mail.to in expected)
    assert [mail for mail, times in sent.items() if times > 1] == []
    # The welcome and the verification, each once.
    assert Counter(to for to, _subject in sent) == dict.fromkeys(expected, 2)
    # The link's page comes from one node and its form is posted to the other (the CSRF token signed by the first).
    link = urlsplit(_verification_links(mailbox)[signed_up[0]])
    reader = Client()
    page = reader.call(cluster.nodes["a"], "GET", f"{link.path}?{link.query}")
    form = {"token": parse_qs(link.query)["token"][0], "csrf_token": csrf_token_from(page.text)}
    assert reader.call(cluster.nodes["b"], "POST", link.path, data=form).status_code == 303
    engine = cluster.engine()
    with engine.connect() as connection:
        query = sa.text('SELECT email_verified FROM "user" WHERE email = :email')
        assert connection.scalar(query, {"email": signed_up[0]}) is True
    engine.dispose()


def _verification_links(mailbox: MailBox) -> dict[str, str]:
    """Each recipient's e-mail verification link, on the public site."""
    links = {}
    for mail in mailbox.received():
        for word in mail.text.split():
            if word.startswith(f"{PUBLIC_URL}/verify-email?"):
                links[mail.to] = word
    return links


def test_when_a_node_dies_the_other_answers_and_its_worker_stores_a_new_catalog(cluster, shared):
    a, b = cluster.nodes["a"], cluster.nodes["b"]
    gone = a.kill()
    assert len(gone) >= 5  # the launcher, gunicorn's master and workers, the RQ worker, the scheduler
    assert a.health() == (0, {})

    status, health = b.health()
    assert (status, health["database"], health["redis"], health["worker"]) == (200, "ok", "ok", "ok")
    dealer = shared["dealers"][0]
    assert dealer.call(b, "GET", f"/api/vehicles/{shared['bmw']}/categories").status_code == 200
    answer = dealer.call(b, "POST", "/api/vehicles/decode", json={"vin": VIN_CLIO})
    assert answer.status_code == 200, answer.text
    clio = answer.json()["vehicle"]["id"]

    _wait_for_catalog(dealer, b, clio)
    _categories, parts, drawings = cluster.upstreams.scrape.catalog.vehicle("renault-clio-4").counts()
    assert _stored(cluster, clio)[1:] == (parts, drawings)  # every part row and picture of the web catalog
