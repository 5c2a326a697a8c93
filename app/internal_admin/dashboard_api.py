"""The dashboard's figures for the founder panel under /api/internal/admin/dashboard (X-Internal-Token), as admins
read them at /api/admin/dashboard."""

from __future__ import annotations

from flask import jsonify, request

from app.admin.dashboard import services as dashboard
from app.admin.schemas import Dashboard, DashboardQuery
from app.core.openapi import INTERNAL, documented
from app.internal_admin.guard import InternalBlueprint
from app.internal_admin.schemas import InternalHeaders

bp = InternalBlueprint("internal_admin_dashboard", __name__)


@bp.get("/dashboard")
@documented(
    Dashboard,
    query=DashboardQuery,
    headers=InternalHeaders,
    errors=(400, 401),
    security=INTERNAL,
    public=True,
    summary="The business at a glance (founder panel)",
)
def internal_figures():  # the endpoint's name since before the move: the audit trail records it with every call
    start, end = dashboard.date_range(request.args.get("from"), request.args.get("to"))
    return jsonify(dashboard.figures(start, end))
