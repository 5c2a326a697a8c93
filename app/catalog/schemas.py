"""What the catalog routes (signed-in and demo) read and answer, for the OpenAPI document."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from app.core.openapi import ApiModel
from app.equivalents.schemas import EquivalentGroupOut
from app.shelf.lookup_schemas import ShelfOut
from app.suppliers.schemas import PageOffersOut
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


# --- fit (app.catalog.fit) ----------------------------------------------------------------------------------------

FitStatus = Literal["yes", "no", "maybe"]
FactValue = str | int | bool


class FitReason(ApiModel):
    code: Literal["matches", "differs", "unknown", "not_understood", "not_stated", "pending"] = Field(
        description="The vehicle's fact meets the rule, contradicts it, is not known; the rule was not understood; "
        "the catalog states no applicability for the part; or the row's answer is being recomputed."
    )
    fact: str | None = Field(description='The fact the rule tests ("gearbox_kind", "option:1KD"); null when not read.')
    value: FactValue | None = Field(description="The vehicle's value of the fact; null when unknown.")
    wanted: str = Field(description='What the rule asks for: values joined by "|", or a build-date span "start..end".')
    negated: bool = Field(description="The rule asks for the fact not to be `wanted`.")
    text: str = Field(description="The reason in the request's language.")


class PartFitOut(ApiModel):
    """Whether the part fits the vehicle, as the caller sees it (his answers to questions applied)."""

    status: FitStatus
    reasons: list[FitReason]
    question: str | None = Field(description="For a maybe: the fact whose answer settles it most often.")
    answered_by: Literal["me", "colleague"] | None = Field(
        description="me: the caller's answer settled it; colleague: another dealer answered what it hangs on."
    )


class LeafFit(ApiModel):
    status: FitStatus = Field(description="yes when a row fits; no when no row fits or may fit; else maybe.")
    yes: int
    no: int
    maybe: int


class FitAnswerOut(ApiModel):
    fact: str
    value: FactValue = Field(description='true/false, a code, "MANUAL"/"AUTOMATIC", a month "YYYY-MM" or "other".')
    label: str = Field(description="The value in the request's language.")
    text: str
    by: Literal["me", "colleague"]


class FitOption(ApiModel):
    value: FactValue
    label: str


class FitQuestion(ApiModel):
    fact: str
    text: str = Field(description="The question in the request's language.")
    input: Literal["choice", "month", "number"] = Field(
        description="choice: one of `options`; month: YYYY-MM; number: a whole number."
    )
    options: list[FitOption]
    hanging: int = Field(description="How many maybes hang on the answer.")
    current: FitAnswerOut | None = Field(description="The caller's answer on this fact.")
    colleague: FitAnswerOut | None = Field(description="Another dealer's answer on this fact, to take over.")


class DetailFit(ApiModel):
    question: FitQuestion | None = Field(description="The drawing's one question; null when no maybe needs one.")
    answers: list[FitAnswerOut] = Field(description="The caller's answers that the drawing's rows use.")
    fitting_only: bool = Field(description="The caller's switch: show only what fits.")
    hidden: int = Field(description="Rows left out by `?fit=`.")


class CategoryQuery(ApiModel):
    fit: str | None = Field(
        default=None,
        pattern=r"^(yes|no|maybe)(,(yes|no|maybe))*$",
        description="Keep only the parts of these fit statuses: yes, or yes,maybe.",
    )


class VehicleFit(ApiModel):
    facts: dict[str, Any] = Field(description="What the vehicle's sources and VIN tell; unknown facts left out.")
    answers: list[FitAnswerOut] = Field(description="The caller's answers on this vehicle.")
    colleague_answers: list[FitAnswerOut] = Field(description="Other dealers' answers (the latest on each fact).")
    question: FitQuestion | None = Field(description="The question that settles most of the vehicle's maybes.")


class FitAnswerIn(ApiModel):
    value: FactValue = Field(
        description='true/false; "MANUAL"/"AUTOMATIC"; "LHD"/"RHD"; a number; a month "YYYY-MM"; a code or "other".'
    )


class FitAnswerResult(ApiModel):
    answer: FitAnswerOut | None = Field(description="The answer kept; null once cleared.")
    changed: int = Field(description="How many of the vehicle's parts changed status for the caller.")


class FitPreferenceIO(ApiModel):
    fitting_only: bool = Field(description="Show only what fits (Sadece uyanlar).")


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
    fit: LeafFit | None = Field(description="A leaf's fit counts; null for a group or a leaf not stored yet.")


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
    fit: PartFitOut
    shelf: ShelfOut | None = Field(
        description="The signed-in dealer's shelf list row for the part (its OEM number, a number it replaces or is "
        "replaced by, or an aftermarket number on the list); null when the list does not carry it or there is none."
    )


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
    fit: DetailFit | None = Field(description="A leaf's question, answers and switch; null for a group.")
    offers: PageOffersOut | None = Field(description="The shop's suppliers' offers for the numbers; null when none.")


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
    offers: PageOffersOut | None = Field(description="The shop's suppliers' offers for the numbers; null when none.")


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
    fit: PartFitOut = Field(description="Whether it fits its vehicle, as the caller sees it.")
    shelf: ShelfOut | None = Field(description="The caller's shelf list row for the part; null when none carries it.")


class WhereUsedVehicle(VehicleFacts):
    parts: list[WhereUsedPart]


class WhereUsed(ApiModel):
    search_code: str = Field(description="The code as compared: letters and digits only, lower case.")
    vehicles: list[WhereUsedVehicle] = Field(description="Vehicles the caller may open, by brand and model.")
    vehicle_count: int = Field(description="Every vehicle the caller may open that carries the code.")
    part_count: int = Field(description="Every part row carrying the code in those vehicles.")
    hidden_vehicle_count: int = Field(description="Stored vehicles carrying the code of brands outside the plan.")
    truncated: bool = Field(description="More part rows than `limit` were found.")
    offers: PageOffersOut | None = Field(description="The shop's suppliers' offers for the numbers; null when none.")


class ShelfOfNumber(ApiModel):
    key: str = Field(description="The group's number (folded) the shelf row carries.")
    row: ShelfOut


class VehiclesOfNumber(ApiModel):
    key: str
    vehicles: int = Field(description="Stored vehicles whose rows carry the number.")


class NumberLookup(ApiModel):
    number: str = Field(description="The asked number, folded, upper case.")
    group: EquivalentGroupOut
    shelf: list[ShelfOfNumber] = Field(description="The caller's shelf rows for the number and its equivalents.")
    offers: PageOffersOut | None = Field(description="The shop's suppliers' offers for the group's numbers.")
    where_used_number: str = Field(
        description="The number `whereUsed` is of: the asked one, or its first equivalent vehicles carry."
    )
    where_used: WhereUsed = Field(description="The vehicles and pictures carrying that number.")
    carried_by: list[VehiclesOfNumber] = Field(description="How many vehicles carry each of the group's numbers.")
