"""Admin JSON routes under /api/admin (role admin)."""

from __future__ import annotations

from flask import Blueprint, jsonify
from flask_babel import lazy_gettext as _l

from app.accounts.services import create_user
from app.auth.api import user_json
from app.auth.guards import requires_role
from app.core.validation import json_body, text_field

bp = Blueprint("admin_api", __name__, url_prefix="/api/admin")


@bp.post("/users")
@requires_role("admin")
def create_user_route():
    data = json_body()
    user = create_user(
        email=text_field(data, "email", _l("E-mail"), max_length=254),
        name=text_field(data, "name", _l("Name"), max_length=100),
        password=text_field(data, "password", _l("Password"), max_length=128),
        role=text_field(data, "role", _l("Role"), max_length=20, required=False) or "user",
        email_verified=True,
    )
    return jsonify(user=user_json(user)), 201
