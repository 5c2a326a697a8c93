"""Site-wide JSON endpoints under /api."""

from flask import Blueprint, jsonify

from app.core.openapi import documented
from app.core.security import public
from app.site.schemas import Health
from app.site.services import health_report

bp = Blueprint("site_api", __name__, url_prefix="/api")


@bp.get("/health")
@documented(Health, extra={503: Health}, public=True, summary="Whether the database, Redis and the worker answer")
@public
def health():
    report = health_report()
    return jsonify(report), 200 if report["status"] == "ok" else 503
