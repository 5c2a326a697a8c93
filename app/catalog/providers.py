"""Where a vehicle's catalog tree comes from: one small interface per upstream source.

A provider lists a vehicle's root categories, a category's children, and a leaf category's part rows. It knows the
source's protocol, nothing of our tables. Failures of the source surface as `ProviderError`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from app.catalog.fit import rules
from app.catalog.fit.conditions import All, Condition, Not, fact_is
from app.catalog.fit.facts import CRITERIA
from app.sources import pool as source_pool
from app.sources.catapi import CatapiError, CatapiRateLimitedError, CatapiSource
from app.sources.catapi import PartRow as CatapiRow
from app.sources.pictures import HotspotBox, ImageRefusedError, SchemaImage
from app.sources.portal import ILLUSTRATION_PATTERN, PortalError, PortalNode, PortalPart, PortalSource, parse_part
from app.sources.scrape import ScrapeSource
from app.sources.scrape_types import GroupInfo as ScrapeGroup
from app.sources.scrape_types import PartRow as ScrapeRow
from app.sources.scrape_types import ScrapeError
from app.vehicles.models import Vehicle


class ProviderError(Exception):
    """The upstream could not answer (down, timed out, unreadable)."""


class ProviderRateLimitedError(ProviderError):
    """The upstream asked us to slow down: `source` wants no call for `retry_after` seconds."""

    def __init__(self, message: str, source: str, retry_after: int) -> None:
        super().__init__(message)
        self.source = source
        self.retry_after = retry_after


class PictureRefusedError(ProviderError):
    """The upstream answered for a picture, but with no usable image: the leaf is stored without a picture."""


@dataclass(frozen=True)
class Node:
    external_id: str
    name: str
    link_path: str | None = None
    unavailable: bool = False
    remark: str | None = None
    model_codes: tuple[str, ...] = ()
    presel: bool = False
    is_leaf: bool = False
    illustration_code: str | None = None
    language: str | None = None  # the name's language when it is not the source's own (a node we name ourselves)


@dataclass(frozen=True)
class PartLine:
    oem_code: str
    name: str
    position: str | None = None
    remark: str | None = None
    unavailable: bool = False
    model_codes: tuple[str, ...] = ()
    reference_code: str | None = None
    label: str = ""
    quantity: int | None = None  # how many the drawing takes; None when the upstream gives no count
    # Which vehicles the row is for, as its source states it (app.catalog.fit); None: the source states nothing.
    applicability: Condition | None = None


@dataclass(frozen=True)
class Picture:
    """A schema picture as the upstream serves it; hotspots are (position, x1, y1, x2, y2) in its native pixels."""

    url: str
    width: int
    height: int
    hotspots: tuple[tuple[str, int, int, int, int], ...]
    fetch: Callable[[], bytes]


@dataclass(frozen=True)
class PartsPage:
    lines: list[PartLine]
    picture: Picture | None = None


@dataclass(frozen=True)
class CategoryRef:
    """What a provider needs of a stored category to ask about it."""

    external_id: str
    link_path: str | None


class TreeProvider(Protocol):
    def roots(self) -> list[Node]: ...

    def children(self, category: CategoryRef) -> list[Node]: ...

    def parts(self, category: CategoryRef) -> PartsPage: ...


class PortalTree:
    """The dealer portal: main groups, subgroups drilled level by level, leaf links to part tables."""

    def __init__(self, source: PortalSource, service: str, vehicle_key: str) -> None:
        self.source = source
        self.service = service
        self.vehicle_key = vehicle_key

    def roots(self) -> list[Node]:
        return self._nodes(lambda: self.source.main_groups(self.service, self.vehicle_key))

    def children(self, category: CategoryRef) -> list[Node]:
        return self._nodes(lambda: self.source.children(self.service, self.vehicle_key, category.external_id))

    def parts(self, category: CategoryRef) -> PartsPage:
        try:
            sheet = self.source.parts_sheet(category.link_path or "", self.service)
        except PortalError as error:
            raise ProviderError(str(error)) from error
        return PartsPage([_part_line(row) for row in sheet.parts], _picture(sheet.picture, self.source.image))

    def _nodes(self, fetch: Any) -> list[Node]:
        try:
            return [_node(item) for item in fetch()]
        except PortalError as error:
            raise ProviderError(str(error)) from error


def _node(item: PortalNode) -> Node:
    return Node(
        external_id=item.external_id,
        name=item.name,
        link_path=item.link_path,
        unavailable=item.unavailable,
        remark=item.remark,
        model_codes=item.model_codes,
        presel=item.presel,
        is_leaf=item.is_leaf,
        illustration_code=item.illustration_code,
    )


def _part_line(row: PortalPart, *also: Condition) -> PartLine:
    """A part row with its applicability from what the source stated (a reference row points elsewhere: none)."""
    return PartLine(
        oem_code=row.oem,
        name=row.name,
        position=row.position,
        remark=row.remark,
        unavailable=row.unavailable,
        model_codes=row.model_codes,
        reference_code=row.reference_code,
        label=row.label,
        quantity=row.quantity,
        applicability=None if row.is_reference else _stated(_applicability(row), *also),
    )


def _applicability(row: PortalPart) -> All:
    return rules.applicability(
        options=row.options,
        dates=row.dates,
        model_codes=row.model_codes,
        engine_codes=row.engine_codes,
        gearbox_codes=row.gearbox_codes,
        remark=row.remark,
    )


def _stated(applicability: All, *also: Condition) -> Condition | None:
    """Every stated condition, or None when the source stated none."""
    items = (*applicability.items, *also)
    return All(items) if items else None


class ScrapeTree:
    """The public web catalog: a flat group list whose groups name their category; two levels, groups are leaves."""

    def __init__(self, source: ScrapeSource, catalog_code: str) -> None:
        self.source = source
        self.catalog_code = catalog_code
        # The one page listing every group, read once per provider (a request or a job): each root's children come
        # from it, so a walk over several roots costs one upstream call, its failure included.
        self._listing: list[ScrapeGroup] | None = None
        self._listing_failure: str | None = None

    def roots(self) -> list[Node]:
        names = dict.fromkeys(group.category or OTHER_GROUPS for group in self._groups())
        return [
            Node(external_id=f"{CATEGORY_PREFIX}{name}", name=name, language="tr" if name == OTHER_GROUPS else None)
            for name in names
        ]

    def children(self, category: CategoryRef) -> list[Node]:
        name = category.external_id.removeprefix(CATEGORY_PREFIX)
        return [
            Node(external_id=group.id, name=group.name, is_leaf=True, illustration_code=_illustration_code(group.name))
            for group in self._groups()
            if (group.category or OTHER_GROUPS) == name
        ]

    def parts(self, category: CategoryRef) -> PartsPage:
        try:
            sheet = self.source.parts_sheet(self.catalog_code, category.external_id)
        except ScrapeError as error:
            raise ProviderError(str(error)) from error
        lines = [_parsed(row) for row in sheet.parts]
        return PartsPage(lines, _picture(sheet.picture, self.source.image))

    def _groups(self) -> list[ScrapeGroup]:
        if self._listing is None and self._listing_failure is None:
            try:
                self._listing = self.source.groups(self.catalog_code)
            except ScrapeError as error:
                self._listing_failure = str(error)
        if self._listing is None:
            raise ProviderError(self._listing_failure)
        return self._listing


def _illustration_code(name: str) -> str | None:
    match = ILLUSTRATION_PATTERN.search(name)
    return match.group(1) if match else None


class CatapiTree:
    """The catalog API: groups by car, subgroups level by level; groups with parts are schema pictures (leaves).

    With the car's criteria a picture's rows are asked for twice, without and with them: a row only in the unfiltered
    answer is not for this car (the API knows why; it only says so by leaving the row out).
    """

    def __init__(self, source: CatapiSource, catalog: str, car_id: str, criteria: str | None = None) -> None:
        self.source = source
        self.catalog = catalog
        self.car_id = car_id
        self.criteria = criteria

    def roots(self) -> list[Node]:
        return self._nodes(None)

    def children(self, category: CategoryRef) -> list[Node]:
        return self._nodes(category.external_id)

    def parts(self, category: CategoryRef) -> PartsPage:
        try:
            sheet = self.source.parts(self.catalog, self.car_id, category.external_id)
            kept = self._kept(category.external_id)
        except CatapiError as error:
            raise _catapi_error(error) from error
        left_out = Not(fact_is(CRITERIA, self.criteria or ""))
        lines = [_parsed(row) if kept is None or row.id in kept else _parsed(row, left_out) for row in sheet.parts]
        spots = _spots(sheet.hotspots)
        picture = Picture(sheet.image_url, sheet.width, sheet.height, spots, lambda: self.source.image(sheet.image_url))
        return PartsPage(lines, picture if sheet.image_url else None)

    def _kept(self, group_id: str) -> set[str] | None:
        """The ids of the rows the API lists for the car's criteria; None without criteria."""
        if not self.criteria:
            return None
        return {row.id for row in self.source.parts(self.catalog, self.car_id, group_id, self.criteria).parts}

    def _nodes(self, group_id: str | None) -> list[Node]:
        try:
            groups = self.source.groups(self.catalog, self.car_id, group_id)
        except CatapiError as error:
            raise _catapi_error(error) from error
        return [
            Node(
                external_id=group.id,
                name=group.name,
                is_leaf=group.has_parts and not group.has_subgroups,
                illustration_code=_illustration_code(group.name),
            )
            for group in groups
        ]


def _catapi_error(error: CatapiError) -> ProviderError:
    if isinstance(error, CatapiRateLimitedError):
        return ProviderRateLimitedError(str(error), "catapi", error.retry_after)
    return ProviderError(str(error))


def _parsed(row: ScrapeRow | CatapiRow, *also: Condition) -> PartLine:
    """A part row of the other sources, with reference rows recognised the portal's way."""
    models = row.model_codes if isinstance(row, ScrapeRow) else ()
    part = parse_part(row.oem, row.name, row.position, row.remark, row.unavailable, models, quantity=row.quantity)
    return _part_line(part, *also)


def _spots(boxes: tuple[HotspotBox, ...]) -> tuple[tuple[str, int, int, int, int], ...]:
    return tuple((box.position, box.x1, box.y1, box.x2, box.y2) for box in boxes)


def _picture(image: SchemaImage | None, fetch: Callable[[str], bytes]) -> Picture | None:
    """A page's picture, whose download tells an image the upstream refused (PictureRefusedError) from a failure."""
    if image is None:
        return None

    def download() -> bytes:
        try:
            return fetch(image.url)
        except ImageRefusedError as error:
            raise PictureRefusedError(str(error)) from error

    return Picture(image.url, image.width, image.height, _spots(image.hotspots), download)


CATEGORY_PREFIX = "category-"
OTHER_GROUPS = "Diğer"


def provider_for(vehicle: Vehicle, config: Mapping[str, Any]) -> TreeProvider | None:
    """The tree of the source that decoded the vehicle, when that source is configured and has a tree reader."""
    sources = source_pool.catalog_sources(config)
    raw = vehicle.raw_data or {}
    if vehicle.source == "portal" and isinstance(sources.get("portal"), PortalSource):
        return PortalTree(
            sources["portal"], raw.get("service") or raw.get("catalogId") or "", raw.get("vehicleId") or ""
        )
    if vehicle.source == "catapi" and isinstance(sources.get("catapi"), CatapiSource):
        criteria = raw.get("criteria") if isinstance(raw.get("criteria"), str) else None
        return CatapiTree(sources["catapi"], raw.get("catalogId") or "", raw.get("carId") or "", criteria)
    if vehicle.source == "scrape" and isinstance(sources.get("scrape"), ScrapeSource):
        return ScrapeTree(sources["scrape"], raw.get("catalog_code") or raw.get("catalogId") or "")
    return None
