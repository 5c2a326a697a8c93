"""The terms admins add to the dictionary (the glossary): a term takes effect for new names at once and for stored
ones through the tr- jobs it queues. The report of the words the dictionary does not know is the catalog's
(app.catalog.translation_gaps)."""

from __future__ import annotations

import re
import uuid

import sqlalchemy as sa
from flask_babel import gettext as _

from app.core.errors import ApiError
from app.extensions import db
from app.translation.models import TERM_KINDS, TranslationTerm

TERM_MAX_LENGTH = 120
# English terms as catalogs write them: letters, digits, spaces and a few joiners ("o-ring", "w/o", "pre-heater").
ENGLISH_TERM = re.compile(r"[a-z0-9][a-z0-9 '\-/.&]*")


def terms() -> list[TranslationTerm]:
    return list(db.session.scalars(sa.select(TranslationTerm).order_by(TranslationTerm.english)))


def save_term(english: str, turkish: str, kind: str, author: uuid.UUID | None) -> TranslationTerm:
    """Add a term, or change the one with the same English; validated first, flushed (the request commits)."""
    english, turkish = _english(english), _turkish(turkish)
    if kind not in TERM_KINDS:
        raise ApiError("invalid_term", _("Choose whether the term is a noun or a word that comes before one."), 400)
    term = db.session.scalar(sa.select(TranslationTerm).where(TranslationTerm.english == english))
    if term is None:
        term = TranslationTerm(english=english, turkish=turkish, kind=kind, created_by=author)
        db.session.add(term)
    else:
        term.turkish, term.kind = turkish, kind
    db.session.flush()
    return term


def _english(raw: str | None) -> str:
    text = " ".join((raw or "").split()).lower()
    if not text or len(text) > TERM_MAX_LENGTH or not ENGLISH_TERM.fullmatch(text):
        raise ApiError(
            "invalid_term",
            _(
                "Write the English term in Latin letters and digits, at most %(max)d characters.",
                max=TERM_MAX_LENGTH,
            ),
            400,
        )
    return text


def _turkish(raw: str | None) -> str:
    text = " ".join((raw or "").split())
    if not text or len(text) > TERM_MAX_LENGTH or not all(char.isprintable() for char in text):
        raise ApiError(
            "invalid_term", _("Write the Turkish term, at most %(max)d characters.", max=TERM_MAX_LENGTH), 400
        )
    return text
