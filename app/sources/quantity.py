"""How many of a part a drawing's row takes, read from whatever an upstream writes there.

Catalogs write a count ("2"), a count with a mark or a unit ("2x", "2 St.", "2 Stk", "2 pcs", "2 adet"), a whole number
as a decimal ("2,0"), or something that is no count at all: "as needed", "X", "NB", a fraction of a fluid ("1,5"),
a range, an empty cell. The first kinds give a positive whole number; everything else gives None (shown empty),
never an exception: a row is worth more than its quantity.
"""

from __future__ import annotations

import re

MAX_QUANTITY = 9999  # more is no count of parts in one drawing but a misread number (a date, a code)

_COUNT = re.compile(
    r"""
    (?:x\s*)?                      # "x2", as some catalogs write it
    (?P<count>\d{1,4})
    (?:[.,]0+)?                    # "2,0" / "2.0": a whole number written as a decimal
    \s*
    (?:x|×|st(?:k|ck|[üÜ]ck)?\.?|pcs?\.?|pieces?|adet|ad\.?)?   # the mark or the unit of a count
    """,
    re.IGNORECASE | re.VERBOSE | re.ASCII,  # ASCII: "\d" is 0-9 only, not every script's digits
)


def parse_quantity(value: object) -> int | None:
    """A positive whole number of parts from an upstream's quantity (a JSON number or the text of a cell), else None."""
    if isinstance(value, bool):  # a JSON true is no count
        return None
    if isinstance(value, int):
        count = value
    elif isinstance(value, float):
        if not value.is_integer():  # also NaN and infinities
            return None
        count = int(value)
    elif isinstance(value, str):
        match = _COUNT.fullmatch(value.strip())
        if match is None:
            return None
        count = int(match.group("count"))
    else:
        return None
    return count if 0 < count <= MAX_QUANTITY else None
