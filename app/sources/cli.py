"""`flask sources check VIN`: what each upstream source answers for a VIN, with timings."""

from __future__ import annotations

import os

import click
from flask import Flask, current_app

from app.core.sandboxes import standing_in
from app.sources import wmi
from app.sources.base import LookupResult
from app.sources.registry import vin_sources


def describe(result: LookupResult) -> list[str]:
    header = f"{result.source:<10} {result.outcome.value:<11} {result.elapsed_ms:>6} ms"
    if result.error:
        return [f"{header}  {result.error}"]
    lines = [header]
    for car in result.cars:
        details = ", ".join(str(part) for part in (car.year, car.engine, car.criteria) if part)
        lines.append(f"{'':<10} - {car.brand} {car.model}" + (f" ({details})" if details else ""))
    return lines


def register_sources_commands(app: Flask) -> None:
    @app.cli.group("sources")
    def sources() -> None:
        """Upstream catalog sources."""

    @sources.command("check")
    @click.argument("vin")
    def check(vin: str) -> None:
        """Ask every source about VIN and print what each answers, with timings.

        A source with no settings is answered by the sandbox `make run` starts for it, never by the internet.
        """
        from app.sources.sandbox import local  # noqa: F401 - registers the source sandboxes (only when asked)

        vin = vin.strip().upper()
        with standing_in("sources", current_app.config, os.environ) as sandboxed:
            if sandboxed:
                click.echo(f"sandbox    {', '.join(sandboxed)} (no settings: the local sandboxes `make run` uses)")
            _check(vin)


def _check(vin: str) -> None:
    info = wmi.identify(vin)
    if info is None:
        click.echo(f"wmi        {vin[:3]}: unknown make")
    else:
        routed = "portal: " + (info.portal_service if info.routed_to_portal() else "not routed")
        click.echo(f"wmi        {info.wmi}: {info.brand} ({info.country or '?'}), {routed}")
    for source in vin_sources(current_app.config):
        try:
            click.echo("\n".join(describe(source.lookup_vin(vin))))
        finally:
            close = getattr(source, "close", None)  # the scrape source may hold a headless browser
            if close is not None:
                close()
