"""What the shelf lookup answers (GET /api/shelf/lookup) and what a catalog part row carries of the dealer's list
(`PartOut.shelf`), for the OpenAPI document."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from app.core.openapi import ApiModel

Price = str | None
PRICE_TEXT = 'A decimal string with two places ("1250.50"); null when the list gives no price.'


class ShelfMatched(ApiModel):
    number: str = Field(description="The number that matched: as asked, or for `replaces` the replaced row's number.")
    kind: Literal["oem", "own", "aftermarket", "replaces"] = Field(
        description="How the list's row answers to it: its OEM number, the dealer's own code, one of its aftermarket "
        "numbers, or replaces: the row (an older part) is replaced by the asked number."
    )


class ShelfCurrent(ApiModel):
    """The end of the row's replacement chain (A -> B -> C), with its stock and price when the list carries it."""

    number: str
    stock: int | None
    price: Price = Field(description=PRICE_TEXT)
    currency: str | None
    own_code: str | None


class ShelfOut(ApiModel):
    """The dealer's list row for a part: stock, price and own code; which number matched; the current number."""

    stock: int | None
    price: Price = Field(description=PRICE_TEXT)
    currency: str = Field(description='ISO 4217, "TRY" unless the list names another.')
    own_code: str | None = Field(description="The dealer's own code (stock code) of the row.")
    oem_code: str | None = Field(description="The row's OEM number, as the list writes it.")
    brand: str | None
    name: str | None
    matched: ShelfMatched
    current: ShelfCurrent | None = Field(description="Null when the list does not say the row is replaced.")


class ShelfLookupQuery(ApiModel):
    number: str = Field(
        max_length=100,
        description="A part number as typed: OEM, own code or aftermarket; spaces, dashes, dots and case ignored.",
    )


class ShelfLookup(ShelfOut):
    search_key: str = Field(description="The number's search key: letters and digits, lower case.")
