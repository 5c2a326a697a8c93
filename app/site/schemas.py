"""What the site-wide /api routes answer, for the OpenAPI document."""

from __future__ import annotations

from pydantic import Field

from app.core.openapi import ApiModel


class Health(ApiModel):
    """200 when the database and Redis answer, else 503 with the same body naming what is down."""

    status: str = Field(examples=["ok", "degraded"])
    database: str = Field(examples=["ok", "down"])
    redis: str = Field(examples=["ok", "down"])
    worker: str = Field(examples=["ok", "down", "unknown"])
