"""The configured VIN sources, built from the app's settings (the decode engine and the CLI use the same list)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.sources.base import VinSource
from app.sources.catapi import CatapiSettings, CatapiSource
from app.sources.portal import PortalSettings, PortalSource
from app.sources.scrape import ScrapeSettings, ScrapeSource
from app.sources.vin_api import VinApiSettings, VinApiSource


def vin_sources(config: Mapping[str, Any]) -> list[VinSource]:
    """Catalog sources first (a source without settings is left out), then the public decoder."""
    sources: list[VinSource] = []
    catapi = CatapiSettings.from_config(config)
    if catapi.base_urls:
        sources.append(CatapiSource(catapi))
    scrape = ScrapeSettings.from_config(config)
    if scrape.base_url:
        sources.append(ScrapeSource(scrape))
    portal = PortalSettings.from_config(config)
    if portal.base_url:
        sources.append(PortalSource(portal))
    sources.append(VinApiSource(VinApiSettings.from_config(config)))
    return sources
