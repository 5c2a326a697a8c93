"""Turkish names for the stored catalog: the columns a stored name gets, and the dictionary in force.

The dictionary in force is the builtin one (app.translation.dictionary) with the terms admins added; its version
changes with either, and every stored English name records the version that translated it, so the tr- jobs
(app.catalog.name_translation) know which names a dictionary change left behind.
"""

from __future__ import annotations

import importlib
import threading
from typing import Any

import sqlalchemy as sa
from flask import current_app

from app.extensions import db
from app.translation import Term, TranslationProvider, Translator
from app.translation.models import TranslationTerm

# The upstreams that write Turkish; the others write English.
TURKISH_SOURCES = frozenset({"portal"})
# The translation_version of a name the upstream wrote in Turkish.
SOURCE_VERSION = "source"
NAME_TR_LENGTH = 400  # the name_tr columns' length

_cache_lock = threading.Lock()
_cached: tuple[Any, Translator] | None = None


def source_language(source: str) -> str:
    return "tr" if source in TURKISH_SOURCES else "en"


def current_translator() -> Translator:
    """The builtin dictionary with the admins' terms, built again only when those terms changed."""
    global _cached
    stamp = tuple(db.session.execute(sa.select(sa.func.count(), sa.func.max(TranslationTerm.updated_at))).one())
    with _cache_lock:
        if _cached is not None and _cached[0] == stamp:
            return _cached[1]
    translator = Translator(admin_terms())
    with _cache_lock:
        _cached = (stamp, translator)
    return translator


def job_translator() -> Translator:
    """The translator of the tr- jobs: the dictionary in force, with the machine-translation provider when one is
    configured (never on a request's path: it may be slow or rate limited)."""
    provider = configured_provider()
    if provider is None:
        return current_translator()
    return Translator(admin_terms(), provider=provider)


def configured_provider() -> TranslationProvider | None:
    path = current_app.config["TRANSLATION_PROVIDER"]
    if not path:
        return None
    module, _, factory = path.partition(":")
    return getattr(importlib.import_module(module), factory)(current_app.config)


def admin_terms() -> list[Term]:
    return [
        Term(term.english, term.turkish, term.kind, term.possessive)
        for term in db.session.scalars(sa.select(TranslationTerm).order_by(TranslationTerm.id))
    ]


def name_columns(name: str, language: str, translator: Translator) -> dict[str, Any]:
    """A stored name's language columns: a Turkish name is its own Turkish text; an English one is translated."""
    if language == "tr":
        return {"name_lang": "tr", "name_tr": name, "name_tr_complete": True, "translation_version": SOURCE_VERSION}
    translation = translator.translate(name)
    return {
        "name_lang": "en",
        "name_tr": translation.text[:NAME_TR_LENGTH],
        "name_tr_complete": translation.complete,
        "translation_version": translator.version,
    }
