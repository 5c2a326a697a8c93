"""The changelog under /api/changelog: the release automation writes (its token), signed-in users read."""

from __future__ import annotations

from flask import Blueprint, jsonify, request

from app.changelog import services
from app.changelog.schemas import AutomationHeaders, ChangelogBody, ChangelogCreated, ChangelogList, ChangelogQuery
from app.core.openapi import documented
from app.core.security import public, shop_role
from app.core.validation import int_arg, json_body

bp = Blueprint("changelog_api", __name__, url_prefix="/api/changelog")

TOKEN_HEADER = "X-Automation-Token"  # noqa: S105 - a header name


@bp.post("/internal")
@documented(
    ChangelogCreated,
    status=201,
    body=ChangelogBody,
    headers=AutomationHeaders,
    errors=(400, 401),
    public=True,
    summary="Create a changelog entry (release automation)",
)
@public
def create():
    services.check_automation_token(request.headers.get(TOKEN_HEADER))
    entry = services.create_entry(json_body())
    return jsonify(entry=services.entry_view(entry)), 201


@bp.get("")
@documented(ChangelogList, query=ChangelogQuery, summary="What changed, newest first")
@shop_role("clerk")
def entries():
    page = int_arg(request.args, "page", 1, maximum=10_000)
    items, more = services.entries(page)
    return jsonify(items=[services.entry_view(item) for item in items], page=page, hasMore=more)
