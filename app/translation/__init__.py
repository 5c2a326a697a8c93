"""EN→TR translation of catalog text: the builtin dictionary, the rule-based translator and admin terms."""

from flask import Blueprint

from app.translation.dictionary import Term, builtin_terms
from app.translation.translator import (
    RateLimitedError,
    Translation,
    TranslationProvider,
    Translator,
    default_translator,
)

__all__ = [
    "RateLimitedError",
    "Term",
    "Translation",
    "TranslationProvider",
    "Translator",
    "builtin_terms",
    "default_translator",
]


def blueprints() -> list[Blueprint]:
    """The domain's blueprints, registered in this order (imported here so that a model import loads no route)."""
    from app.translation import api, views

    return [api.bp, views.bp]
