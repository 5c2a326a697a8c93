"""The public demo under /api/demo: one stored vehicle's catalog, read-only, no session, throttled per address.

Every category id is checked against the demo vehicle before anything else is read (`services.demo_category`).
"""

from __future__ import annotations

from flask import Blueprint, jsonify, request

from app.catalog.schemas import CategoryDetail, DemoVehicle, SearchQuery, SearchResult, Tree
from app.catalog.search import services as search
from app.core.openapi import documented
from app.core.security import public
from app.demo import services
from app.demo.throttles import demo_throttle, search_throttle

bp = Blueprint("demo_api", __name__, url_prefix="/api/demo")


@bp.get("/vehicle")
@documented(DemoVehicle, errors=(404,), public=True, summary="The demo vehicle")
@public
@demo_throttle
def vehicle():
    return jsonify(services.vehicle_summary(services.demo_vehicle()))


@bp.get("/categories/tree")
@documented(Tree, errors=(404,), public=True, summary="The demo vehicle's root categories")
@public
@demo_throttle
def tree():
    return jsonify(services.tree(services.demo_vehicle()))


@bp.get("/categories/search")
@documented(SearchResult, query=SearchQuery, errors=(404,), public=True)
@public
@demo_throttle
@search_throttle
def search_route():
    """The dealer's catalog search (stored rows only, never an upstream), over the demo vehicle."""
    vehicle = services.demo_vehicle()
    return jsonify(search.search(vehicle, search.parse_query(request.args.get("q"))))


@bp.get("/categories/<int:category_id>")
@documented(CategoryDetail, errors=(404,), public=True, summary="A category of the demo vehicle")
@public
@demo_throttle
def category(category_id: int):
    vehicle = services.demo_vehicle()
    return jsonify(services.category_detail(vehicle, services.demo_category(vehicle, category_id)))


@bp.get("/categories/<int:category_id>/children")
@documented(Tree, errors=(404,), public=True, summary="A category's children in the demo vehicle")
@public
@demo_throttle
def children(category_id: int):
    vehicle = services.demo_vehicle()
    return jsonify(services.children_of(services.demo_category(vehicle, category_id)))
