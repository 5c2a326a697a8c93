"""What a decode takes and gives: the VIN, a chosen candidate, the answer, and how vehicles and candidates look to
the client."""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from typing import Any

from flask_babel import gettext as _

from app.core.errors import ApiError
from app.core.validation import ID_MAX
from app.sources.base import Car
from app.vehicles import picks
from app.vehicles.models import Vehicle

VIN_PATTERN = re.compile(r"[A-HJ-NPR-Z0-9]{17}")  # the VIN alphabet has no I, O or Q


# --- input -----------------------------------------------------------------------------------------------------


def normalize_vin(raw: Any) -> str:
    """Upper-case `raw` without spaces and dashes, or refuse it with a message that says what is wrong."""
    if not isinstance(raw, str) or not raw.strip():
        raise ApiError("invalid_vin", _("Enter the 17-character VIN."), 400)
    vin = re.sub(r"[\s-]+", "", raw).upper()
    if len(vin) != 17:
        raise ApiError("invalid_vin", _("A VIN has 17 characters; this one has %(count)d.", count=len(vin)), 400)
    if not VIN_PATTERN.fullmatch(vin):
        raise ApiError("invalid_vin", _("A VIN holds only digits and letters other than I, O and Q."), 400)
    return vin


@dataclass(frozen=True)
class Pick:
    """The candidate a client chose from an earlier candidate list."""

    catapi_car_id: str | None = None
    scrape_car_index: int | None = None

    @property
    def source(self) -> str | None:
        if self.catapi_car_id is not None:
            return "catapi"
        return "scrape" if self.scrape_car_index is not None else None

    def index_in(self, cars: list[Car]) -> int | None:
        """The chosen car's place in `cars`, or None when it is not among them (a bad or stale choice)."""
        if self.catapi_car_id is not None:
            return next((index for index, car in enumerate(cars) if car.car_id == self.catapi_car_id), None)
        index = self.scrape_car_index
        return index if index is not None and 0 <= index < len(cars) else None


# --- the answer --------------------------------------------------------------------------------------------------


@dataclass
class DecodeAnswer:
    """kind: vehicle, candidates, unknown, no_catalog, brand_unsupported, aborted, unavailable (no source answered),
    busy (no decode slot free) or store_down (Redis not answering, so no lock).

    `chosen` is the candidate key of the caller's current pick, on a candidate list asked for to choose again: it is
    the caller's own, so it is never cached."""

    kind: str
    vehicle: dict[str, Any] | None = None
    source: str | None = None
    cars: list[dict[str, Any]] = field(default_factory=list)
    identified: str | None = None
    chosen: str | None = None

    def to_cache(self) -> dict[str, Any]:
        return {key: value for key, value in asdict(self).items() if value and key != "chosen"}

    @classmethod
    def from_cache(cls, document: dict[str, Any]) -> DecodeAnswer:
        return cls(**document)

    @property
    def success(self) -> bool:
        return self.kind in ("vehicle", "candidates")


def candidate_view(car: dict[str, Any], index: int, chosen: str | None = None) -> dict[str, Any]:
    """A candidate as the client sees it: the same shape for catapi cars and scrape candidates; `chosen` tells
    whether it is the caller's current pick."""
    return {
        "index": index,
        "carId": car.get("car_id") or str(index),
        "brand": car["brand"],
        "model": car["model"],
        "year": car.get("year"),
        "engine": car.get("engine"),
        "criteria": car.get("criteria"),
        "parameters": car.get("parameters") or {},
        "chosen": chosen is not None and picks.key_of(car, index) == chosen,
    }


def vehicle_view(vehicle: Vehicle) -> dict[str, Any]:
    return {
        "id": vehicle.id,
        "vin": vehicle.vin,
        "brandId": vehicle.brand_id,
        "brandName": vehicle.brand_name,
        "model": vehicle.model,
        "year": vehicle.year,
        "engine": vehicle.engine,
        "source": vehicle.source,
        "confirmed": vehicle.confirmed,
        "rawData": vehicle.raw_data,
        "createdAt": vehicle.created_at.isoformat(),
    }


def read_pick(data: dict[str, Any]) -> Pick:
    car_id, index = data.get("catapiCarId"), data.get("scrapeCarIndex")
    if car_id is not None and index is not None:
        raise ApiError("invalid_candidate", _("Choose either a catalog car or a web catalog candidate, not both."))
    if car_id is not None and not _is_candidate_id(car_id):
        raise ApiError("invalid_candidate", _("catapiCarId must be a candidate's id."))
    if index is not None and not (isinstance(index, int) and not isinstance(index, bool) and 0 <= index <= ID_MAX):
        raise ApiError("invalid_candidate", _("scrapeCarIndex must be a candidate's number (0 or more)."))
    return Pick(catapi_car_id=None if car_id is None else str(car_id), scrape_car_index=index)


def _is_candidate_id(value: Any) -> bool:
    """A catalog car id as a candidate list gives it: text, or a whole number that fits a 64-bit integer."""
    if isinstance(value, int) and not isinstance(value, bool):
        return 0 <= value < 2**63
    return isinstance(value, str) and 0 < len(value) <= 255
