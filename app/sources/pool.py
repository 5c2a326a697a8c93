"""Long-lived source adapters per configuration: they keep tokens, login sessions and connection pools between
decodes (building them per decode would log in to every upstream each time)."""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Any

from app.sources.base import VinSource
from app.sources.catapi import CatapiSettings
from app.sources.portal import PortalSettings
from app.sources.registry import vin_sources
from app.sources.scrape import ScrapeSettings
from app.sources.vin_api import VinApiSettings

_pool: dict[tuple, dict[str, VinSource]] = {}
_pool_lock = threading.Lock()


def _settings_key(config: Mapping[str, Any]) -> tuple:
    return (
        CatapiSettings.from_config(config),
        ScrapeSettings.from_config(config),
        PortalSettings.from_config(config),
        VinApiSettings.from_config(config),
    )


def configured_sources(config: Mapping[str, Any]) -> dict[str, VinSource]:
    """Every configured source by name (catapi, scrape, portal, vin_api), built once per configuration."""
    key = _settings_key(config)
    with _pool_lock:
        if key not in _pool:
            _pool[key] = {source.name: source for source in vin_sources(config)}
        return _pool[key]


def catalog_sources(config: Mapping[str, Any]) -> dict[str, VinSource]:
    return {name: source for name, source in configured_sources(config).items() if name != "vin_api"}


def vin_api_source(config: Mapping[str, Any]) -> VinSource:
    return configured_sources(config)["vin_api"]


def suspended_makes(config: Mapping[str, Any]) -> frozenset[str]:
    return PortalSettings.from_config(config).suspended
