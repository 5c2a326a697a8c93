"""The fields a provider event's handler reads, declared next to the handler and checked before anything changes.

A signed event is trusted to come from the provider, not to have the shape we expect: a field we read may be missing,
of another type, or a number we cannot store. Each handled event type declares its `Shape` (field name -> `Field`);
`shape_problem` names the first field that does not fit, so the webhook can refuse the event with a 400.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from app.core.validation import ID_MAX, UNSTORABLE

TEXT_MAX_LENGTH = 255  # provider ids go to 255-character columns
# Amounts land in integer columns (int4 on PostgreSQL); a larger count would fail the write instead of the check.
COUNT_MAX = ID_MAX


def is_text(value: Any, max_length: int = TEXT_MAX_LENGTH) -> bool:
    """Text we may store: not empty, not too long, and with no NUL or lone surrogate (no database takes them)."""
    return isinstance(value, str) and 0 < len(value) <= max_length and not UNSTORABLE.search(value)


def is_count(value: Any) -> bool:
    """A whole number of kuruş we may store: an int (a JSON true is no number), from 0 to COUNT_MAX."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= COUNT_MAX


@dataclass(frozen=True)
class Field:
    """One field a handler reads: what it must be, whether it may be absent or null, and its own fields if any."""

    kind: str
    accepts: Callable[[Any], bool]
    required: bool = True
    fields: Shape | None = None  # an object's fields, or those of each object in a list


Shape = Mapping[str, Field]


class EventHandler(NamedTuple):
    """What a handled event type does with its data.object, and the fields of it that it reads."""

    apply: Callable[[dict[str, Any]], None]
    reads: Shape


def text(*, required: bool = True) -> Field:
    return Field("text", is_text, required)


def count(*, required: bool = True) -> Field:
    return Field("a whole number from 0", is_count, required)


def obj(fields: Shape | None = None, *, required: bool = True) -> Field:
    return Field("an object", lambda value: isinstance(value, dict), required, fields)


def objects(fields: Shape, *, required: bool = True) -> Field:
    """A list whose every item is an object of `fields`."""
    return Field("a list", lambda value: isinstance(value, list), required, fields)


def shape_problem(value: dict[str, Any], shape: Shape, path: str) -> str | None:
    """What in `value` does not fit `shape` (the first such field, with its path), else None."""
    for name, field in shape.items():
        where = f"{path}.{name}"
        item = value.get(name)
        if item is None:
            if field.required:
                return f"{where} is missing"
            continue
        if not field.accepts(item):
            return f"{where} is not {field.kind}"
        if field.fields is not None:
            problem = _nested_problem(item, field.fields, where)
            if problem is not None:
                return problem
    return None


def _nested_problem(item: Any, fields: Shape, where: str) -> str | None:
    if isinstance(item, dict):
        return shape_problem(item, fields, where)
    for index, element in enumerate(item):
        if not isinstance(element, dict):
            return f"{where}[{index}] is not an object"
        problem = shape_problem(element, fields, f"{where}[{index}]")
        if problem is not None:
            return problem
    return None
