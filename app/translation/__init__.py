"""EN→TR translation of catalog text: the builtin dictionary, the rule-based translator, admin terms and tr- jobs."""

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
