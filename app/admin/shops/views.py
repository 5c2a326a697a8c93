"""The admins' shop pages: /admin/shops (search) and /admin/shops/<id>."""

from __future__ import annotations

from flask import Blueprint, render_template, request

from app.admin.shops import services as shops
from app.core.security import requires_role
from app.core.validation import int_arg

bp = Blueprint("admin_shop_pages", __name__, url_prefix="/admin")


@bp.get("/shops")
@requires_role("admin")
def shop_list():
    page = int_arg(request.args, "page", 1, maximum=10_000)
    query = (request.args.get("q") or "")[:100]
    items, more = shops.search(query, page)
    return render_template("admin/shops.html", items=items, more=more, page=page, query=query)


@bp.get("/shops/<shop_id>")
@requires_role("admin")
def shop_detail(shop_id: str):
    return render_template("admin/shop.html", detail=shops.detail(shop_id))
