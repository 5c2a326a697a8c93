"""The dashboard's figures as JSON: /api/admin/dashboard for admins, /api/internal/admin/dashboard for the founder
panel (X-Internal-Token)."""

from __future__ import annotations

from flask import Blueprint, jsonify, request

from app.admin import dashboard
from app.admin.schemas import Dashboard, DashboardQuery
from app.core.openapi import INTERNAL, documented
from app.core.security import requires_role
from app.internal_admin.guard import InternalBlueprint
from app.internal_admin.schemas import InternalHeaders

bp = Blueprint("admin_dashboard_api", __name__, url_prefix="/api/admin")
internal_bp = InternalBlueprint("internal_admin_dashboard", __name__)


def _figures():  # noqa: ANN202
    start, end = dashboard.date_range(request.args.get("from"), request.args.get("to"))
    return jsonify(dashboard.figures(start, end))


@bp.get("/dashboard")
@documented(Dashboard, query=DashboardQuery, errors=(400,), summary="The business at a glance, for a date range")
@requires_role("admin")
def figures():
    return _figures()


@internal_bp.get("/dashboard")
@documented(
    Dashboard,
    query=DashboardQuery,
    headers=InternalHeaders,
    errors=(400, 401),
    security=INTERNAL,
    public=True,
    summary="The business at a glance (founder panel)",
)
def internal_figures():
    return _figures()
