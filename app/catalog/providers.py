"""Where a vehicle's catalog tree comes from: one small interface per upstream source.

A provider lists a vehicle's root categories, a category's children, and a leaf category's part rows. It knows the
source's protocol, nothing of our tables. Failures of the source surface as `ProviderError`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from app.sources.portal import PortalError, PortalNode, PortalPart, PortalSource
from app.vehicles import sources as source_pool
from app.vehicles.models import Vehicle


class ProviderError(Exception):
    """The upstream could not answer (down, timed out, unreadable)."""


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


@dataclass(frozen=True)
class CategoryRef:
    """What a provider needs of a stored category to ask about it."""

    external_id: str
    link_path: str | None


class TreeProvider(Protocol):
    def roots(self) -> list[Node]: ...

    def children(self, category: CategoryRef) -> list[Node]: ...

    def parts(self, category: CategoryRef) -> list[PartLine]: ...


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

    def parts(self, category: CategoryRef) -> list[PartLine]:
        try:
            rows = self.source.parts(category.link_path or "", self.service)
        except PortalError as error:
            raise ProviderError(str(error)) from error
        return [_part_line(row) for row in rows]

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


def _part_line(row: PortalPart) -> PartLine:
    return PartLine(
        oem_code=row.oem,
        name=row.name,
        position=row.position,
        remark=row.remark,
        unavailable=row.unavailable,
        model_codes=row.model_codes,
        reference_code=row.reference_code,
        label=row.label,
    )


def provider_for(vehicle: Vehicle, config: Mapping[str, Any]) -> TreeProvider | None:
    """The tree of the source that decoded the vehicle, when that source is configured and has a tree reader."""
    sources = source_pool.catalog_sources(config)
    raw = vehicle.raw_data or {}
    if vehicle.source == "portal" and isinstance(sources.get("portal"), PortalSource):
        return PortalTree(
            sources["portal"], raw.get("service") or raw.get("catalogId") or "", raw.get("vehicleId") or ""
        )
    return None
