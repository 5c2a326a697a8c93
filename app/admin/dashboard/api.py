"""The dashboard's figures as JSON for admins: /api/admin/dashboard (the founder panel's copy is
app.internal_admin.dashboard_api)."""

from __future__ import annotations

from flask import Blueprint, jsonify, request

from app.admin.dashboard import services as dashboard
from app.admin.schemas import Dashboard, DashboardQuery
from app.core.openapi import documented
from app.core.security import requires_role

bp = Blueprint("admin_dashboard_api", __name__, url_prefix="/api/admin")


@bp.get("/dashboard")
@documented(Dashboard, query=DashboardQuery, errors=(400,), summary="The business at a glance, for a date range")
@requires_role("admin")
def figures():
    start, end = dashboard.date_range(request.args.get("from"), request.args.get("to"))
    return jsonify(dashboard.figures(start, end))
