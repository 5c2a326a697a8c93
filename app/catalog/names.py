"""Catalog names as a page or an answer shows them: in the request's language, from the stored upstream name and its
Turkish text (app.translation).

Turkish pages show the Turkish text; English pages show the upstream's English, or the Turkish where the upstream
wrote Turkish (the portal has no English). A name stored before it was translated shows as the upstream wrote it until
its tr- job has run. Answers carry both texts beside the shown one: `nameTr` and `nameEn` (null where the upstream
wrote Turkish), and `nameTrComplete`, false when the dictionary did not know every word (the page marks those).
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from flask_babel import get_locale

from app.sources.portal import REFERENCE_PHRASE
from app.translation import default_translator


def english_wanted() -> bool:
    return get_locale().language == "en"


def name_fields(row: Any, english: bool | None = None) -> dict[str, Any]:
    """`name` in the request's language, `nameTr`, `nameEn` and `nameTrComplete`, for an answer (`english` when the
    caller knows it already)."""
    english = english_wanted() if english is None else english
    return fields_of(row.name, row.name_lang, row.name_tr, row.name_tr_complete, english)


def fields_of(name: str, name_lang: str, name_tr: str | None, complete: bool, english: bool) -> dict[str, Any]:
    """`name_fields` from the stored name columns' values (a row read by position)."""
    return {
        "name": _shown(name, name_lang, name_tr, english),
        "nameTr": name_tr,
        "nameEn": name if name_lang == "en" else None,
        "nameTrComplete": bool(name_tr and complete),
    }


def _shown(name: str, name_lang: str, name_tr: str | None, english: bool) -> str:
    """The name in the request's language."""
    if english and name_lang == "en":
        return name
    return name_tr or name


def named(values: dict[str, Any], english: bool | None = None) -> dict[str, Any]:
    """`values` (an answer's row read by position) with its stored name columns (`name`, `name_lang`, `name_tr`,
    `name_tr_complete`) replaced by the answer's name fields."""
    stored = SimpleNamespace(**{key: values.pop(key) for key in STORED_KEYS})
    return {**values, **name_fields(stored, english)}


STORED_KEYS = ("name", "name_lang", "name_tr", "name_tr_complete")


def upstream_name(view: dict[str, Any]) -> str:
    """The name as the upstream wrote it, from an answer's name fields: what stays the same in every language and
    dictionary version (deep links are built from it)."""
    return view["nameEn"] or view["nameTr"] or view["name"]


def shown_label(shown: str, name: str, label: str, reference_code: str | None) -> str:
    """A part row's label in the request's language from its `shown` name and its stored `name`, `label` and
    `reference_code`: without the 'see table' phrasing on a reference row (the upstreams keep that phrasing in Turkish
    in every language)."""
    if shown == name:
        return label
    return " ".join(REFERENCE_PHRASE.sub("", shown).strip(" ,;").split()) if reference_code else shown


def shown_remark(remark: str | None, name_lang: str, english: bool) -> str | None:
    """A part row's remark ("from 05.2016", "M8x20") in the request's language: an English one is translated as it is
    shown, with the builtin dictionary (remarks are few and short, and are not stored twice)."""
    if not remark or english or name_lang != "en":
        return remark
    return default_translator().translate(remark).text
