"""What the changelog routes read and answer, for the OpenAPI document."""

from __future__ import annotations

from pydantic import Field

from app.core.openapi import ApiModel


class ChangelogBody(ApiModel):
    title: str = Field(max_length=200)
    body: str | None = Field(None, max_length=5000)
    change_type: str = Field(examples=["feature", "improvement", "fix", "security", "catalog"])
    version: str | None = Field(None, max_length=40)


class AutomationHeaders(ApiModel):
    token: str = Field(alias="X-Automation-Token", description="Equal to CHANGELOG_AUTOMATION_TOKEN.")


class ChangelogEntryOut(ApiModel):
    id: int
    title: str
    body: str
    change_type: str
    version: str | None
    created_at: str


class ChangelogCreated(ApiModel):
    entry: ChangelogEntryOut


class ChangelogList(ApiModel):
    items: list[ChangelogEntryOut]
    page: int
    has_more: bool


class ChangelogQuery(ApiModel):
    page: int = Field(1, ge=1)
