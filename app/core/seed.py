"""`flask seed`: idempotent seeding, one step per domain, run in the order they are listed."""

from __future__ import annotations

import logging
from collections.abc import Callable
from importlib import import_module

import click
from flask import Flask

log = logging.getLogger(__name__)


def load_step(dotted: str) -> Callable[[], str]:
    module_name, _, func_name = dotted.rpartition(".")
    return getattr(import_module(module_name), func_name)


def run_seed(steps: list[str]) -> list[tuple[str, str]]:
    """Run each step in its own transaction; a step returns a short summary of what it changed."""
    from app.extensions import db

    results = []
    for dotted in steps:
        try:
            summary = load_step(dotted)()
            db.session.commit()
        except Exception:
            db.session.rollback()
            raise
        log.info("seed %s: %s", dotted, summary)
        results.append((dotted, summary))
    return results


def register_seed_command(app: Flask, steps: list[str]) -> None:
    app.config.setdefault("SEED_STEPS", steps)

    @app.cli.command("seed")
    def seed_command() -> None:
        """Create the reference data every environment needs (safe to run again)."""
        configured = app.config["SEED_STEPS"]
        if not configured:
            click.echo("seed: no steps registered")
        for dotted, summary in run_seed(configured):
            click.echo(f"seed {dotted}: {summary}")
