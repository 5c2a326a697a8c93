"""A stored vehicle's facts, read from what its source gave (the vehicle row's raw_data) and from the VIN itself.

Pure: no database, no request. What each source stores (app.vehicles.writes.vehicle_row keeps `criteria`,
`parameters` and the source's own `raw` keys):

- every source: `parameters` (year, modelCode, engineCode, gearbox, body: the car as the catalog lists it; the web
  catalog's VIN answer adds buildDate); for a browsed car without a VIN these are all there is.
- catapi: `criteria` "modelCode=AU;buildDate=2017-03;..." and `optionCodes` (the car's complete option list).
- portal: `buildData` {modelCode, engineCode, gearboxCode, buildDate "MM.YYYY", market, prCodes (complete)}.
- the VIN: the model year where the make encodes it (North American WMIs, the VW group's), and then the plant.

A fact nobody gives stays None: nothing is guessed (a gearbox code does not tell manual from automatic here).
Malformed stored data never raises; the fact it should have given stays unknown.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from app.catalog.fit.facts import (
    BODY_STYLE,
    BUILD_DATE,
    CRITERIA,
    ENGINE_CODE,
    GEARBOX_CODE,
    MARKET,
    MODEL_CODE,
    MODEL_YEAR,
    PLANT,
    BuildDate,
    FactValue,
    VehicleFacts,
)

# The VW group's WMIs encode the model year at position 10 (and the plant at 11) in every market.
VW_GROUP_WMIS = frozenset({"WVW", "WV1", "WV2", "WVG", "WAU", "TMB", "VSS"})
# Position 10's model-year letters; the 30-year cycle repeats (A is 1980 and 2010).
_YEAR_CODES = "ABCDEFGHJKLMNPRSTVWXY123456789"
_VIN = re.compile(r"^[A-HJ-NPR-Z0-9]{17}$")

_MONTH_YEAR = re.compile(r"^\s*(\d{1,2})[./](\d{4})\s*$")  # "03.2017", "3/2017"
_YEAR_MONTH = re.compile(r"^\s*(\d{4})-(\d{1,2})\s*$")  # "2017-03"
_CODE = re.compile(r"^[A-Z0-9][A-Z0-9.\-]{0,19}$")  # a code has no blanks: "Multidrive S" names a gearbox
_BODY = re.compile(r"^[A-Z0-9][A-Z0-9 .\-/]{0,29}$")

# Keys of the parameters, the catalog API's criteria and the portal's build data -> fact names.
_PARAMETER_KEYS = {
    "modelCode": MODEL_CODE,
    "engineCode": ENGINE_CODE,
    "gearbox": GEARBOX_CODE,
    "gearboxCode": GEARBOX_CODE,
    "body": BODY_STYLE,
    "year": MODEL_YEAR,
    "buildDate": BUILD_DATE,  # the web catalog's VIN answer gives it
}
_CRITERIA_KEYS = {
    "modelCode": MODEL_CODE,
    "engineCode": ENGINE_CODE,
    "gearboxCode": GEARBOX_CODE,
    "buildDate": BUILD_DATE,
    "modelYear": MODEL_YEAR,
    "year": MODEL_YEAR,
    "market": MARKET,
}
_BUILD_DATA_KEYS = {
    "modelCode": MODEL_CODE,
    "engineCode": ENGINE_CODE,
    "gearboxCode": GEARBOX_CODE,
    "buildDate": BUILD_DATE,
    "market": MARKET,
}


def facts_from(
    vin: str | None, source: str, raw: Mapping[str, Any] | None, parameters: Mapping[str, Any] | None
) -> VehicleFacts:
    """The facts of a vehicle from its VIN (None for a browsed car), its source's name, the raw_data its decode
    stored and the catalog car's parameters. Later layers win: parameters, then the VIN, then the source's own data."""
    raw = raw if isinstance(raw, Mapping) else {}
    stored = raw.get("parameters")
    listed = {
        **(stored if isinstance(stored, Mapping) else {}),
        **(parameters if isinstance(parameters, Mapping) else {}),
    }
    found: dict[str, Any] = {**_mapped(listed, _PARAMETER_KEYS), **vin_facts(vin)}
    if source == "catapi":
        found.update(_catapi(raw))
    elif source == "portal":
        found.update(_portal(raw))
    return VehicleFacts(**found)


def vin_facts(vin: str | None) -> dict[str, FactValue]:
    """The model year and plant a VIN tells, for the makes known to encode them; nothing for the others."""
    vin = (vin or "").strip().upper()
    if not _VIN.match(vin) or not _encodes_year(vin):
        return {}
    year = model_year(vin)
    return {PLANT: vin[10], **({MODEL_YEAR: year} if year else {})}


def model_year(vin: str) -> int | None:
    """Position 10 read as a model year. North American VINs say the cycle by position 7 (a digit: 1980-2009);
    elsewhere letters are read as 2010-2030 and digits as 2001-2009, the cycle of every car in a parts catalog today."""
    index = _YEAR_CODES.find(vin[9])
    if index < 0:
        return None
    if _north_american(vin):
        return (1980 if vin[6].isdigit() else 2010) + index
    return 2010 + index if vin[9].isalpha() else 1980 + index


def _encodes_year(vin: str) -> bool:
    return _north_american(vin) or vin[:3] in VW_GROUP_WMIS


def _north_american(vin: str) -> bool:
    return vin[0] in "12345"


def _catapi(raw: Mapping[str, Any]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    criteria = raw.get("criteria")
    if isinstance(criteria, str) and criteria.strip():
        found[CRITERIA] = criteria.strip()
        found.update(_mapped(parse_criteria(criteria), _CRITERIA_KEYS))
    found.update(_complete_options(raw.get("optionCodes")))
    return found


def _portal(raw: Mapping[str, Any]) -> dict[str, Any]:
    build = raw.get("buildData")
    if not isinstance(build, Mapping):
        return {}
    return {**_mapped(build, _BUILD_DATA_KEYS), **_complete_options(build.get("prCodes"))}


def parse_criteria(text: str) -> dict[str, str]:
    """The catalog API's criteria "modelCode=AU;buildDate=2017-03" as a mapping (pieces without "=" are skipped)."""
    pairs = (piece.split("=", 1) for piece in text.split(";") if "=" in piece)
    return {key.strip(): value.strip() for key, value in pairs if key.strip() and value.strip()}


def _complete_options(codes: Any) -> dict[str, Any]:
    if not isinstance(codes, list | tuple):
        return {}
    kept = [code.strip() for code in codes if isinstance(code, str) and code.strip()]
    return {"option_codes": frozenset(kept), "option_list_complete": True}


def _mapped(values: Mapping[str, Any], keys: Mapping[str, str]) -> dict[str, FactValue]:
    found: dict[str, FactValue] = {}
    for key, fact in keys.items():
        value = _fact_value(fact, values.get(key))
        if value is not None:
            found[fact] = value
    return found


def _fact_value(fact: str, value: Any) -> FactValue | None:
    if value is None or isinstance(value, bool):
        return None
    if fact == BUILD_DATE:
        return build_date(value)
    if fact == MODEL_YEAR:
        text = str(value).strip()
        return int(text) if text.isdigit() and 1900 <= int(text) <= 2100 else None
    text = str(value).strip().upper()
    return text if (_BODY if fact == BODY_STYLE else _CODE).match(text) else None


def build_date(value: Any) -> BuildDate | None:
    """A month as the sources write it: "03.2017" (portal), "2017-03" (catalog API criteria); None otherwise."""
    if not isinstance(value, str):
        return None
    for pattern, year_group in ((_MONTH_YEAR, 2), (_YEAR_MONTH, 1)):
        if match := pattern.match(value):
            year, month = int(match.group(year_group)), int(match.group(3 - year_group))
            return BuildDate(year, month) if 1 <= month <= 12 else None
    return None
