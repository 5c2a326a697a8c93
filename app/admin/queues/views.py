"""The admins' queue page (/admin/queues): each queue's lengths, and its failed jobs with their error, to retry or
delete. The HTML counterpart of app.admin.queues.api, calling the same functions."""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, url_for
from flask_babel import gettext as _

from app.admin.queues import services as queues
from app.core.errors import ApiError
from app.core.security import requires_role

bp = Blueprint("queue_pages", __name__, url_prefix="/admin/queues")


@bp.get("")
@requires_role("admin")
def page():
    try:
        overview = queues.overview()
        failed = {row["name"]: queues.failed_jobs(row["name"])[0] for row in overview if row["failed"]}
        long_jobs = queues.long_jobs()
    except ApiError as error:
        empty = {"overview": [], "failed": {}, "long_jobs": []}
        return render_template("admin/queues.html", error=error.message, **empty), error.status
    return render_template("admin/queues.html", overview=overview, failed=failed, long_jobs=long_jobs, error=None)


@bp.post("/<name>/failed/<job_id>/retry")
@requires_role("admin")
def retry(name: str, job_id: str):
    return _handled(lambda: queues.retry(name, job_id), _("The job is queued again."))


@bp.post("/<name>/failed/<job_id>/delete")
@requires_role("admin")
def delete(name: str, job_id: str):
    return _handled(lambda: queues.delete(name, job_id), _("The job is deleted."))


def _handled(action, done: str):
    try:
        action()
    except ApiError as error:
        flash(error.message, "error")
    else:
        flash(done, "success")
    return redirect(url_for(".page"), code=303)
