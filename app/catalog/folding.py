"""Search keys for catalog text: Turkish case folding (`app.core.text.fold`), and OEM codes without their separators.

Stored names and typed queries go through the same function, so a search compares like with like. The folded copies
live in indexed columns (`search_name`, `search_code`) filled when a row is inserted, whoever inserts it.
"""

from __future__ import annotations

from typing import Any

from app.core.text import fold, fold_code

SEARCH_NAME_LENGTH = 300  # the search_name columns' length


def fold_names(name: str, name_tr: str | None) -> str:
    """A row's name search key: its Turkish text and its upstream name, so a search in either language finds it. Cut
    to the column's length: only names of more than about 150 characters lose the end of their English."""
    if not name_tr or name_tr == name:
        return fold(name)[:SEARCH_NAME_LENGTH]
    return f"{fold(name_tr)} | {fold(name)}"[:SEARCH_NAME_LENGTH]


def folded_name(context: Any) -> str:
    """Column default: the search key of the row's `name` and `name_tr`."""
    return fold_names(_row_value(context, "name"), _row_value(context, "name_tr"))


def folded_code(context: Any) -> str:
    """Column default: the search key of the row's `oem_code`."""
    return fold_code(_row_value(context, "oem_code"))


def _row_value(context: Any, key: str) -> str:
    """The value the row being inserted gives to `key` (single-row inserts; the store's bulk inserts give the search
    keys themselves)."""
    return context.get_current_parameters().get(key) or ""
