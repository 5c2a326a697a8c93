"""The public VIN decoder (NHTSA vPIC, DecodeVinValues): the best-effort identification when no catalog knows a VIN.

It identifies make, model, year and engine; it has no catalog. A make without a model is not an identification.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import requests

from app.sources.base import Car, LookupResult, RetryListener, timed

NAME = "vin_api"


class VinApiError(Exception):
    """The decoder answered something that is not its JSON."""


@dataclass(frozen=True)
class VinApiSettings:
    base_url: str = "https://vpic.nhtsa.dot.gov/api"
    timeout_seconds: float = 5.0

    @classmethod
    def from_config(cls, config: Any) -> VinApiSettings:
        return cls(
            base_url=config.get("VPIC_BASE_URL", cls.base_url).rstrip("/"),
            timeout_seconds=int(config.get("VPIC_TIMEOUT_MS", 5000)) / 1000,
        )


class VinApiSource:
    name = NAME

    def __init__(self, settings: VinApiSettings, session: requests.Session | None = None) -> None:
        self.settings = settings
        self.session = session or requests.Session()

    def lookup_vin(self, vin: str, on_retry: RetryListener | None = None) -> LookupResult:  # no retries
        return timed(NAME, lambda: self._decode(vin), (requests.RequestException, VinApiError))

    def _decode(self, vin: str) -> list[Car]:
        response = self.session.get(
            f"{self.settings.base_url}/vehicles/DecodeVinValues/{vin.strip().upper()}",
            params={"format": "json"},
            timeout=self.settings.timeout_seconds,
        )
        response.raise_for_status()
        try:
            row = response.json()["Results"][0]
        except (ValueError, KeyError, IndexError, TypeError) as error:
            raise VinApiError("the decoder's answer is not DecodeVinValues JSON") from error
        car = _car_from(row)
        return [car] if car else []


def _car_from(row: dict[str, Any]) -> Car | None:
    make, model = (row.get("Make") or "").strip(), (row.get("Model") or "").strip()
    if not make or not model:
        return None
    year = (row.get("ModelYear") or "").strip()
    return Car(
        source=NAME,
        brand=make.title(),
        model=model,
        year=int(year) if year.isdigit() else None,
        engine=_engine(row),
        raw={"trim": row.get("Trim") or None, "fuel": row.get("FuelTypePrimary") or None},
    )


def _engine(row: dict[str, Any]) -> str | None:
    displacement, cylinders = (row.get("DisplacementL") or "").strip(), (row.get("EngineCylinders") or "").strip()
    if not displacement:
        return None
    return f"{displacement} L, {cylinders} cyl." if cylinders else f"{displacement} L"
