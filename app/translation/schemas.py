"""What the admin translation routes read and answer, for the OpenAPI document."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import Field

from app.core.openapi import ApiModel


class UntranslatedQuery(ApiModel):
    limit: int = Field(default=100, ge=1, le=500, description="At most this many words (1 to 500, default 100).")


class UnknownToken(ApiModel):
    token: str = Field(description="A word the dictionary does not know, lower case.")
    rows: int = Field(description="Stored categories and part rows whose name holds it.")
    names: list[str] = Field(description="Some of those names, as the upstream wrote them.")


class Untranslated(ApiModel):
    version: str = Field(description="The dictionary version in force.")
    token_count: int
    tokens: list[UnknownToken] = Field(description="Most frequent first.")


class TermBody(ApiModel):
    english: str = Field(max_length=120, description="One or more English words, as catalogs write them.")
    turkish: str = Field(max_length=120, description="The Turkish base form (without the compound suffix).")
    kind: Literal["noun", "modifier"] = Field(
        default="noun", description="noun: a thing (takes the compound suffix); modifier: comes before one unchanged."
    )


class TermOut(ApiModel):
    id: int
    english: str
    turkish: str
    kind: str
    created_at: datetime


class SavedTerm(ApiModel):
    term: TermOut
    retranslation_job: str | None = Field(description="The job re-translating stored names; null when not queued.")


class RemovedTerm(ApiModel):
    status: bool
    retranslation_job: str | None = Field(description="The job re-translating stored names; null when not queued.")


class Terms(ApiModel):
    terms: list[TermOut]
