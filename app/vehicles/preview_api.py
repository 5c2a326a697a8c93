"""The public VIN preview and teaser counts under /api/vehicles (no session needed, throttled per client address)."""

from __future__ import annotations

from flask import Blueprint, jsonify
from flask_limiter.util import get_remote_address

from app.core import throttle
from app.core.openapi import documented
from app.core.security import public
from app.extensions import limiter
from app.vehicles import preview
from app.vehicles.schemas import Preview, TeaserStats

bp = Blueprint("vehicles_preview_api", __name__, url_prefix="/api/vehicles")


_preview_limit = throttle.setting("VIN_PREVIEW_RATE_LIMIT")
# The preview API and the preview page share one budget per address: both can cost upstream calls.
preview_throttle = limiter.shared_limit(_preview_limit, scope="vin-preview", key_func=get_remote_address)
teaser_throttle = limiter.limit(_preview_limit, key_func=get_remote_address, scope="vin-teaser")


@bp.get("/preview/<vin>")
@documented(Preview, errors=(404, 503), public=True, summary="What vehicle a VIN names, before signing up")
@public
@preview_throttle
def preview_route(vin: str):  # noqa: ANN201
    return jsonify(preview.preview(vin))


@bp.get("/<vin>/teaser-stats")
@documented(TeaserStats, public=True, summary="The size of a VIN's catalog, before signing up")
@public
@teaser_throttle
def teaser_stats(vin: str):  # noqa: ANN201
    return jsonify(preview.teaser_stats(vin))
