"""The shop's API keys under /api/shop/keys: the owner lists, makes (the key shown once) and revokes them."""

from __future__ import annotations

from flask import Blueprint, jsonify
from flask_babel import lazy_gettext as _l
from flask_login import current_user

from app.core.openapi import documented
from app.core.security import shop_role
from app.core.validation import json_body, text_field
from app.shops.keys import services
from app.shops.keys.presenters import key_json
from app.shops.keys.schemas import NewShopApiKey, NewShopApiKeyBody, RevokedShopApiKey, ShopApiKeyList

bp = Blueprint("shop_keys_api", __name__, url_prefix="/api/shop/keys")

NAME = _l("Key name")
ROLE = _l("Role")
EXPIRY = _l("Expiry date")


@bp.get("")
@documented(ShopApiKeyList, summary="The shop's API keys, newest first (prefix, role, expiry, last use)")
@shop_role("owner")
def list_keys():
    keys = services.keys_of(current_user.shop_id)
    creators = services.creators_of(keys)
    return jsonify(keys=[key_json(key, creators) for key in keys])


@bp.post("")
@documented(NewShopApiKey, status=201, body=NewShopApiKeyBody, summary="Make an API key; the key is shown only here")
@shop_role("owner")
def create_key():
    data = json_body()
    name = text_field(data, "name", NAME, max_length=services.NAME_MAX_LENGTH)
    role = text_field(data, "role", ROLE, max_length=10)
    expires_on = services.parse_expiry(text_field(data, "expiresOn", EXPIRY, max_length=10, required=False))
    made = services.create_key(current_user, name, role, expires_on)
    return jsonify(key=key_json(made.row, {current_user.id: current_user.name}), secret=made.secret), 201


@bp.delete("/<int:key_id>")
@documented(RevokedShopApiKey, errors=(404,), summary="Revoke an API key: its next call answers 401")
@shop_role("owner")
def revoke_key(key_id: int):
    key = services.revoke_key(current_user.shop_id, key_id)
    return jsonify(key=key_json(key, services.creators_of([key])))
