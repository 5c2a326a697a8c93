"""Shops for admins under /api/admin: the list with members, seats, branches, plan and usage, and one shop."""

from __future__ import annotations

from flask import Blueprint, jsonify, request

from app.admin.schemas import ShopDetail, ShopList, ShopsQuery
from app.admin.shops import services as shops
from app.core.openapi import documented
from app.core.security import requires_role
from app.core.validation import int_arg

bp = Blueprint("admin_shops_api", __name__, url_prefix="/api/admin")


@bp.get("/shops")
@documented(ShopList, query=ShopsQuery, errors=(400,), summary="Shops with members, seats, branches, plan and usage")
@requires_role("admin")
def shop_list():
    page = int_arg(request.args, "page", 1, maximum=10_000)
    items, more = shops.search(request.args.get("q") or "", page)
    return jsonify(items=items, page=page, hasMore=more)


@bp.get("/shops/<shop_id>")
@documented(ShopDetail, errors=(404,), summary="One shop: members with role and branch, branches, subscriptions")
@requires_role("admin")
def shop_detail(shop_id: str):
    return jsonify(shops.detail(shop_id))
