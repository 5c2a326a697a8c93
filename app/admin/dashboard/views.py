"""The admin dashboard page (/admin): the figures of app.admin.dashboard.services with Chart.js charts and a date
range."""

from __future__ import annotations

from flask import Blueprint, render_template, request

from app.admin.dashboard import services as dashboard
from app.core.errors import ApiError
from app.core.security import requires_role

bp = Blueprint("admin_pages", __name__, url_prefix="/admin")


@bp.get("")
@requires_role("admin")
def page():
    try:
        start, end = dashboard.date_range(request.args.get("from"), request.args.get("to"))
    except ApiError as error:
        start, end = dashboard.date_range(None, None)
        return render_template("admin/dashboard.html", figures=dashboard.figures(start, end), error=error.message), 400
    return render_template("admin/dashboard.html", figures=dashboard.figures(start, end), error=None)
