"""Site-wide JSON endpoints under /api."""

from flask import Blueprint, jsonify

from app.core.security import public
from app.site.services import health_report

bp = Blueprint("site_api", __name__, url_prefix="/api")


@bp.get("/health")
@public
def health():
    report = health_report()
    return jsonify(report), 200 if report["status"] == "ok" else 503
