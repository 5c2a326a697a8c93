"""What the /api/shop/keys routes read and answer, for the OpenAPI document (routes check their input themselves)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from app.core.openapi import ApiModel


class ShopApiKeyItem(ApiModel):
    id: int
    name: str
    role: str = Field(examples=["clerk", "manager"])
    prefix: str = Field(description="The key's first characters, to recognise it by (the key is never shown again).")
    created_by: str = Field(description="The name of the member who made it.")
    created_at: str
    expires_at: str | None
    last_used_at: str | None = Field(description="Kept to the minute: written at most once a minute.")
    revoked_at: str | None
    live: bool = Field(description="Neither revoked nor expired.")


class ShopApiKeyList(ApiModel):
    keys: list[ShopApiKeyItem]


class NewShopApiKeyBody(ApiModel):
    name: str = Field(max_length=80, examples=["Muhasebe entegrasyonu"])
    role: Literal["clerk", "manager"]
    expires_on: str | None = Field(None, description="The last day the key works (YYYY-MM-DD, UTC); none: no expiry.")


class NewShopApiKey(ApiModel):
    key: ShopApiKeyItem
    secret: str = Field(description="The key itself (pb_...): shown in this answer only, keep it now.")


class RevokedShopApiKey(ApiModel):
    key: ShopApiKeyItem
