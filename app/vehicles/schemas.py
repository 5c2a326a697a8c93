"""What the /api/vehicles routes read and answer, for the OpenAPI document (the routes check their input
themselves)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, RootModel

from app.core.openapi import ApiModel

# The canonical form; the routes also accept lower case, spaces and dashes, and ignore them.
VIN_PATTERN = "^[A-HJ-NPR-Z0-9]{17}$"
VIN_HELP = "17 characters of the VIN alphabet (no I, O or Q); spaces, dashes and case are ignored."


class DecodeBody(ApiModel):
    vin: str = Field(pattern=VIN_PATTERN, examples=["WVWZZZAUZHW100001"], description=VIN_HELP)
    catapi_car_id: str | int | None = Field(None, description="A candidate's carId from an earlier catapi answer.")
    scrape_car_index: int | None = Field(None, ge=0, description="A candidate's index from an earlier scrape answer.")


class ReportBody(ApiModel):
    vin: str = Field(pattern=VIN_PATTERN, description=VIN_HELP)
    note: str | None = Field(None, max_length=1000)


class HistoryQuery(ApiModel):
    page: int = Field(1, ge=1, description="From 1; 20 vehicles a page.")


class VehicleFacts(ApiModel):
    """What identifies a stored vehicle to a dealer; answers about vehicles build on it."""

    id: int
    vin: str
    brand_id: int | None
    brand_name: str
    model: str
    year: int | None
    engine: str | None


class VehicleOut(VehicleFacts):
    source: str
    confirmed: bool = Field(
        description="True when a source identified this car from the VIN alone; false for a candidate a dealer chose."
    )
    raw_data: dict[str, Any] | None
    created_at: str


class HistoryItem(VehicleOut):
    last_decoded_at: str


class History(ApiModel):
    items: list[HistoryItem]
    page: int
    has_more: bool


class Candidate(ApiModel):
    index: int
    car_id: str
    brand: str
    model: str
    year: int | None
    engine: str | None
    criteria: Any = None
    parameters: dict[str, Any]
    chosen: bool = Field(description="Whether this is the caller's current pick (on an answer to choose-again).")


class DecodedVehicle(ApiModel):
    result: Literal["vehicle"]
    vehicle: VehicleOut


class DecodeCandidates(ApiModel):
    result: Literal["candidates"]
    source: Literal["catapi", "scrape"]
    candidates: list[Candidate]


class DecodeAnswer(RootModel[DecodedVehicle | DecodeCandidates]):
    """The decoded vehicle, or the candidates to choose from (answer again with catapiCarId or scrapeCarIndex).

    A chosen candidate is the caller's own pick: their later decodes of the VIN answer it, other users get the list."""


class Reported(ApiModel):
    status: bool
    vin: str


class Preview(ApiModel):
    vin: str
    brand: str | None
    model: str | None
    year: int | None
    engine: str | None
    known: list[str] = Field(description="The fields this answer fills.")
    variants: int = Field(description="How many cars matched (0: only the WMI table spoke).")


class TeaserStats(ApiModel):
    categories: int
    parts: int
    schema_pictures: int


class PairingVinBody(ApiModel):
    vin: str = Field(pattern=VIN_PATTERN, description=VIN_HELP)


class PairingSent(ApiModel):
    vin: str = Field(pattern=VIN_PATTERN, description="The VIN as the counter PC's page receives it.")


class ScanForm(ApiModel):
    image: bytes = Field(
        json_schema_extra={"format": "binary", "contentMediaType": "application/octet-stream"},
        description="JPEG, PNG, WebP or HEIC, at most 12 MB and 40 megapixels; read in memory, never stored.",
    )


class ScanCandidate(ApiModel):
    vin: str = Field(pattern=VIN_PATTERN, examples=["VF1RFB00X56100002"])
    source: Literal["barcode", "ruhsat", "text"] = Field(
        description="How it was found: a barcode, the ruhsat's Şase No field, or other printed text."
    )
    format: str | None = Field(None, description="The barcode's symbology (Code39, Code128, DataMatrix, QRCode).")
    corrected: bool = Field(description="Characters were changed from what was read (O as 0, S as 5, ...).")
    known_wmi: bool = Field(description="Its first three characters name a manufacturer we know.")
    check_digit: Literal["valid", "invalid", "not_used"] = Field(
        description="The 9th character checked where the region uses a check digit (North America)."
    )
    known: bool = Field(description="A vehicle with this VIN is already in the catalog.")


class ScanAnswer(ApiModel):
    """The VIN candidates of a photo, best first; the client confirms one and decodes it."""

    candidates: list[ScanCandidate] = Field(min_length=1)
    text_reading: bool = Field(description="False when this server cannot read printed text (barcodes only).")
    notice: str | None = Field(None, description="Said when text reading is off, in the request's language.")
