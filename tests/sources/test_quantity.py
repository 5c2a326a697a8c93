"""A part row's quantity as the upstreams write it: a positive count, or None for anything that is none, never an
exception."""

from __future__ import annotations

import pytest

from app.sources.quantity import MAX_QUANTITY, parse_quantity


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (2, 2), (1, 1), (2.0, 2), ("2", 2), (" 4 ", 4), ("2x", 2), ("2 x", 2), ("2X", 2), ("x2", 2), ("2×", 2),
        ("2 St.", 2), ("2 Stk", 2), ("2 Stück", 2), ("2 STÜCK", 2), ("2 pcs", 2), ("2 pc.", 2), ("2 adet", 2),
        ("2 Ad.", 2), ("2,0", 2), ("2.0", 2), ("12", 12), (str(MAX_QUANTITY), MAX_QUANTITY),
    ],
)  # fmt: skip
def test_counts_are_read_with_their_marks_and_units(value, expected):
    assert parse_quantity(value) == expected


@pytest.mark.parametrize(
    "value",
    [
        None, "", "   ", "as needed", "X", "NB", "n.B.", "1,5", "1.5", 1.5, "0", 0, "-1", -1, "2-4", "2 2", "St. 2",
        "abc", "2 litres", str(MAX_QUANTITY + 1), MAX_QUANTITY + 1, "٣", "²", True, False, float("nan"),
        float("inf"), [2], {"count": 2}, b"2",
    ],
)  # fmt: skip
def test_anything_else_is_no_quantity(value):
    assert parse_quantity(value) is None
