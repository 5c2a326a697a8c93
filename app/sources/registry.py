"""The configured VIN sources, built from the app's settings (the decode engine and the CLI use the same list)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.sources.base import VinSource
from app.sources.vin_api import VinApiSettings, VinApiSource


def vin_sources(config: Mapping[str, Any]) -> list[VinSource]:
    return [VinApiSource(VinApiSettings.from_config(config))]
