"""The job queues for admins (/api/admin/queues and /admin/queues) and the founder panel (/api/internal/admin/queues):
lengths, failed jobs with their error, retry and delete, refusals, and the audit of internal calls."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from rq import SimpleWorker

from app.extensions import db, queues, redis_store
from app.internal_admin.guard import AUTH_HEADER
from app.internal_admin.models import AuditEntry
from tests.conftest import SITE, csrf_token_from

TOKEN = "internal-test-token-queues"
BODY = {"reason": "Kaynak düzeldi", "founderId": "kurucu-1"}


@pytest.fixture
def failed_job(app) -> str:
    """A heartbeat job called with an argument it does not take, run by a worker: it fails with a TypeError."""
    queues.enqueue("default", "app.core.tasks.heartbeat", "unexpected", job_id="broken-job-1")
    SimpleWorker([queues.get("default")], connection=redis_store.client).work(burst=True)
    return "broken-job-1"


@pytest.fixture
def admin(client, create_user, sign_in):
    sign_in(create_user(role="admin").email)
    return client


def counts(client, path: str = "/api/admin/queues", **headers: str) -> dict[str, dict]:
    return {row["name"]: row for row in client.get(path, headers=headers).get_json()["queues"]}


def test_an_admin_sees_each_queue_and_a_failed_job_with_its_error(admin, failed_job):
    overview = counts(admin)
    failed = admin.get("/api/admin/queues/default/failed").get_json()

    assert set(overview) == {"default", "email", "prefetch", "translation"}
    assert overview["default"]["failed"] == 1 and overview["default"]["queued"] == 0
    [job] = failed["items"]
    assert failed["total"] == 1 and job["id"] == failed_job and job["function"] == "app.core.tasks.heartbeat"
    assert "TypeError" in job["error"]


def test_a_failed_job_is_retried_once_and_deleted_once(admin, failed_job):
    retried = admin.post(f"/api/admin/queues/default/failed/{failed_job}/retry", json={}, headers=SITE)
    again = admin.post(f"/api/admin/queues/default/failed/{failed_job}/retry", json={}, headers=SITE)

    assert retried.get_json() == {"status": True, "jobId": failed_job} and again.status_code == 404
    assert counts(admin)["default"]["queued"] == 1 and counts(admin)["default"]["failed"] == 0
    SimpleWorker([queues.get("default")], connection=redis_store.client).work(burst=True)  # fails again
    deleted = admin.delete(f"/api/admin/queues/default/failed/{failed_job}", json={}, headers=SITE)
    gone = admin.delete(f"/api/admin/queues/default/failed/{failed_job}", json={}, headers=SITE)
    assert deleted.status_code == 200 and gone.status_code == 404
    assert counts(admin)["default"]["failed"] == 0


@pytest.mark.parametrize("path", ["/api/admin/queues/nightly/failed", "/api/admin/queues/default/failed/x:y/retry"])
def test_unknown_queues_and_jobs_are_not_found(admin, path):
    method = admin.post if path.endswith("retry") else admin.get
    answer = method(path, json={}, headers=SITE) if method == admin.post else method(path)
    assert answer.status_code == 404 and answer.get_json()["error"]["message"]


def test_dealers_and_visitors_are_refused(client, create_user, sign_in):
    assert client.get("/api/admin/queues").status_code == 401
    sign_in(create_user().email)
    assert client.get("/api/admin/queues").status_code == 403
    assert client.get("/admin/queues").status_code == 403


def test_the_page_lists_the_failed_job_and_retries_it(admin, failed_job):
    page = admin.get("/admin/queues").get_data(as_text=True)

    assert failed_job in page and "TypeError" in page
    answer = admin.post(f"/admin/queues/default/failed/{failed_job}/retry", data={"csrf_token": csrf_token_from(page)})
    assert answer.status_code == 303
    assert "İş yeniden kuyruğa alındı." in admin.get("/admin/queues").get_data(as_text=True)


def test_the_founder_panel_reads_and_acts_with_its_token_and_is_audited(app, client, failed_job, monkeypatch):
    monkeypatch.setitem(app.config, "INTERNAL_API_TOKEN", TOKEN)
    prefix = "/api/internal/admin/queues"

    assert client.get(prefix).status_code == 401
    assert counts(client, prefix, **{AUTH_HEADER: TOKEN})["default"]["failed"] == 1
    unexplained = client.post(f"{prefix}/default/failed/{failed_job}/retry", json={}, headers={AUTH_HEADER: TOKEN})
    retried = client.post(f"{prefix}/default/failed/{failed_job}/retry", json=BODY, headers={AUTH_HEADER: TOKEN})

    assert unexplained.status_code == 400 and retried.get_json() == {"status": True, "jobId": failed_job}
    entry = db.session.scalar(sa.select(AuditEntry).where(AuditEntry.action == "job.retry"))
    assert (entry.founder_id, entry.reason, entry.outcome) == ("kurucu-1", "Kaynak düzeldi", "ok")


def test_the_founder_panel_s_reads_are_in_the_audit_table_too(app, client, monkeypatch):
    monkeypatch.setitem(app.config, "INTERNAL_API_TOKEN", TOKEN)

    client.get("/api/internal/admin/queues", headers={AUTH_HEADER: TOKEN, "X-Founder-Id": "kurucu-1"})
    client.get("/api/internal/admin/queues/nightly/failed", headers={AUTH_HEADER: TOKEN})  # refused: 404

    [entry] = db.session.scalars(sa.select(AuditEntry).where(AuditEntry.action == "call.get")).all()
    assert (entry.founder_id, entry.target_id, entry.outcome) == ("kurucu-1", "/api/internal/admin/queues", "ok")
