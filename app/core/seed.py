"""`flask seed`: idempotent seeding, one step per domain, run in the order they are listed."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

import click
from flask import Flask

log = logging.getLogger(__name__)


SeedStep = Callable[[], str]


def step_name(step: SeedStep) -> str:
    return f"{step.__module__}.{step.__qualname__}"


def run_seed(steps: Sequence[SeedStep]) -> list[tuple[str, str]]:
    """Run each step in its own transaction; a step returns a short summary of what it changed."""
    from app.extensions import db

    results = []
    for step in steps:
        try:
            summary = step()
            db.session.commit()
        except Exception:
            db.session.rollback()
            raise
        log.info("seed %s: %s", step_name(step), summary)
        results.append((step_name(step), summary))
    return results


def register_seed_command(app: Flask, steps: Sequence[SeedStep]) -> None:
    app.config.setdefault("SEED_STEPS", steps)

    @app.cli.command("seed")
    def seed_command() -> None:
        """Create the reference data every environment needs (safe to run again)."""
        configured = app.config["SEED_STEPS"]
        if not configured:
            click.echo("seed: no steps registered")
        for name, summary in run_seed(configured):
            click.echo(f"seed {name}: {summary}")
