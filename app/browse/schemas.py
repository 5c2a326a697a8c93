"""What the browse routes read and answer, for the OpenAPI document."""

from __future__ import annotations

from pydantic import Field

from app.core.openapi import ApiModel


class Catalog(ApiModel):
    source: str = Field(description="catapi (the catalog API) or scrape (the legacy web catalog).")
    id: str
    name: str
    models_count: int | None = None


class BrandCatalogs(ApiModel):
    name: str
    brand_id: int | None = Field(description="The sold brand; null when the make is not sold.")
    slug: str | None
    in_plan: bool = Field(description="Whether the caller's plan opens this make's groups, drawings and parts.")
    catalogs: list[Catalog]


class BrowseBrands(ApiModel):
    brands: list[BrandCatalogs]
    unavailable_sources: list[str] = Field(description="Sources that could not be reached; the others are listed.")


class Opened(ApiModel):
    catalog_vehicle_id: int = Field(description="The car's catalog vehicle, stored once for every dealer.")
    vehicle_id: int = Field(description="Its vehicle page and catalog: /vehicles/<vehicleId>, /api/vehicles/...")
    url: str = Field(description="The vehicle page.")


class BrowseModel(ApiModel):
    id: str
    name: str


class Models(ApiModel):
    catalog: str
    models: list[BrowseModel]


class ModelsQuery(ApiModel):
    q: str = Field(
        default="", max_length=60, description="Only models whose name holds this (case and accents folded)."
    )


class ParameterValue(ApiModel):
    idx: str = Field(description="What `parameter` of the car list takes.")
    value: str


class CarParameter(ApiModel):
    key: str
    name: str
    values: list[ParameterValue]


class Parameters(ApiModel):
    parameters: list[CarParameter]


class CarsQuery(ApiModel):
    page: int = Field(default=1, ge=1, le=1000)
    parameter: list[str] = Field(default_factory=list, description="Parameter values (idx) every car must have.")


class Car(ApiModel):
    catalog_id: str | None
    car_id: str | None
    brand: str
    model: str
    name: str
    year: int | None
    engine: str | None
    parameters: dict[str, str]


class Cars(ApiModel):
    cars: list[Car]
    total: int
    page: int
    has_more: bool


class TranslatedName(ApiModel):
    name: str = Field(description="Turkish (the catalog dictionary).")
    name_en: str = Field(description="As the upstream wrote it.")
    name_tr_complete: bool


class Group(TranslatedName):
    id: str
    schema_count: int


class CarGroups(ApiModel):
    car: Car
    groups: list[Group]


class Schema(TranslatedName):
    id: str
    image_url: str


class GroupSchemas(ApiModel):
    car: Car
    group_id: str
    schemas: list[Schema]


class Image(ApiModel):
    url: str
    width: int
    height: int


class BrowseHotspot(ApiModel):
    position: str
    x1: int
    y1: int
    x2: int
    y2: int


class PartRow(TranslatedName):
    position: str | None
    oem_code: str
    quantity: int | None
    remark: str | None
    unavailable: bool


class SchemaDetail(ApiModel):
    car: Car
    schema_id: str
    image: Image
    hotspots: list[BrowseHotspot]
    parts: list[PartRow]


class ScrapeVehicle(ApiModel):
    catalog_code: str
    brand: str
    model: str
    name: str
    year: int | None
    engine: str | None
    parameters: dict[str, str]


class ScrapeVehicles(ApiModel):
    brand: str
    vehicles: list[ScrapeVehicle]


class WizardChoices(ApiModel):
    """The options chosen so far (a selector's own step is its path, not a query field)."""

    body: str = Field(default="", max_length=100)
    engine: str = Field(default="", max_length=100)
    gearbox: str = Field(default="", max_length=100)
    year: str = Field(default="", max_length=100)


class WizardQuery(WizardChoices):
    step: str = Field(default="", description="The step whose options to list; default: the first not chosen.")


class Variant(ApiModel):
    catalog_code: str
    car_id: str | None
    name: str
    year: int | None
    engine: str | None


class Wizard(ApiModel):
    brand: str
    step: str | None = Field(description="The step whose options are listed; null when every step is chosen.")
    steps: list[str]
    options: list[str]
    selected: dict[str, str]
    variant_count: int
    variants: list[Variant]


class WizardVehiclesQuery(WizardChoices):
    model: str = Field(max_length=60, description="A model name: matched exactly, then as a prefix, then fuzzily.")


class ModelVariant(Variant):
    model: str


class WizardVehicles(ApiModel):
    brand: str
    model: str
    match_tier: str = Field(description="exact, prefix, fuzzy or none: the first tier that matched.")
    vehicles: list[ModelVariant]


class ScrapeGroup(TranslatedName):
    id: str
    category: str | None


class ScrapeGroups(ApiModel):
    vehicle: ScrapeVehicle
    groups: list[ScrapeGroup]


class ScrapeParts(ApiModel):
    vehicle: ScrapeVehicle
    group_id: str
    image: Image | None
    hotspots: list[BrowseHotspot]
    parts: list[PartRow]
