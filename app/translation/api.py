"""Admin JSON routes of the catalog dictionary under /api/admin/translations (role admin)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, request
from flask_babel import lazy_gettext as _l
from flask_login import current_user

from app.catalog import name_translation, translation_gaps
from app.core.openapi import documented
from app.core.security import requires_role
from app.core.validation import json_body, text_field
from app.translation import glossary
from app.translation.admin import add_term, remove_term, term_json
from app.translation.schemas import RemovedTerm, SavedTerm, TermBody, Terms, Untranslated, UntranslatedQuery

bp = Blueprint("translation_api", __name__, url_prefix="/api/admin/translations")

MAX_LIMIT = 500


@bp.get("/untranslated")
@documented(Untranslated, query=UntranslatedQuery)
@requires_role("admin")
def untranslated():
    """The words the dictionary does not know, by how many stored names hold them."""
    limit = max(1, min(request.args.get("limit", 100, type=int) or 100, MAX_LIMIT))
    return jsonify(translation_gaps.untranslated(limit))


@bp.get("/terms")
@documented(Terms)
@requires_role("admin")
def terms():
    """The terms admins added to the dictionary."""
    return jsonify(terms=[term_json(term) for term in glossary.terms()])


@bp.post("/terms")
@documented(SavedTerm, status=201, body=TermBody)
@requires_role("admin")
def save_term():
    """Add a term (or change the one with the same English); stored names are re-translated in the background."""
    data = json_body()
    saved = add_term(
        english=text_field(data, "english", _l("English"), max_length=glossary.TERM_MAX_LENGTH),
        turkish=text_field(data, "turkish", _l("Turkish"), max_length=glossary.TERM_MAX_LENGTH),
        kind=text_field(data, "kind", _l("Kind"), max_length=10, required=False) or "noun",
        author=current_user.id,
    )
    return jsonify(_with_retranslation(saved)), 201


@bp.delete("/terms/<int:term_id>")
@documented(RemovedTerm, errors=(404,))
@requires_role("admin")
def delete_term(term_id: int):
    """Remove an added term; stored names are re-translated in the background."""
    return jsonify(_with_retranslation(remove_term(term_id)))


def _with_retranslation(answer: dict[str, Any]) -> dict[str, Any]:
    """The answer and the id of the job re-translating the stored names once the change commits (null: not queued)."""
    return {**answer, "retranslationJob": name_translation.queue_retranslation_on_commit()}
