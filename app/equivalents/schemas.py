"""The equivalents API's models for the OpenAPI document (the routes read and answer by hand; app.core.openapi)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from app.core.openapi import ApiModel

Relation = Literal["same", "replaces", "replaced_by", "part_of", "contains"]
Source = Literal["catalog", "supplier", "shelf", "member"]


class EquivalentLinkOut(ApiModel):
    id: int
    from_: str = Field(alias="from", description="The group's number the link starts from (folded, upper case).")
    relation: Relation = Field(description="What the equivalent is to that number.")
    relation_label: str = Field(description="The relation in the reader's language (Turkish first).")
    source: Source
    source_label: str = Field(description="Where the link came from, in the reader's language.")
    own: bool = Field(description="The shop's own link (its stock list, suppliers, members), not the catalog's.")


class EquivalentOut(ApiModel):
    number: str = Field(description="The equivalent's number as its source wrote it.")
    key: str = Field(description="Its search key (letters and digits, lower case).")
    brand: str | None
    depth: int = Field(description="Links from the asked number.")
    relation: Relation
    relation_label: str
    source: Source
    source_label: str
    rejected: bool = Field(description="The shop rejected this link: it is not followed.")
    links: list[EquivalentLinkOut]


class EquivalentGroupOut(ApiModel):
    number: str = Field(description="The asked number, folded.")
    equivalents: list[EquivalentOut] = Field(description="Same part and the supersession chain, nearest first.")
    parts: list[EquivalentOut] = Field(description="Part of / contains links of the group's numbers (not followed).")
    truncated: bool = Field(description="The group is larger than one answer holds.")


class EquivalentLinkBody(ApiModel):
    a: str = Field(max_length=60, description="A part number as written.")
    b: str = Field(max_length=60, description="The other part number.")
    type: Literal["same", "replaces", "part_of"] = Field(
        "same", description="a is the same part as b, replaces b, or is part of b."
    )
    a_brand: str | None = Field(None, max_length=80)
    b_brand: str | None = Field(None, max_length=80)


class EquivalentLinkConfirmed(ApiModel):
    id: int
    a: str
    b: str
    type: Literal["same", "replaces", "part_of"]
    rejected: bool
