"""What the catalog routes (signed-in and demo) read and answer, for the OpenAPI document."""

from __future__ import annotations

from pydantic import Field

from app.core.openapi import ApiModel
from app.vehicles.schemas import VehicleFacts


class SearchQuery(ApiModel):
    q: str = Field(max_length=100, description="1 to 100 characters: words of a part or group name, or an OEM code.")


class Texted(ApiModel):
    """A catalog name in the request's language, with both texts beside it (app.catalog.names)."""

    name: str = Field(
        description="In the request's language: Turkish by default, English with `?lang=en` or the choice."
    )
    name_tr: str | None = Field(description="The Turkish text; null while an English name waits for its translation.")
    name_en: str | None = Field(description="The upstream's English; null where the upstream wrote Turkish.")
    name_tr_complete: bool = Field(description="False when the dictionary did not know every word of the name.")


class Named(Texted):
    id: int


class CategoryOut(Texted):
    id: int
    parent_id: int | None
    catalog_vehicle_id: int | None = Field(
        description="The catalog vehicle (a car reached by browsing); null for a VIN."
    )
    external_id: str
    unavailable: bool
    remark: str | None
    model_codes: list[str]
    presel: bool
    leaf: bool
    illustration_code: str | None
    thumbnail: str | None = Field(description="A leaf child's stored picture.")


class ReferenceOut(ApiModel):
    code: str
    category_id: int | None = Field(description="Null while the picture's category is not stored.")


class PartOut(Texted):
    id: int
    oem_code: str
    label: str = Field(description="The name as shown: on a reference row without its 'see table' phrasing.")
    position: str | None
    unavailable: bool
    remark: str | None
    quantity: int | None = Field(ge=1, description="How many the drawing takes; null when the catalog gives no count.")
    model_codes: list[str]
    reference: ReferenceOut | None


class Hotspot(ApiModel):
    position: str | None
    x1: int
    y1: int
    x2: int
    y2: int


class SchemaPictureOut(ApiModel):
    image_url: str
    width: int
    height: int
    hotspots: list[Hotspot]


class Tree(ApiModel):
    categories: list[CategoryOut]
    load_error: bool = Field(description="True only when the upstream failed and nothing is stored.")


class CategoryDetail(ApiModel):
    category: CategoryOut
    children: list[CategoryOut]
    parts: list[PartOut]
    schema_: SchemaPictureOut | None = Field(alias="schema")
    ancestors: list[Named] = Field(description="Root to parent.")
    load_error: bool


class Progress(ApiModel):
    groups: int
    groups_drilled: int
    leaves: int
    leaves_fetched: int
    percent: int
    done: bool


class ReferenceTarget(ApiModel):
    code: str
    category_id: int


class SearchCategory(Texted):
    id: int
    parent_id: int | None
    leaf: bool
    illustration_code: str | None
    unavailable: bool
    name_match: bool
    hits: int
    ancestors: list[Named]


class SearchPart(PartOut):
    leaf: Named
    breadcrumb: list[Named]


class SearchResult(ApiModel):
    query: str
    categories: list[SearchCategory]
    parts: list[SearchPart]
    part_count: int
    truncated: bool
    tree_incomplete: bool


class Copied(ApiModel):
    status: bool
    oem_code: str


class StoredCounts(ApiModel):
    categories: int
    parts: int
    schema_pictures: int


class DemoVehicle(ApiModel):
    id: int
    brand_name: str
    model: str
    year: int | None
    engine: str | None
    vin: str = Field(description="The WMI (first 3 characters), the rest masked with *.")
    counts: StoredCounts


class WhereUsedQuery(ApiModel):
    limit: int = Field(default=50, ge=1, le=200, description="At most this many part rows (1 to 200, default 50).")


class WhereUsedPart(Texted):
    id: int
    oem_code: str = Field(description="As the vehicle's catalog writes it.")
    position: str | None
    unavailable: bool
    leaf: Named = Field(description="The category (a picture) that lists the part.")
    ancestors: list[Named] = Field(description="The leaf's path: root to parent.")


class WhereUsedVehicle(VehicleFacts):
    parts: list[WhereUsedPart]


class WhereUsed(ApiModel):
    search_code: str = Field(description="The code as compared: letters and digits only, lower case.")
    vehicles: list[WhereUsedVehicle] = Field(description="Vehicles the caller may open, by brand and model.")
    vehicle_count: int = Field(description="Every vehicle the caller may open that carries the code.")
    part_count: int = Field(description="Every part row carrying the code in those vehicles.")
    hidden_vehicle_count: int = Field(description="Stored vehicles carrying the code of brands outside the plan.")
    truncated: bool = Field(description="More part rows than `limit` were found.")
