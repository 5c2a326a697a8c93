"""Hypothesis strategies shared by the never-a-500 tests: any JSON value, and "this, or anything else"."""

from __future__ import annotations

from hypothesis import strategies as st

JSON_SCALARS = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20)
JSON_VALUES = st.recursive(
    JSON_SCALARS,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=10,
)


def maybe(strategy: st.SearchStrategy) -> st.SearchStrategy:
    """Mostly what a field should hold, sometimes any JSON value instead."""
    return strategy | JSON_VALUES
