"""An admin's dictionary term, saved or removed (the route and the page share this). The routes then queue the
re-translation of the stored names (app.catalog.name_translation): the catalog's rows, not this domain's."""

from __future__ import annotations

import uuid
from typing import Any

from flask_babel import gettext as _

from app.core.errors import ApiError
from app.extensions import db
from app.translation import glossary
from app.translation.models import TranslationTerm


def add_term(english: str, turkish: str, kind: str, author: uuid.UUID | None) -> dict[str, Any]:
    """Save the term (flushed; the caller commits)."""
    term = glossary.save_term(english, turkish, kind, author)
    return {"term": term_json(term)}


def remove_term(term_id: int) -> dict[str, Any]:
    """Delete an admin's term (flushed; the caller commits)."""
    term = db.session.get(TranslationTerm, term_id)
    if term is None:
        raise ApiError("term_not_found", _("No such term."), 404)
    db.session.delete(term)
    db.session.flush()
    return {"status": True}


def term_json(term: TranslationTerm) -> dict[str, Any]:
    return {
        "id": term.id,
        "english": term.english,
        "turkish": term.turkish,
        "kind": term.kind,
        "createdAt": term.created_at.isoformat(),
    }
