"""An admin's dictionary term, saved and then applied to the stored names (the route and the page share this)."""

from __future__ import annotations

import logging
import uuid
from typing import Any

from flask_babel import gettext as _
from redis.exceptions import RedisError

from app.core.errors import ApiError
from app.extensions import db
from app.translation import glossary, tasks
from app.translation.models import TranslationTerm

log = logging.getLogger(__name__)


def add_term(english: str, turkish: str, kind: str, author: uuid.UUID | None) -> dict[str, Any]:
    """Save the term and queue the re-translation of the stored names for when it is committed."""
    term = glossary.save_term(english, turkish, kind, author)
    return {"term": term_json(term), "retranslationJob": queue_retranslation()}


def remove_term(term_id: int) -> dict[str, Any]:
    """Delete an admin's term and queue the re-translation of the names it translated for when that is committed."""
    term = db.session.get(TranslationTerm, term_id)
    if term is None:
        raise ApiError("term_not_found", _("No such term."), 404)
    db.session.delete(term)
    db.session.flush()
    return {"status": True, "retranslationJob": queue_retranslation()}


def queue_retranslation() -> str | None:
    """The re-translation job's id; None when it could not be queued (Redis down: `flask catalog retranslate` later)."""
    try:
        return tasks.queue_retranslation(on_commit=True)
    except RedisError as error:
        log.error("re-translation not queued: %s", error)
        return None


def term_json(term: TranslationTerm) -> dict[str, Any]:
    return {
        "id": term.id,
        "english": term.english,
        "turkish": term.turkish,
        "kind": term.kind,
        "createdAt": term.created_at.isoformat(),
    }
