"""Admin JSON routes under /api/admin (role admin)."""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from app.accounts.services import create_user
from app.admin.schemas import CreatedUser, CreateUserBody, ServiceTestBody, ServiceTestResult
from app.admin.source_probe import CHOICES, run_service_test
from app.auth.serialisers import user_json
from app.core.errors import ApiError
from app.core.openapi import documented
from app.core.security import requires_role
from app.core.validation import json_body, text_field
from app.vehicles.answers import normalize_vin

bp = Blueprint("admin_api", __name__, url_prefix="/api/admin")


@bp.post("/users")
@documented(CreatedUser, status=201, body=CreateUserBody, errors=(409,), summary="Create a user")
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


@bp.post("/service-test")
@documented(ServiceTestResult, body=ServiceTestBody)
@requires_role("admin")
def service_test():
    """Ask one decode source, or the whole chain, about a VIN; writes nothing."""
    data = json_body()
    vin = normalize_vin(data.get("vin"))
    source = text_field(data, "source", _l("Source"), max_length=20)
    if source not in CHOICES:
        raise ApiError("invalid_source", _("Choose a source: %(choices)s.", choices=", ".join(CHOICES)), 400)
    reports = run_service_test(vin, source, current_app.config)
    return jsonify(vin=vin, source=source, results=[report.to_json() for report in reports])
