"""Fault knobs from settings: `SANDBOX_<SOURCE>_<KNOB>` sets a sandbox's fault field, e.g. SANDBOX_CATAPI_LATENCY_MS=800
or SANDBOX_SCRAPE_CHALLENGE=true, so `make run` can be made slow or flaky on purpose. Tests set the fields directly."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from typing import Any

TRUE_WORDS = {"1", "true", "yes", "on"}


def apply_fault_settings(faults: Any, source: str, environ: Mapping[str, str] | None = None) -> list[str]:
    """Set each knob named in the environment on `faults` (a dataclass); return the names that were set."""
    environ = os.environ if environ is None else environ
    applied = []
    for knob in dataclasses.fields(faults):
        raw = environ.get(f"SANDBOX_{source.upper()}_{knob.name.upper()}", "").strip()
        if raw:
            setattr(faults, knob.name, _parse(raw, getattr(faults, knob.name)))
            applied.append(knob.name)
    return applied


def _parse(raw: str, current: Any) -> Any:
    """Read `raw` as the type of the knob's current value."""
    if isinstance(current, bool):
        return raw.lower() in TRUE_WORDS
    if isinstance(current, int):
        return int(raw)
    if isinstance(current, float):
        return float(raw)
    if isinstance(current, frozenset):
        return frozenset(int(item) for item in raw.split(",") if item.strip())
    return raw
