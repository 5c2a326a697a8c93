"""The job queues for the founder panel under /api/internal/admin/queues (X-Internal-Token): lengths and failed jobs
to read; retry and delete with founderId and reason, audited like every internal action."""

from __future__ import annotations

from flask import jsonify, request

from app.admin.queues import services as queues
from app.admin.schemas import FailedJobs, FailedJobsQuery, JobHandled, QueueOverview
from app.core.openapi import INTERNAL, documented
from app.core.validation import int_arg
from app.internal_admin.audit import audited
from app.internal_admin.guard import InternalBlueprint, read_actor
from app.internal_admin.schemas import ActorBody, InternalHeaders

bp = InternalBlueprint("internal_admin_queues", __name__, url_prefix="/queues")

READ = {"headers": InternalHeaders, "security": INTERNAL, "public": True}


@bp.get("")
@documented(QueueOverview, errors=(401, 503), summary="Every job queue's lengths", **READ)
def overview():
    return jsonify(queues=queues.overview())


@bp.get("/<name>/failed")
@documented(FailedJobs, query=FailedJobsQuery, errors=(401, 404, 503), summary="A queue's failed jobs", **READ)
def failed(name: str):
    page = int_arg(request.args, "page", 1, maximum=10_000)
    items, total = queues.failed_jobs(name, page)
    return jsonify(queue=name, items=items, total=total, page=page)


@bp.post("/<name>/failed/<job_id>/retry")
@documented(JobHandled, body=ActorBody, errors=(401, 404, 503), summary="Queue a failed job again", **READ)
def retry(name: str, job_id: str):
    actor, _body = read_actor()
    with audited(actor, "job.retry", "job", f"{name}/{job_id}"[:200]) as record:
        record.after = {"queue": name, "jobId": queues.retry(name, job_id)}
    return jsonify(status=True, jobId=job_id)


@bp.delete("/<name>/failed/<job_id>")
@documented(JobHandled, body=ActorBody, errors=(401, 404, 503), summary="Delete a failed job", **READ)
def delete(name: str, job_id: str):
    actor, _body = read_actor()
    with audited(actor, "job.delete", "job", f"{name}/{job_id}"[:200]) as record:
        record.before = {"queue": name, "jobId": queues.delete(name, job_id)}
    return jsonify(status=True, jobId=job_id)
