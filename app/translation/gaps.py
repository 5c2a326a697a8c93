"""The words the dictionary does not know, as the admin's translation page lists them, and the terms admins add.

Counted from the stored names the dictionary could not translate whole: each unknown word with the number of stored
rows (categories and parts) whose name holds it and a few of those names. A term an admin adds takes effect for new
names at once and for stored ones through the tr- jobs it queues.
"""

from __future__ import annotations

import re
import uuid
from collections import Counter
from typing import Any

import sqlalchemy as sa
from flask_babel import gettext as _

from app.catalog.models import Category, Part
from app.core.errors import ApiError
from app.extensions import db
from app.translation import services as names
from app.translation.models import TERM_KINDS, TranslationTerm

SAMPLE_NAMES = 5
TERM_MAX_LENGTH = 120
# English terms as catalogs write them: letters, digits, spaces and a few joiners ("o-ring", "w/o", "pre-heater").
ENGLISH_TERM = re.compile(r"[a-z0-9][a-z0-9 '\-/.&]*")


def untranslated(limit: int = 100) -> dict[str, Any]:
    """The unknown words by how many stored rows hold them, each with some of those names."""
    translator = names.current_translator()
    rows: Counter[str] = Counter()
    samples: dict[str, list[str]] = {}
    for name, count in _incomplete_names():
        for token in translator.translate(name).unknown:
            rows[token] += count
            found = samples.setdefault(token, [])
            if len(found) < SAMPLE_NAMES:
                found.append(name)
    ranked = sorted(rows, key=lambda token: (-rows[token], token))
    return {
        "version": translator.version,
        "tokenCount": len(ranked),
        "tokens": [{"token": token, "rows": rows[token], "names": samples[token]} for token in ranked[:limit]],
    }


def _incomplete_names() -> list[tuple[str, int]]:
    """The distinct English names stored without a whole translation, with how many rows carry each."""
    counts: Counter[str] = Counter()
    for model in (Category, Part):
        query = (
            sa.select(model.name, sa.func.count())
            .where(model.name_lang == "en", sa.not_(model.name_tr_complete))
            .group_by(model.name)
        )
        counts.update(dict(db.session.execute(query).all()))
    return counts.most_common()


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
