"""The offline WMI table: the first three VIN characters to a make and the dealer-portal service that covers it.

Our brand table (app.sources.brands.BRANDS, Turkish plants included) answers first; vininfo's ~700 WMIs answer for
the rest of the world. Some makes' VIN identification on the portal is suspended: they are not routed to the
portal, so its failure counter is not poisoned by answers it cannot give.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from vininfo import Vin
from vininfo.exceptions import ValidationError

from app.sources.brands import BRANDS

# Our own brands and their WMIs (Turkish plants included) come first; vininfo fills in the rest of the world.
OUR_WMIS: dict[str, tuple[str, str]] = {wmi: (name, slug) for name, slug, wmis in BRANDS for wmi in wmis}

# vininfo manufacturer names that are not simply our brand name.
MANUFACTURER_ALIASES: dict[str, str] = {
    "daimlerchrysler ag/daimler ag": "mercedes-benz",
    "ford otosan": "ford",
    "tofas": "fiat",
}

# Brand slug -> the portal's service for it; makes without a service are never sent to the portal.
PORTAL_SERVICES: dict[str, str] = {
    "volkswagen": "vw",
    "audi": "vw",
    "skoda": "vw",
    "seat": "vw",
    "renault": "renault",
    "dacia": "renault",
    "toyota": "toyota",
    "lexus": "toyota",
    "bmw": "bmw",
    "mini": "bmw",
    "fiat": "fiat",
    "alfa-romeo": "fiat",
    "jeep": "fiat",
    "ford": "ford",
    "opel": "opel",
    "peugeot": "psa",
    "citroen": "psa",
    "ds": "psa",
    "hyundai": "hyundai",
    "kia": "hyundai",
    "mercedes-benz": "mercedes",
}

# Makes whose VIN identification the portal has suspended (see the module docstring); settings may replace it.
DEFAULT_PORTAL_SUSPENDED = frozenset({"mercedes-benz"})

UNKNOWN_MANUFACTURER = "UnsupportedBrand"


@dataclass(frozen=True)
class WmiInfo:
    wmi: str
    brand: str
    brand_slug: str
    country: str | None
    portal_service: str | None

    def routed_to_portal(self, suspended: frozenset[str] = DEFAULT_PORTAL_SUSPENDED) -> bool:
        return self.portal_service is not None and self.brand_slug not in suspended


def slugify(name: str) -> str:
    """'Škoda' -> 'skoda', 'Citroën' -> 'citroen', 'Alfa Romeo' -> 'alfa-romeo' (ı has no decomposition)."""
    folded = unicodedata.normalize("NFKD", name.lower().replace("ı", "i"))
    ascii_only = "".join(char for char in folded if not unicodedata.combining(char))
    return re.sub(r"[^a-z0-9]+", "-", ascii_only).strip("-")


def identify(vin: str) -> WmiInfo | None:
    """The make behind a VIN's WMI, or None when neither table knows it (the check digit is never required)."""
    vin = vin.strip().upper()
    wmi = vin[:3]
    try:
        decoded = Vin(vin)
    except ValidationError:
        return None
    country = decoded.country
    if wmi in OUR_WMIS:
        brand, slug = OUR_WMIS[wmi]
    else:
        manufacturer = decoded.manufacturer
        if not manufacturer or manufacturer == UNKNOWN_MANUFACTURER:
            return None
        slug = MANUFACTURER_ALIASES.get(manufacturer.lower(), slugify(manufacturer))
        brand = manufacturer
    return WmiInfo(wmi=wmi, brand=brand, brand_slug=slug, country=country, portal_service=PORTAL_SERVICES.get(slug))
