"""The shelf API's models for the OpenAPI document (the routes read and answer by hand; app.core.openapi)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from app.core.openapi import ApiModel

ImportStatus = Literal["uploaded", "importing", "done", "failed"]


class ShelfUploadForm(ApiModel):
    file: bytes = Field(
        json_schema_extra={"format": "binary", "contentMediaType": "application/octet-stream"},
        description="The list: CSV (UTF-8 or Windows-1254; `;`, `,` or tab) or Excel .xlsx, at most 50 MB.",
    )


class ShelfMappingBody(ApiModel):
    """Each field's column, 0-based (null: not in the file); an OEM number or own code column is required."""

    oem: int | None = Field(None, ge=0, description="The OEM (original) part number's column.")
    own_code: int | None = Field(None, ge=0, description="The dealer's own code (stok kodu).")
    brand: int | None = Field(None, ge=0)
    name: int | None = Field(None, ge=0)
    price: int | None = Field(None, ge=0, description='Read as "1.250,50", "1,250.50", "₺ 1.250,50"...')
    currency: int | None = Field(None, ge=0, description="TL, EUR, USD...; TRY when absent.")
    stock: int | None = Field(None, ge=0)
    aftermarket: list[int] = Field(
        default_factory=list, max_length=20, description="Columns of aftermarket numbers (several per cell allowed)."
    )
    replaced_by: int | None = Field(None, ge=0, description='The "replaced by" (yerine) number.')


class ShelfRowError(ApiModel):
    line: int = Field(description="The row's line in the file (1-based).")
    code: str = Field(examples=["bad_price"])
    reason: str = Field(description="Why the row was not imported, in Turkish.")


class ShelfImportOut(ApiModel):
    id: int
    filename: str
    file_kind: Literal["csv", "xlsx"]
    size_bytes: int
    status: ImportStatus
    percent: int = Field(ge=0, le=100)
    rows_total: int = Field(description="Rows to import: an estimate until the import has finished.")
    rows_done: int
    rows_imported: int
    rows_failed: int
    errors: list[ShelfRowError] = Field(description="The first 1000 row errors; rowsFailed counts them all.")
    message: str | None = Field(description="Why the whole import failed.")
    mapping: ShelfMappingBody | None
    created_at: str
    started_at: str | None
    finished_at: str | None


class ShelfPreviewOut(ShelfImportOut):
    header: list[str] = Field(description="The header row's cells, or column numbers when the file has none.")
    header_row: int | None = Field(description="The header's line in the file (1-based), null when none was found.")
    rows: list[list[str]] = Field(description="The first 20 rows after the header.")
    guessed_mapping: ShelfMappingBody = Field(description="The mapping the header suggests.")
    suggested_mapping: ShelfMappingBody = Field(
        description="The dealer's remembered mapping when its columns exist in this file, else the guessed one."
    )


class ShelfImportList(ApiModel):
    items: list[ShelfImportOut]
    active_id: int | None = Field(description="The import whose rows are the list in use.")
