"""A part's applicability as a small expression tree: leaves test one fact, `All`, `Any` and `Not` combine them.

`NotUnderstood` stands for a rule the parsers could not read; the evaluator answers it with maybe.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.catalog.fit.facts import BuildDate, FactValue, normalized, option_fact


@dataclass(frozen=True)
class OneOf:
    """The fact has one of these values."""

    fact: str
    values: frozenset[FactValue]

    def __post_init__(self) -> None:
        object.__setattr__(self, "values", frozenset(normalized(value) for value in self.values))


@dataclass(frozen=True)
class DateRange:
    """The build date lies between start and end, both months included; an open end is None."""

    start: BuildDate | None = None
    end: BuildDate | None = None


@dataclass(frozen=True)
class NotUnderstood:
    """A rule the parsers could not read: no fact settles it, so it keeps the part a maybe."""

    text: str


@dataclass(frozen=True)
class All:
    """Every condition holds (no conditions: it holds)."""

    items: tuple[Condition, ...] = ()


@dataclass(frozen=True)
class Any:
    """At least one condition holds (no conditions: none does)."""

    items: tuple[Condition, ...] = ()


@dataclass(frozen=True)
class Not:
    """The condition does not hold."""

    item: Condition


Condition = OneOf | DateRange | NotUnderstood | All | Any | Not


def fact_is(fact: str, value: FactValue) -> OneOf:
    """The fact has this value."""
    return OneOf(fact, frozenset({value}))


def has_option(code: str) -> OneOf:
    """Option code `code` is fitted."""
    return fact_is(option_fact(code), True)
