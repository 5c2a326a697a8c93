"""The price a part line starts with: the dealer's shelf price for its OEM number (app.shelf.lookup), when his list
has it; None otherwise, for the clerk to type.

The price is that of the list's row answering to the part's own number (its OEM number, an own code or aftermarket
number of that row). A row the part's number replaces is an older part: its price is not this part's, so then the
price is that of the chain's current row, when the list has it. A price in another currency than TRY is left for the
clerk (no exchange rate is guessed).
"""

from __future__ import annotations

import uuid
from decimal import Decimal

from app.core.text import fold_code
from app.shelf.lookup import ShelfHit, ShelfRow, shelf_for


def shelf_price(user_id: uuid.UUID, oem_code: str | None) -> Decimal | None:
    """The dealer's price of the part, in lira; None without a list, a match or a price in TRY."""
    if not oem_code:
        return None
    hit = shelf_for(user_id, [oem_code]).get(fold_code(oem_code))
    row = _priced_row(hit) if hit is not None else None
    if row is None or row.price is None or (row.currency or "TRY").upper() != "TRY":
        return None
    return row.price


def _priced_row(hit: ShelfHit) -> ShelfRow | None:
    if hit.kind != "replaces":
        return hit.row
    return hit.current.row if hit.current is not None else None
