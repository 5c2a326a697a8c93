"""The public VIN preview and teaser counts under /api/vehicles (no session needed, throttled per client address)."""

from __future__ import annotations

from flask import Blueprint, jsonify

from app.catalog import teaser
from app.core.openapi import documented
from app.core.security import public
from app.vehicles import preview
from app.vehicles.schemas import Preview, TeaserStats
from app.vehicles.throttles import preview_throttle, teaser_throttle

bp = Blueprint("vehicles_preview_api", __name__, url_prefix="/api/vehicles")


@bp.get("/preview/<vin>")
@documented(Preview, errors=(404, 503), public=True, summary="What vehicle a VIN names, before signing up")
@public
@preview_throttle
def preview_route(vin: str):
    return jsonify(preview.preview(vin))


@bp.get("/<vin>/teaser-stats")
@documented(TeaserStats, public=True, summary="The size of a VIN's catalog, before signing up")
@public
@teaser_throttle
def teaser_stats(vin: str):
    return jsonify(teaser.teaser_stats(vin))
