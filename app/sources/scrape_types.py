"""The scrape source's vocabulary: the errors its calls raise and the records its browsing calls return."""

from __future__ import annotations

from dataclasses import dataclass

from app.sources.pictures import SchemaImage


class ScrapeError(Exception):
    """Any scrape call that gave no usable answer."""


class ScrapeUnavailableError(ScrapeError):
    """Timeout, refused connection, 5xx, or a page without the expected structure (also after the browser)."""


class ScrapeNotFoundError(ScrapeError):
    """The catalog answered 404 for a brand, vehicle or group it does not know."""


@dataclass(frozen=True)
class BrandInfo:
    id: str
    name: str


@dataclass(frozen=True)
class VehicleInfo:
    catalog_code: str
    car_id: str | None
    brand: str
    model: str
    name: str
    year: int | None
    engine: str | None
    parameters: dict[str, str]


@dataclass(frozen=True)
class GroupInfo:
    id: str
    name: str
    category: str | None


@dataclass(frozen=True)
class PartRow:
    oem: str
    name: str
    position: str | None
    remark: str | None
    unavailable: bool = False
    quantity: int | None = None  # the Qty column (app.sources.quantity); None: "as needed", empty or no count
    model_codes: tuple[str, ...] = ()  # the engine variants the row is for; empty: every one


@dataclass(frozen=True)
class PartsSheet:
    parts: tuple[PartRow, ...]
    picture: SchemaImage | None  # None when the page has no usable picture


@dataclass(frozen=True)
class WizardMatch:
    catalog_code: str
    car_id: str | None
    name: str
    year: int | None
    engine: str | None


@dataclass(frozen=True)
class WizardPage:
    brand: str
    step: str | None  # the parameter whose options are listed; None when every step is answered
    options: tuple[str, ...]
    selected: dict[str, str]
    matches: tuple[WizardMatch, ...]

    @property
    def done(self) -> bool:
        return self.step is None
