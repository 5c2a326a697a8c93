"""The job queues as JSON for admins under /api/admin/queues: lengths, failed jobs with their error, retry, delete."""

from __future__ import annotations

from flask import Blueprint, jsonify, request

from app.admin.queues import services as queues
from app.admin.schemas import FailedJobs, FailedJobsQuery, JobHandled, QueueOverview
from app.core.openapi import documented
from app.core.security import requires_role
from app.core.validation import int_arg, optional_json_body

bp = Blueprint("admin_queues_api", __name__, url_prefix="/api/admin/queues")


@bp.get("")
@documented(QueueOverview, errors=(503,), summary="Every job queue's lengths")
@requires_role("admin")
def overview():
    return jsonify(queues=queues.overview())


@bp.get("/<name>/failed")
@documented(FailedJobs, query=FailedJobsQuery, errors=(404, 503), summary="A queue's failed jobs with their error")
@requires_role("admin")
def failed(name: str):
    page = int_arg(request.args, "page", 1, maximum=10_000)
    items, total = queues.failed_jobs(name, page)
    return jsonify(queue=name, items=items, total=total, page=page)


@bp.post("/<name>/failed/<job_id>/retry")
@documented(JobHandled, errors=(404, 503), summary="Queue a failed job again")
@requires_role("admin")
def retry(name: str, job_id: str):
    optional_json_body()
    return jsonify(status=True, jobId=queues.retry(name, job_id))


@bp.delete("/<name>/failed/<job_id>")
@documented(JobHandled, errors=(404, 503), summary="Delete a failed job")
@requires_role("admin")
def delete(name: str, job_id: str):
    optional_json_body()
    return jsonify(status=True, jobId=queues.delete(name, job_id))
