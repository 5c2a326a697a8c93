"""Search inside a decoded vehicle's stored catalog: /api/categories/search/<vehicleId>?q= (signed in, brand access)."""

from __future__ import annotations

from flask import Blueprint, jsonify, request
from flask_login import current_user

from app.catalog.schemas import SearchQuery, SearchResult
from app.catalog.search import services as search
from app.catalog.services import open_vehicle
from app.core.openapi import documented
from app.core.security import shop_role

bp = Blueprint("catalog_search_api", __name__, url_prefix="/api/categories")


@bp.get("/search/<int:vehicle_id>")
@shop_role("clerk")
@documented(SearchResult, query=SearchQuery, errors=(404,), summary="Search the vehicle's stored catalog")
def search_vehicle(vehicle_id: int):
    vehicle = open_vehicle(current_user, vehicle_id)
    return jsonify(search.search(vehicle, search.parse_query(request.args.get("q")), current_user))
