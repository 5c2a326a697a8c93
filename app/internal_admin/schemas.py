"""What the internal admin routes read and answer, for the OpenAPI document (the routes check their input
themselves)."""

from __future__ import annotations

from pydantic import Field

from app.core.openapi import ApiModel
from app.internal_admin.guard import AUTH_HEADER, FOUNDER_ID_MAX_LENGTH, REASON_MAX_LENGTH


class InternalHeaders(ApiModel):
    token: str = Field(alias=AUTH_HEADER, description="Equal to INTERNAL_API_TOKEN; compared in constant time.")


class ActorBody(ApiModel):
    founder_id: str = Field(max_length=FOUNDER_ID_MAX_LENGTH)
    reason: str = Field(max_length=REASON_MAX_LENGTH)


class CacheCleared(ApiModel):
    cleared_keys: list[str] = Field(description="The VIN's resolve, negative-resolve and lock keys that existed.")
    total_keys_checked: int


class VehicleDeleted(ApiModel):
    vehicle_id: int
    brand_name: str
    model: str
    source: str
    cascaded_user_links: int
