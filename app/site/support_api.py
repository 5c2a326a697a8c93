"""The visitor's ways to reach the team, as JSON: the contact form and the live-chat widget's identity."""

from __future__ import annotations

from flask import Blueprint, jsonify, request
from flask_limiter.util import get_remote_address
from flask_login import current_user

from app.core import throttle
from app.core.openapi import StatusTrue, documented
from app.core.security import public
from app.core.validation import json_body
from app.extensions import limiter
from app.site import livechat
from app.site.contact import send_contact_message
from app.site.schemas import ContactBody, LivechatIdentity

bp = Blueprint("site_support_api", __name__, url_prefix="/api")

contact_throttle = limiter.limit(throttle.setting("CONTACT_RATE_LIMIT"), key_func=get_remote_address, scope="contact")


@bp.post("/contact")
@documented(StatusTrue, status=201, body=ContactBody, errors=(400, 403, 429, 503), public=True, summary="Mail the team")
@public
@contact_throttle
def contact():
    send_contact_message(json_body(), request.remote_addr)
    return jsonify(status=True), 201


@bp.get("/livechat/identity")
@documented(LivechatIdentity, summary="The live-chat widget's verified identity of the caller")
def livechat_identity():
    return jsonify(livechat.identity(str(current_user.id)))
