"""The price a part line starts with: the dealer's shelf price for its OEM number (app.shelf.lookup), when his list
has it; None otherwise, for the clerk to type."""

from __future__ import annotations

import uuid
from decimal import Decimal


def shelf_price(user_id: uuid.UUID, oem_code: str | None) -> Decimal | None:
    """The dealer's price of the part, in lira; None without a list, a match or a price in TRY."""
    return None  # until app.shelf.lookup lands (issue 31, S2)
