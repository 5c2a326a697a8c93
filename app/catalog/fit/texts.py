"""What the fit answers say, in the request's language (Turkish first, English with ?lang=en): fact names, values,
the reasons of a yes, no or maybe, the questions and the answers given to them.

A rule the parsers could not read is shown in Turkish through the catalog's dictionary (app.translation), as part
remarks are. Texts repeat across a vehicle's rows, so each is made once per language (`_cached`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask_babel import get_locale, ngettext
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from app.catalog.fit.evaluate import DIFFERS, MATCHES, NOT_STATED, NOT_UNDERSTOOD, PENDING, UNKNOWN
from app.catalog.fit.facts import (
    AIRCON,
    AUTOMATIC,
    AWD,
    BODY_STYLE,
    BRAKE_CODE,
    BUILD_DATE,
    CRITERIA,
    DOORS,
    DRIVE_SIDE,
    ENGINE_CODE,
    GEARBOX_CODE,
    GEARBOX_KIND,
    LHD,
    MANUAL,
    MARKET,
    MODEL_CODE,
    MODEL_YEAR,
    OPTION_PREFIX,
    PLANT,
    RHD,
)
from app.translation import default_translator

# The answer "none of the codes the catalog names" to a question on a code (an engine code, a brake code...).
OTHER = "other"

FACT_NAMES = {
    BUILD_DATE: _l("Build date"),
    MODEL_YEAR: _l("Model year"),
    MODEL_CODE: _l("Model code"),
    ENGINE_CODE: _l("Engine code"),
    GEARBOX_CODE: _l("Gearbox code"),
    GEARBOX_KIND: _l("Gearbox"),
    BODY_STYLE: _l("Body style"),
    DOORS: _l("Doors"),
    MARKET: _l("Market"),
    DRIVE_SIDE: _l("Steering side"),
    BRAKE_CODE: _l("Brake code"),
    AIRCON: _l("Air conditioning"),
    AWD: _l("All-wheel drive"),
    PLANT: _l("Plant"),
    CRITERIA: _l("Catalog criteria"),
}

QUESTIONS = {
    BUILD_DATE: _l("When was the vehicle built (month and year)?"),
    MODEL_YEAR: _l("What is the vehicle's model year?"),
    MODEL_CODE: _l("What is the vehicle's model code?"),
    ENGINE_CODE: _l("What is the vehicle's engine code?"),
    GEARBOX_CODE: _l("What is the vehicle's gearbox code?"),
    GEARBOX_KIND: _l("Is the gearbox manual or automatic?"),
    BODY_STYLE: _l("What is the vehicle's body style?"),
    DOORS: _l("How many doors does the vehicle have?"),
    MARKET: _l("Which market is the vehicle built for?"),
    DRIVE_SIDE: _l("Is the steering wheel on the left or on the right?"),
    BRAKE_CODE: _l("What is the vehicle's brake code?"),
    AIRCON: _l("Does the vehicle have air conditioning?"),
    AWD: _l("Does the vehicle have all-wheel drive?"),
    PLANT: _l("Which plant built the vehicle?"),
}

_CODE_VALUES = {
    MANUAL: _l("manual"),
    AUTOMATIC: _l("automatic"),
    LHD: _l("left-hand drive"),
    RHD: _l("right-hand drive"),
}

_cache: dict[tuple[str, Any], str] = {}
_CACHE_LIMIT = 50_000


def _cached(key: Any, make: Callable[[], str]) -> str:
    """`make()` once per language and key (the key must hold every input of the text)."""
    full = (str(get_locale()), key)
    text = _cache.get(full)
    if text is None:
        if len(_cache) > _CACHE_LIMIT:  # rule texts come from the catalogs: bound what they can fill
            _cache.clear()
        text = _cache[full] = make()
    return text


def fact_name(fact: str) -> str:
    if fact.startswith(OPTION_PREFIX):
        return _("Option %(code)s", code=fact.removeprefix(OPTION_PREFIX))
    name = FACT_NAMES.get(fact)
    return str(name) if name is not None else fact


def value_label(fact: str, value: Any) -> str:
    """A fact's value as a clerk reads it: "automatic", "06.2015", "with", "1KD"."""
    if isinstance(value, bool) or value in ("true", "false"):
        return _("with") if value is True or value == "true" else _("without")
    if isinstance(value, str) and value.upper() == OTHER.upper():  # answers are kept upper case, as codes
        return _("another one")
    if fact == BUILD_DATE and isinstance(value, str):
        return _month(value)
    label = _CODE_VALUES.get(value) if isinstance(value, str) else None
    return str(label) if label is not None else str(value)


def _month(value: str) -> str:
    """ "2015-06" as the catalogs write it: "06.2015"."""
    year, _sep, month = value.partition("-")
    return f"{month}.{year}" if month else value


def wanted_label(fact: str, wanted: str) -> str:
    """What a rule asks for (the evaluator's `wanted`: "A|B" values, or a build-date span "start..end")."""
    if fact == BUILD_DATE and ".." in wanted:
        start, _sep, end = wanted.partition("..")
        if start and end:
            return _("%(start)s to %(end)s", start=_month(start), end=_month(end))
        if start:
            return _("from %(start)s", start=_month(start))
        return _("up to %(end)s", end=_month(end))
    return _(" or ").join(value_label(fact, value) for value in wanted.split("|"))


def reason_text(code: str, fact: str | None, value: Any, wanted: str, negated: bool) -> str:
    """One reason as a sentence: "Gearbox: automatic required, the vehicle has manual"."""
    return _cached(("reason", code, fact, value, wanted, negated), lambda: _reason(code, fact, value, wanted, negated))


def _reason(code: str, fact: str | None, value: Any, wanted: str, negated: bool) -> str:
    if code == NOT_STATED:
        return _("Not known: the catalog gives no applicability for this part")
    if code == PENDING:
        return _("Not checked yet: this row's fit is being recomputed")
    if code == NOT_UNDERSTOOD or fact is None:
        return _("Rule not understood: %(rule)s", rule=_turkish(wanted))
    if fact == CRITERIA and code != UNKNOWN:
        listed = (code == MATCHES) != negated
        if listed:
            return _("The catalog lists this part for the vehicle's build data")
        return _("The catalog does not list this part for the vehicle's build data")
    words = {"fact": fact_name(fact), "wanted": wanted_label(fact, wanted)}
    if code == UNKNOWN:
        if negated:
            return _("%(fact)s not known (must not be %(wanted)s)", **words)
        return _("%(fact)s not known (%(wanted)s required)", **words)
    words["value"] = value_label(fact, value)
    if code == DIFFERS and not negated:
        return _("%(fact)s: %(wanted)s required, the vehicle has %(value)s", **words)
    if code == MATCHES and negated:
        return _("%(fact)s: must not be %(wanted)s, the vehicle has %(value)s", **words)
    return _("%(fact)s: %(value)s, as required", **words)


def _turkish(text: str) -> str:
    if str(get_locale()) == "en":
        return text
    return default_translator().translate(text).text


def question_text(fact: str) -> str:
    if fact.startswith(OPTION_PREFIX):
        return _("Does the vehicle have option %(code)s?", code=fact.removeprefix(OPTION_PREFIX))
    question = QUESTIONS.get(fact)
    return str(question) if question is not None else _("What is the vehicle's %(fact)s?", fact=fact_name(fact))


def answer_text(fact: str, value: Any) -> str:
    """ "Gearbox: automatic"."""
    return _("%(fact)s: %(value)s", fact=fact_name(fact), value=value_label(fact, value))


def colleague_text(fact: str, value: Any, count: int) -> str:
    """Other shops' answer as an anonymous count: "2 other dealers: Air conditioning: yes" (never who)."""
    return ngettext("%(num)d other dealer: %(answer)s", "%(num)d other dealers: %(answer)s", count,
                    answer=answer_text(fact, value))  # fmt: skip


def option_label(fact: str, value: Any) -> str:
    """A question's option: Yes or No for a yes-or-no question, else the value's label."""
    if isinstance(value, bool):
        return _("Yes") if value else _("No")
    return _("Another one (not listed)") if value == OTHER else value_label(fact, value)
