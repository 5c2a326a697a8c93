"""The founder's shops under /api/internal/admin/shops (X-Internal-Token): the list with members, seats, branches,
plan and usage, one shop, and a read-only impersonation that enters the shop as its owner."""

from __future__ import annotations

from flask import jsonify, request

from app.admin.schemas import ShopDetail, ShopList, ShopsQuery
from app.admin.shops import services as shops
from app.core.openapi import INTERNAL, documented
from app.core.validation import int_arg
from app.internal_admin import users
from app.internal_admin.audit import audited
from app.internal_admin.guard import InternalBlueprint, read_actor
from app.internal_admin.schemas import ImpersonateBody, Impersonation, InternalHeaders

bp = InternalBlueprint("internal_admin_shops", __name__, url_prefix="/shops")

INTERNAL_CALL = {"headers": InternalHeaders, "security": INTERNAL, "public": True}


@bp.get("")
@documented(ShopList, query=ShopsQuery, errors=(400, 401), summary="Shops (founder panel)", **INTERNAL_CALL)
def shop_list():
    page = int_arg(request.args, "page", 1, maximum=10_000)
    items, more = shops.search(request.args.get("q") or "", page)
    return jsonify(items=items, page=page, hasMore=more)


@bp.get("/<shop_id>")
@documented(ShopDetail, errors=(401, 404), summary="One shop (founder panel)", **INTERNAL_CALL)
def shop_detail(shop_id: str):
    return jsonify(shops.detail(shop_id))


@bp.post("/<shop_id>/impersonate-readonly")
@documented(
    Impersonation,
    body=ImpersonateBody,
    errors=(400, 401, 403, 404, 409),
    summary="Enter a shop as its owner, read-only",
    **INTERNAL_CALL,
)
def impersonate_owner(shop_id: str):
    actor, body = read_actor()
    with audited(actor, "shop.impersonate_readonly", "shop", shop_id) as record:
        owner = users.target_user(str(shops.owner_of(shops.get_shop(shop_id)).id))
        minutes = users.ttl_minutes(body.get("ttlMinutes"))
        opened = users.impersonate(owner, actor.founder_id, minutes)
        record.after = {"ownerId": str(owner.id), "ttlMinutes": minutes, "sessionIdPrefix": opened["sessionIdPrefix"]}
    return jsonify(opened)
