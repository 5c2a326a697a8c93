"""What the site-wide /api routes answer, for the OpenAPI document."""

from __future__ import annotations

from pydantic import Field

from app.core.openapi import ApiModel


class TextEngine(ApiModel):
    """The engine the VIN scan reads printed text with (a ruhsat photo), in this process."""

    name: str = Field(examples=["Tesseract"])
    version: str = Field(examples=["5.5.4"])
    binding: str = Field(examples=["tesserocr 2.13.0"])


class Health(ApiModel):
    """200 when the database and Redis answer, else 503 with the same body naming what is down."""

    status: str = Field(examples=["ok", "degraded"])
    database: str = Field(examples=["ok", "down"])
    redis: str = Field(examples=["ok", "down"])
    worker: str = Field(examples=["ok", "down", "unknown"])
    not_configured: list[str] = Field(
        default_factory=list,
        description="Production only (PRODUCTION=true): the optional settings left empty, each a feature that is off.",
        examples=[["POSTHOG_API_KEY", "CAPTCHA_SECRET"]],
    )
    text_engine: TextEngine | None = Field(
        description="Informational: null when no text engine loaded (a photo's barcodes are still read, its text not).",
    )


class ContactBody(ApiModel):
    name: str = Field(max_length=100)
    email: str = Field(max_length=254)
    message: str = Field(max_length=5000, description="At least 10 characters.")
    captcha_token: str | None = Field(None, description="Checked with the captcha provider when a secret is set.")


class LivechatIdentity(ApiModel):
    enabled: bool = Field(description="False when no identity secret is set: nothing to verify.")
    user_id: str | None
    hash: str | None = Field(description="HMAC-SHA256 of the user id, hex.")
