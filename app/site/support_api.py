"""The visitor's ways to reach the team, as JSON: the contact form and the live-chat widget's identity."""

from __future__ import annotations

from flask import Blueprint, jsonify, request
from flask_login import current_user

from app.core.openapi import StatusTrue, documented
from app.core.security import public, shop_role
from app.core.validation import json_body
from app.site import livechat
from app.site.contact import send_contact_message
from app.site.schemas import ContactBody, LivechatIdentity
from app.site.throttles import contact_throttle

bp = Blueprint("site_support_api", __name__, url_prefix="/api")


@bp.post("/contact")
@documented(StatusTrue, status=201, body=ContactBody, errors=(400, 403, 429, 503), public=True, summary="Mail the team")
@public
@contact_throttle
def contact():
    send_contact_message(json_body(), request.remote_addr)
    return jsonify(status=True), 201


@bp.get("/livechat/identity")
@documented(LivechatIdentity, summary="The live-chat widget's verified identity of the caller")
@shop_role("clerk")
def livechat_identity():
    return jsonify(livechat.identity(str(current_user.id)))
