"""A decoded vehicle's catalog under /api/vehicles/<vehicleId>/categories (signed in, brand access)."""

from __future__ import annotations

from flask import Blueprint, jsonify, request
from flask_login import current_user

from app.catalog import references, services
from app.catalog.fit import shapes as fit_shapes
from app.catalog.schemas import CategoryDetail, CategoryQuery, Progress, ReferenceTarget, Tree
from app.core.openapi import documented
from app.core.security import shop_role

bp = Blueprint("catalog_api", __name__, url_prefix="/api/vehicles/<int:vehicle_id>/categories")


@bp.get("")
@shop_role("clerk")
@documented(Tree, errors=(404,), summary="The vehicle's root categories")
def tree(vehicle_id: int):
    return jsonify(services.tree(services.open_vehicle(current_user, vehicle_id), current_user))


@bp.get("/progress")
@shop_role("clerk")
@documented(Progress, errors=(404,), summary="How far the background prefetch has got")
def progress(vehicle_id: int):
    return jsonify(services.prefetch_progress(services.open_vehicle(current_user, vehicle_id)))


@bp.get("/<int:category_id>")
@shop_role("clerk")
@documented(
    CategoryDetail,
    query=CategoryQuery,
    errors=(404,),
    summary="A category: its children or parts (each with its fit for the vehicle), picture and ancestors",
)
def category(vehicle_id: int, category_id: int):
    only = fit_shapes.parse_status_filter(request.args.get("fit"))
    vehicle = services.open_vehicle(current_user, vehicle_id)
    found = services.category_in(vehicle, category_id)
    return jsonify(services.category_detail(vehicle, found, current_user, only))


@bp.get("/<int:category_id>/children")
@shop_role("clerk")
@documented(Tree, errors=(404,), summary="A category's children")
def children(vehicle_id: int, category_id: int):
    vehicle = services.open_vehicle(current_user, vehicle_id)
    return jsonify(services.children_of(vehicle, services.category_in(vehicle, category_id), current_user))


@bp.get("/references/<code>")
@shop_role("clerk")
@documented(ReferenceTarget, errors=(404,))
def reference(vehicle_id: int, code: str):
    """Where a reference row points: {code, categoryId}; 404 when the catalog has no such illustration."""
    vehicle = services.open_vehicle(current_user, vehicle_id)
    return jsonify(code=code, categoryId=references.resolve(vehicle, code))
