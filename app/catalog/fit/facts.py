"""What is known of one vehicle: every fact optional, an unknown fact stays None and is never guessed."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType

# Fact names, shared by the rules, the evaluator's reasons and the questions (and so by the API and the UI).
OPTION_PREFIX = "option:"  # "option:1KD": is option (PR) code 1KD fitted
BUILD_DATE = "build_date"
MODEL_YEAR = "model_year"
MODEL_CODE = "model_code"
ENGINE_CODE = "engine_code"
GEARBOX_CODE = "gearbox_code"
GEARBOX_KIND = "gearbox_kind"  # MANUAL or AUTOMATIC
BODY_STYLE = "body_style"
DOORS = "doors"
MARKET = "market"
DRIVE_SIDE = "drive_side"  # LHD or RHD
BRAKE_CODE = "brake_code"
AIRCON = "aircon"
AWD = "awd"
PLANT = "plant"  # the VIN's plant letter (position 11)
# The catalog API's criteria string for the car: a part it lists only without the criteria is not for this car.
CRITERIA = "criteria"

MANUAL, AUTOMATIC = "MANUAL", "AUTOMATIC"
LHD, RHD = "LHD", "RHD"


@dataclass(frozen=True, order=True)
class BuildDate:
    """A month of production, ordered in time."""

    year: int
    month: int

    def __post_init__(self) -> None:
        if not 1 <= self.month <= 12:
            raise ValueError(f"month out of range: {self.month}")

    def shifted(self, months: int) -> BuildDate:
        """The month `months` later (earlier when negative)."""
        index = self.year * 12 + self.month - 1 + months
        return BuildDate(index // 12, index % 12 + 1)

    def __str__(self) -> str:
        return f"{self.year:04d}-{self.month:02d}"


FactValue = str | int | bool | BuildDate


def option_fact(code: str) -> str:
    """The fact name of an option code: "option:1KD"."""
    return OPTION_PREFIX + normalized(code)


def normalized(value: FactValue) -> FactValue:
    """Codes compare without case or surrounding blanks; other values as they are."""
    return value.strip().upper() if isinstance(value, str) else value


@dataclass(frozen=True)
class VehicleFacts:
    """A vehicle's facts from its sources, plus the answers a dealer gave to questions.

    `option_codes` holds the option codes known fitted (None: no option list at all). With `option_list_complete` an
    absent code is known not fitted; an incomplete list leaves it unknown. `answers` (fact name -> value) count as
    known facts where the sources left the fact unknown: a source's fact is not overridden, so a question is only ever
    asked, and its answer only ever used, for a fact no source gave.
    """

    option_codes: frozenset[str] | None = None
    option_list_complete: bool = False
    build_date: BuildDate | None = None
    model_year: int | None = None
    model_code: str | None = None
    engine_code: str | None = None
    gearbox_code: str | None = None
    gearbox_kind: str | None = None
    body_style: str | None = None
    doors: int | None = None
    market: str | None = None
    drive_side: str | None = None
    brake_code: str | None = None
    aircon: bool | None = None
    awd: bool | None = None
    plant: str | None = None
    criteria: str | None = None
    answers: Mapping[str, FactValue] = field(default_factory=dict, hash=False)

    def __post_init__(self) -> None:
        if self.option_codes is not None:
            object.__setattr__(self, "option_codes", frozenset(str(normalized(code)) for code in self.option_codes))
        frozen = {name: normalized(value) for name, value in self.answers.items()}
        object.__setattr__(self, "answers", MappingProxyType(frozen))

    def known(self, fact: str) -> FactValue | None:
        """The value of a fact, or None when nothing tells it."""
        value = self._from_sources(fact)
        if value is None:
            value = self.answers.get(fact)
        return value

    def with_answer(self, fact: str, value: FactValue) -> VehicleFacts:
        """These facts with one more answered question (a changed answer replaces the old one)."""
        return replace(self, answers={**self.answers, fact: value})

    def _from_sources(self, fact: str) -> FactValue | None:
        if fact.startswith(OPTION_PREFIX):
            return self._option(fact.removeprefix(OPTION_PREFIX))
        if fact in _SOURCE_FIELDS:
            value = getattr(self, fact)
            return None if value is None else normalized(value)
        return None

    def _option(self, code: str) -> bool | None:
        if self.option_codes is None:
            return None
        if code in self.option_codes:
            return True
        return False if self.option_list_complete else None


_SOURCE_FIELDS = frozenset(
    {
        BUILD_DATE,
        MODEL_YEAR,
        MODEL_CODE,
        ENGINE_CODE,
        GEARBOX_CODE,
        GEARBOX_KIND,
        BODY_STYLE,
        DOORS,
        MARKET,
        DRIVE_SIDE,
        BRAKE_CODE,
        AIRCON,
        AWD,
        PLANT,
        CRITERIA,
    }
)
