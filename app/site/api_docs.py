"""The OpenAPI document of /api and a page to read it: /api/openapi.json and /api/docs (public)."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, render_template

from app.core.openapi import openapi_document
from app.core.security import public

bp = Blueprint("api_docs", __name__, url_prefix="/api")


@bp.get("/openapi.json")
@public
def openapi_json() -> Response:
    """The generated OpenAPI 3.1 document of every /api route."""
    return jsonify(openapi_document())


@bp.get("/docs")
@public
def docs() -> str:
    """Swagger UI (vendored, started by a static script) over the document."""
    return render_template("site/api_docs.html")
